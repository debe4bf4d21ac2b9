#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus: small valid files of every layout
imgpar reads, and custom kernels in both of their forms.

    tests/fuzz/make_corpus.py [OUT]        (default: tests/fuzz/corpus)

OUT/images/   PNG, JPEG, BMP, WebP, AVIF, GIF and TIFF seeds (fuzz_decode,
              fuzz_header, fuzz_metadata)
OUT/kernels/  --kernel text and --kernel-file matrices (fuzz_kernel)

PNG and BMP files are written here byte by byte (Python's standard library
only), so every layout, including interlacing, 16-bit samples and palettes
with transparency, comes out exactly as asked. JPEG files come from cjpeg of
libjpeg-turbo (Debian: libjpeg-turbo-progs), fed a PPM or PGM written here,
with EXIF, ICC, XMP (and extended XMP), IPTC and COM segments added by this
script; cmyk.jpg is copied from
tests/data (cjpeg does not write CMYK). The pixels are a fixed pattern and a
fixed-seed noise, so a run with the same cjpeg writes the same bytes. WebP
files come from cwebp and webpmux (Debian: webp), AVIF files from avifenc
(libavif-bin), both fed PNGs written here; GIFs are written here (one
uncompressed-style LZW stream), and the animated, interlaced, 10-bit and
monochrome files of tests/data are copied.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import tiff_seeds

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


class Noise:
    """A small linear congruential generator: the same bytes on every run."""

    def __init__(self, seed):
        self.state = seed

    def next(self, span):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 16) % span


def pattern(width, height, channels, seed=1, maxval=255):
    """Rows of samples: gradients per channel, an edge, a little noise, and
    (for alpha) a ramp from transparent to opaque."""
    noise = Noise(seed)
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            for c in range(channels):
                if channels in (2, 4) and c == channels - 1:
                    v = (x * 255) // max(1, width - 1)
                else:
                    v = (x * 9 + y * 5 * (c + 1) + (60 if x > width // 2 else 0) + noise.next(12)) % 256
                row.append(v * maxval // 255 if maxval != 255 else v)
        rows.append(row)
    return rows


# --- PNG ---------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOR_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def filtered(raw_rows, bpp, filters):
    """Applies PNG filters (cycling through `filters`) to packed rows."""
    out = bytearray()
    prior = bytes(len(raw_rows[0])) if raw_rows else b""
    for n, row in enumerate(raw_rows):
        f = filters[n % len(filters)]
        line = bytearray()
        for i, v in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line.append((v - p) & 0xFF)
        out.append(f)
        out += line
        prior = row
    return bytes(out)


def png(width, height, colour, depth, rows, interlace=False, palette=None, trns=None, extra=(), idat_pieces=1,
        filters=(0, 1, 2, 3, 4)):
    """A PNG from rows of samples (palette indices for colour type 3)."""
    channels = COLOR_CHANNELS[colour]
    bpp = max(1, channels * depth // 8)
    if interlace:
        data = b""
        for x0, y0, dx, dy in ADAM7:
            xs = range(x0, width, dx)
            ys = range(y0, height, dy)
            if not xs or not ys:
                continue
            sub = [pack_row([s for x in xs for s in rows[y][x * channels:(x + 1) * channels]], depth) for y in ys]
            data += filtered(sub, bpp, filters)
    else:
        data = filtered([pack_row(r, depth) for r in rows], bpp, filters)
    compressed = zlib.compress(data, 9)
    out = PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, int(interlace)))
    for kind, payload in extra:
        out += chunk(kind, payload)
    if palette is not None:
        out += chunk(b"PLTE", bytes(v for rgb in palette for v in rgb))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    step = (len(compressed) + idat_pieces - 1) // idat_pieces
    for i in range(0, len(compressed), step):
        out += chunk(b"IDAT", compressed[i:i + step])
    return out + chunk(b"IEND", b"")


def palette_rows(width, height, colours, seed):
    noise = Noise(seed)
    return [[(x + y + noise.next(3)) % colours for x in range(width)] for y in range(height)]


def palette_of(n):
    return [((i * 67) % 256, (i * 31 + 80) % 256, (255 - i * 23) % 256) for i in range(n)]


# --- Metadata ----------------------------------------------------------------

def exif_block(orientation, big_endian):
    """A TIFF structure whose first IFD holds the orientation (SHORT) and an
    ASCII make, as cameras write it."""
    e = ">" if big_endian else "<"
    make = b"imgpar\x00\x00"
    entries = [struct.pack(e + "HHII", 0x010F, 2, len(make), 8 + 2 + 2 * 12 + 4)]
    entries.append(struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0))
    ifd = struct.pack(e + "H", len(entries)) + b"".join(entries) + struct.pack(e + "I", 0)
    return (b"MM\x00*" if big_endian else b"II*\x00") + struct.pack(e + "I", 8) + ifd + make


def icc_profile():
    """A small display profile: the 128-byte header, a tag table, a
    description, a white point and a copyright (imgpar carries profiles, it
    does not interpret them; libpng checks the header and the tag table)."""
    def text_tag(kind, text):
        return kind + bytes(4) + struct.pack(">I", len(text) + 1) + text + b"\x00"

    tags = [(b"desc", text_tag(b"desc", b"imgpar fuzz seed profile") + bytes(79)),
            (b"wtpt", b"XYZ " + bytes(4) + struct.pack(">iii", 63190, 65536, 54061)),
            (b"cprt", b"text" + bytes(4) + b"No copyright, use freely\x00")]
    table_end = 128 + 4 + 12 * len(tags)
    table, data = struct.pack(">I", len(tags)), b""
    for kind, body in tags:
        body += bytes(-len(body) % 4)  # tags start on 4-byte boundaries
        table += kind + struct.pack(">II", table_end + len(data), len(body))
        data += body
    size = table_end + len(data)
    header = struct.pack(">I", size) + b"none" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
    header += struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + b"acsp" + bytes(28)  # platform .. rendering intent
    header += struct.pack(">iii", 63190, 65536, 54061)  # the D50 illuminant
    header += bytes(128 - len(header))
    return header + table + data


def jpeg_segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def add_jpeg_metadata(jpeg, exif=None, icc_pieces=0):
    """Inserts APP1 (Exif) and APP2 (ICC_PROFILE, split in `icc_pieces`)
    after SOI and the JFIF segment."""
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    segments = b""
    if exif is not None:
        segments += jpeg_segment(0xE1, b"Exif\x00\x00" + exif)
    if icc_pieces:
        profile = icc_profile()
        step = (len(profile) + icc_pieces - 1) // icc_pieces
        pieces = [profile[i:i + step] for i in range(0, len(profile), step)]
        for n, piece in enumerate(pieces):
            segments += jpeg_segment(0xE2, b"ICC_PROFILE\x00" + bytes([n + 1, len(pieces)]) + piece)
    return jpeg[:at] + segments + jpeg[at:]


XMP_GUID = b"0123456789ABCDEF0123456789ABCDEF"


def xmp_packet(extended_guid=None):
    """A small XMP packet (dc:title), naming its extended part when given."""
    note = b""
    if extended_guid:
        note = b" xmlns:xmpNote='http://ns.adobe.com/xmp/note/' xmpNote:HasExtendedXMP='" + extended_guid + b"'"
    return (b"<?xpacket begin='\xef\xbb\xbf' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>"
            b"<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about=''"
            b" xmlns:dc='http://purl.org/dc/elements/1.1/'" + note + b"><dc:title><rdf:Alt><rdf:li xml:lang='x-default'>"
            b"imgpar seed</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>")


def iptc_records():
    """IPTC-IIM: the coded character set (UTF-8), two keywords, a caption."""
    def record(rec, dataset, data):
        return bytes([0x1C, rec, dataset]) + struct.pack(">H", len(data)) + data
    return (record(1, 90, b"\x1b%G") + record(2, 25, b"alpha") + record(2, 25, b"beta") +
            record(2, 120, "Caf\u00e9 caption".encode()))


def add_jpeg_text_metadata(jpeg, extended_pieces=0):
    """Inserts XMP (with extended XMP in `extended_pieces` chunks, given out
    of order), APP13 Photoshop IPTC and two COM segments after SOI and JFIF."""
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    guid = XMP_GUID if extended_pieces else None
    segments = jpeg_segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + xmp_packet(guid))
    if extended_pieces:
        extended = xmp_packet() * 3
        step = (len(extended) + extended_pieces - 1) // extended_pieces
        offsets = list(range(0, len(extended), step))
        for offset in reversed(offsets):
            segments += jpeg_segment(0xE1, b"http://ns.adobe.com/xmp/extension/\x00" + guid +
                                     struct.pack(">II", len(extended), offset) + extended[offset:offset + step])
    iptc = iptc_records()
    resource = b"8BIM\x04\x04\x00\x00" + struct.pack(">I", len(iptc)) + iptc + bytes(len(iptc) % 2)
    segments += jpeg_segment(0xED, b"Photoshop 3.0\x00" + resource)
    segments += jpeg_segment(0xFE, b"imgpar seed comment") + jpeg_segment(0xFE, "UTF-8 \u2713".encode())
    return jpeg[:at] + segments + jpeg[at:]


def raw_profile(kind, data):
    """ImageMagick's raw profile text (PNG's carrier for IPTC)."""
    hexed = data.hex()
    lines = "\n".join(hexed[i:i + 72] for i in range(0, len(hexed), 72))
    return ("\n%s\n%8d\n%s\n" % (kind, len(data), lines)).encode()


# --- JPEG (cjpeg) --------------------------------------------------------------

def netpbm(width, height, channels, seed):
    magic = b"P5" if channels == 1 else b"P6"
    rows = pattern(width, height, channels, seed)
    return magic + b"\n%d %d\n255\n" % (width, height) + bytes(v for r in rows for v in r)


def cjpeg(scratch, width, height, channels, args, seed=3):
    source = os.path.join(scratch, "in.pnm")
    with open(source, "wb") as f:
        f.write(netpbm(width, height, channels, seed))
    return subprocess.run(["cjpeg", *args, source], check=True, capture_output=True).stdout


# --- BMP -----------------------------------------------------------------------

def bmp(width, height, bits, rows, top_down=False, palette=None, masks=None, v5=False):
    """A BMP from rows of samples: RGB(A) for 16, 24 and 32 bits, indices
    for 1, 4 and 8."""
    stride = (width * bits + 31) // 32 * 4
    pixels = b""
    order = rows if top_down else rows[::-1]
    for r in order:
        if bits == 24:
            line = b"".join(bytes((r[3 * x + 2], r[3 * x + 1], r[3 * x])) for x in range(width))
        elif bits == 32:
            line = b"".join(bytes((r[4 * x + 2], r[4 * x + 1], r[4 * x], r[4 * x + 3])) for x in range(width))
        elif bits == 16:  # 5-6-5
            line = b"".join(struct.pack("<H", (r[3 * x] >> 3) << 11 | (r[3 * x + 1] >> 2) << 5 | r[3 * x + 2] >> 3)
                            for x in range(width))
        else:
            line = pack_row(r, bits)
        pixels += line + bytes(stride - len(line))
    compression = 3 if masks else 0
    header_size = 124 if v5 else 40
    info = struct.pack("<IiiHHIIiiII", header_size, width, -height if top_down else height, 1, bits, compression,
                       len(pixels), 2835, 2835, len(palette) if palette else 0, 0)
    if v5:
        info += struct.pack("<IIII", *(masks or (0, 0, 0, 0))) + b"BGRs" + bytes(36 + 12) + struct.pack("<IIII", 4, 0, 0, 0)
        masks_after = b""
    else:
        masks_after = struct.pack("<III", *masks[:3]) if masks else b""
    table = b"".join(bytes((b, g, r, 0)) for r, g, b in palette) if palette else b""
    offset = 14 + len(info) + len(masks_after) + len(table)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + masks_after + table + pixels


# --- The corpus ------------------------------------------------------------------

def image_seeds(scratch):
    s = {}
    w, h = 13, 11  # odd sizes: partial filter bytes, every Adam7 pass non-empty
    # PNG: each colour type and bit depth, palettes, transparency, interlacing.
    s["png_gray8.png"] = png(w, h, 0, 8, pattern(w, h, 1))
    s["png_gray_alpha8.png"] = png(w, h, 4, 8, pattern(w, h, 2))
    s["png_rgb8.png"] = png(w, h, 2, 8, pattern(w, h, 3))
    s["png_rgba8.png"] = png(w, h, 6, 8, pattern(w, h, 4))
    s["png_gray16.png"] = png(w, h, 0, 16, pattern(w, h, 1, maxval=65535))
    s["png_gray_alpha16.png"] = png(w, h, 4, 16, pattern(w, h, 2, maxval=65535))
    s["png_rgb16.png"] = png(w, h, 2, 16, pattern(w, h, 3, maxval=65535))
    s["png_rgba16.png"] = png(w, h, 6, 16, pattern(w, h, 4, maxval=65535))
    for depth in (1, 2, 4):
        s["png_gray%d.png" % depth] = png(w, h, 0, depth, pattern(w, h, 1, maxval=(1 << depth) - 1))
    s["png_palette8.png"] = png(w, h, 3, 8, palette_rows(w, h, 40, 5), palette=palette_of(40))
    s["png_palette4_trns.png"] = png(w, h, 3, 4, palette_rows(w, h, 12, 6), palette=palette_of(12),
                                     trns=bytes([0, 128, 255, 64]))
    s["png_palette1.png"] = png(w, h, 3, 1, palette_rows(w, h, 2, 7), palette=palette_of(2))
    s["png_gray8_trns.png"] = png(w, h, 0, 8, pattern(w, h, 1), trns=struct.pack(">H", 17))
    s["png_rgb8_trns.png"] = png(w, h, 2, 8, pattern(w, h, 3), trns=struct.pack(">HHH", 9, 20, 31))
    s["png_rgb8_interlaced.png"] = png(w, h, 2, 8, pattern(w, h, 3), interlace=True)
    s["png_gray16_interlaced.png"] = png(w, h, 0, 16, pattern(w, h, 1, maxval=65535), interlace=True)
    s["png_rgba8_interlaced.png"] = png(w, h, 6, 8, pattern(w, h, 4), interlace=True)
    s["png_palette2_interlaced.png"] = png(w, h, 3, 2, palette_rows(w, h, 4, 8), palette=palette_of(4),
                                           interlace=True)
    s["png_1x1.png"] = png(1, 1, 2, 8, [[200, 100, 50]])
    s["png_rgb8_idat_pieces.png"] = png(w, h, 2, 8, pattern(w, h, 3), idat_pieces=4)
    ancillary = [(b"gAMA", struct.pack(">I", 45455)), (b"sRGB", b"\x00"), (b"pHYs", struct.pack(">IIB", 2835, 2835, 1)),
                 (b"tEXt", b"Comment\x00imgpar seed"), (b"sBIT", b"\x08\x08\x08"),
                 (b"zTXt", b"Title\x00\x00" + zlib.compress(b"a seed"))]
    s["png_rgb8_ancillary.png"] = png(w, h, 2, 8, pattern(w, h, 3), extra=ancillary)
    profile_chunk = b"imgpar\x00\x00" + zlib.compress(icc_profile())
    s["png_rgb8_exif_icc.png"] = png(w, h, 2, 8, pattern(w, h, 3),
                                     extra=[(b"iCCP", profile_chunk), (b"eXIf", exif_block(6, big_endian=True))])
    s["png_gray_alpha8_exif.png"] = png(w, h, 4, 8, pattern(w, h, 2), extra=[(b"eXIf", exif_block(3, False))])
    text_metadata = [(b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00" + xmp_packet()),
                     (b"zTXt", b"Raw profile type iptc\x00\x00" + zlib.compress(raw_profile("iptc", iptc_records()))),
                     (b"iTXt", b"Title\x00\x01\x00en\x00Titel\x00" + zlib.compress("Caf\u00e9".encode())),
                     (b"tEXt", b"Author\x00Jos\xe9")]
    s["png_rgb8_xmp_iptc_text.png"] = png(w, h, 2, 8, pattern(w, h, 3), extra=text_metadata)

    # JPEG: baseline and progressive, each chroma layout, gray, restarts,
    # arithmetic coding, RGB without colour transform, metadata.
    jw, jh = 37, 29  # partial MCUs in both directions
    s["jpeg_444.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "1x1"])
    s["jpeg_422.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "2x1"])
    s["jpeg_420.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "2x2"])
    s["jpeg_440.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "1x2"])
    s["jpeg_411.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "4x1"])
    s["jpeg_gray.jpg"] = cjpeg(scratch, jw, jh, 1, ["-quality", "75"])
    s["jpeg_progressive_420.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-progressive", "-sample", "2x2"])
    s["jpeg_progressive_444.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-progressive", "-sample", "1x1"])
    s["jpeg_progressive_gray.jpg"] = cjpeg(scratch, jw, jh, 1, ["-quality", "75", "-progressive"])
    s["jpeg_restart_420.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-sample", "2x2", "-restart", "1B"])
    s["jpeg_restart_rows_gray.jpg"] = cjpeg(scratch, jw, jh, 1, ["-quality", "75", "-restart", "1"])
    s["jpeg_progressive_restart.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-progressive", "-restart", "2B"])
    s["jpeg_optimized_422.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-optimize", "-sample", "2x1"])
    s["jpeg_arithmetic_420.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-arithmetic", "-sample", "2x2"])
    s["jpeg_rgb.jpg"] = cjpeg(scratch, jw, jh, 3, ["-quality", "75", "-rgb"])
    s["jpeg_quality100_444.jpg"] = cjpeg(scratch, 16, 8, 3, ["-quality", "100", "-sample", "1x1"])
    s["jpeg_1x1.jpg"] = cjpeg(scratch, 1, 1, 3, ["-quality", "75"])
    s["jpeg_exif_icc_420.jpg"] = add_jpeg_metadata(s["jpeg_420.jpg"], exif_block(6, False), icc_pieces=2)
    s["jpeg_exif_be_gray.jpg"] = add_jpeg_metadata(s["jpeg_gray.jpg"], exif_block(8, True), icc_pieces=1)
    s["jpeg_xmp_iptc_com_420.jpg"] = add_jpeg_text_metadata(s["jpeg_420.jpg"])
    s["jpeg_xmp_extended_gray.jpg"] = add_jpeg_text_metadata(s["jpeg_gray.jpg"], extended_pieces=3)
    with open(os.path.join(REPO, "tests", "data", "cmyk.jpg"), "rb") as f:
        s["jpeg_cmyk.jpg"] = f.read()

    # BMP: 24 and 32 bits, bottom-up and top-down, bit fields, palettes.
    s["bmp_rgb24.bmp"] = bmp(w, h, 24, pattern(w, h, 3))
    s["bmp_rgb24_top_down.bmp"] = bmp(w, h, 24, pattern(w, h, 3), top_down=True)
    s["bmp_rgb32.bmp"] = bmp(w, h, 32, [[v if i % 4 != 3 else 0 for i, v in enumerate(r)] for r in pattern(w, h, 4)])
    s["bmp_rgba32_v5.bmp"] = bmp(w, h, 32, pattern(w, h, 4), v5=True,
                                 masks=(0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000))
    s["bmp_rgb16_565.bmp"] = bmp(w, h, 16, pattern(w, h, 3), masks=(0xF800, 0x07E0, 0x001F))
    s["bmp_palette8.bmp"] = bmp(w, h, 8, palette_rows(w, h, 40, 9), palette=palette_of(40))
    s["bmp_palette4.bmp"] = bmp(w, h, 4, palette_rows(w, h, 16, 10), palette=palette_of(16))
    s["bmp_palette1.bmp"] = bmp(w, h, 1, palette_rows(w, h, 2, 11), palette=palette_of(2))

    s.update(webp_avif_gif_seeds(scratch, s))

    # TIFF: tests/fuzz/tiff_seeds.py.
    s.update(tiff_seeds.seeds(icc_profile()))
    return s


# --- WebP, AVIF (their encoders' tools) and GIF ----------------------------------

def run_tool(scratch, args, source, out_name):
    """Runs a tool that reads the file `source` (bytes) and writes out_name."""
    src = os.path.join(scratch, "source.png")
    with open(src, "wb") as f:
        f.write(source)
    out = os.path.join(scratch, out_name)
    subprocess.run([a.replace("{in}", src).replace("{out}", out) for a in args], check=True, capture_output=True)
    with open(out, "rb") as f:
        return f.read()


def gif(width, height, indices, colours, transparent=None):
    """A GIF89a of one frame: a global table of `colours`, LZW codes of 9 bits
    with a clear code before every 254 pixels (no string ever grows)."""
    out = bytearray(b"GIF89a" + struct.pack("<HH", width, height) + bytes([0xF7, 0, 0]))
    table = list(colours) + [(0, 0, 0)] * (256 - len(colours))
    for c in table:
        out += bytes(c)
    if transparent is not None:
        out += bytes([0x21, 0xF9, 4, 1, 0, 0, transparent, 0])
    out += b"\x2c" + struct.pack("<HHHH", 0, 0, width, height) + b"\x00"
    codes = []
    for i, v in enumerate(indices):
        if i % 254 == 0:
            codes.append(256)
        codes.append(v)
    codes.append(257)
    bits, count, data = 0, 0, bytearray()
    for c in codes:
        bits |= c << count
        count += 9
        while count >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            count -= 8
    if count:
        data.append(bits & 0xFF)
    out.append(8)
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out.append(len(piece))
        out += piece
    out += b"\x00\x3b"
    return bytes(out)


def webp_avif_gif_seeds(scratch, s):
    t = {}
    rgb, rgba = s["png_rgb8.png"], s["png_rgba8.png"]
    t["webp_lossy.webp"] = run_tool(scratch, ["cwebp", "-quiet", "-q", "75", "{in}", "-o", "{out}"], rgb, "a.webp")
    t["webp_lossy_alpha.webp"] = run_tool(scratch, ["cwebp", "-quiet", "-q", "75", "{in}", "-o", "{out}"], rgba, "b.webp")
    t["webp_lossless_alpha.webp"] = run_tool(scratch, ["cwebp", "-quiet", "-lossless", "{in}", "-o", "{out}"], rgba, "c.webp")
    t["webp_1x1.webp"] = run_tool(scratch, ["cwebp", "-quiet", "-lossless", "{in}", "-o", "{out}"], s["png_1x1.png"], "d.webp")
    exif, icc = os.path.join(scratch, "exif.bin"), os.path.join(scratch, "icc.bin")
    with open(exif, "wb") as f:
        f.write(exif_block(6, False))
    with open(icc, "wb") as f:
        f.write(icc_profile())
    with_icc = run_tool(scratch, ["webpmux", "-set", "icc", icc, "{in}", "-o", "{out}"], t["webp_lossy.webp"], "e.webp")
    t["webp_exif_icc.webp"] = run_tool(scratch, ["webpmux", "-set", "exif", exif, "{in}", "-o", "{out}"], with_icc, "f.webp")
    t["avif_420.avif"] = run_tool(scratch, ["avifenc", "-s", "10", "-y", "420", "{in}", "{out}"], rgb, "a.avif")
    t["avif_444_alpha.avif"] = run_tool(scratch, ["avifenc", "-s", "10", "-y", "444", "{in}", "{out}"], rgba, "b.avif")
    t["avif_exif_icc.avif"] = run_tool(scratch, ["avifenc", "-s", "10", "--exif", exif, "--icc", icc, "{in}", "{out}"],
                                       rgb, "c.avif")
    w, h = 24, 16
    indices = [(x * 3 + y * 5) % 7 for y in range(h) for x in range(w)]
    t["gif_rgb.gif"] = gif(w, h, indices, palette_of(7))
    t["gif_transparent.gif"] = gif(w, h, indices, palette_of(7), transparent=2)
    t["gif_1x1.gif"] = gif(1, 1, [0], palette_of(2))
    for name in ("anim.gif", "trns_interlaced.gif", "offset.gif", "anim.webp", "deep10.avif", "gray.avif"):
        with open(os.path.join(REPO, "tests", "data", name), "rb") as f:
            t["data_" + name] = f.read()
    return t


# libvips' matrix format (--kernel-file) and --kernel's inline form.
KERNEL_SEEDS = {
    "text_binomial.txt": b"1 2 1; 2 4 2; 1 2 1",
    "text_sharpen_lines.txt": b"0 -1 0\n-1 5 -1\n0 -1 0\n",
    "text_fractions.txt": b"0.0625, 0.125, 0.0625; 0.125, 0.25, 0.125; 0.0625, 0.125, 0.0625;",
    "text_signs_exponents.txt": b"+1 -2.5e0 .5; 1E-1 -0 3.; 2e+1 -7 +0.25",
    "text_row.txt": b"1 4 6 4 1",
    "file_binomial.mat": b"3 3 16 0\n1 2 1\n2 4 2\n1 2 1\n",
    "file_laplacian_offset.mat": b"3 3 1 128\n-1 -1 -1\n-1 8 -1\n-1 -1 -1\n",
    "file_row.mat": b"5 1\n1,4,6,4,1\n",
    "file_single.mat": b"1 1\n2.5e-1\n",
    "file_crlf.mat": b"2 2 4\r\n1 1\r\n1 1\r\n",
    "file_blank_lines_tabs.mat": b"\n3\t1\n\n1\t0\t-1\n\n",
    "file_gaussian7.mat": b"7 7 4096\n" + b"".join(
        b" ".join(b"%d" % (a * b) for b in (1, 6, 15, 20, 15, 6, 1)) + b"\n" for a in (1, 6, 15, 20, 15, 6, 1)),
}


def write_all(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    for name, data in sorted(files.items()):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    for tool, package in (("cjpeg", "libjpeg-turbo-progs"), ("cwebp", "webp"), ("webpmux", "webp"),
                          ("avifenc", "libavif-bin")):
        if not shutil.which(tool):
            sys.exit("make_corpus.py: %s not found (Debian: apt-get install %s)" % (tool, package))
    with tempfile.TemporaryDirectory() as scratch:
        images = image_seeds(scratch)
    write_all(os.path.join(out, "images"), images)
    write_all(os.path.join(out, "kernels"), KERNEL_SEEDS)
    total = sum(len(d) for d in images.values()) + sum(len(d) for d in KERNEL_SEEDS.values())
    print("make_corpus.py: %d image and %d kernel seeds, %d bytes, in %s" % (len(images), len(KERNEL_SEEDS), total, out))


if __name__ == "__main__":
    main()
