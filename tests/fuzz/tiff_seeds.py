"""TIFF seeds for the fuzz corpus (tests/fuzz/make_corpus.py): small files
written byte by byte, so each layout libtiff and imgpar's TIFF reader take
comes out as asked: both byte orders, strips and tiles, contiguous and
separate planes, 1- to 16-bit and float samples, gray, RGB(A), palette,
CMYK, min-is-white, associated alpha, PackBits and Deflate data, an ICC
profile and several pages. (LZW and JPEG data are left to the fuzzer's
mutations of imgpar's own files, and to the unit tests.)"""

import struct
import zlib

SHORT, LONG, RATIONAL, UNDEFINED, FLOAT = 3, 4, 5, 7, 11
SIZES = {SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1}


def packbits(data):
    """PackBits as literal runs of up to 128 bytes, and repeats where 3 or more bytes repeat."""
    out, i = bytearray(), 0
    while i < len(data):
        run = 1
        while i + run < len(data) and run < 128 and data[i + run] == data[i]:
            run += 1
        if run >= 3:
            out += bytes([257 - run, data[i]])
            i += run
            continue
        j = i
        while j < len(data) and j - i < 128 and not (j + 2 < len(data) and data[j] == data[j + 1] == data[j + 2]):
            j += 1
        out += bytes([j - i - 1]) + data[i:j]
        i = j
    return bytes(out)


def pack(samples, bits, order, floating=False):
    """A row of samples in the file's byte order; up to 8 bits as PNG packs them (most significant first)."""
    if floating:
        return b"".join(struct.pack(order + "f", s) for s in samples)
    if bits == 16:
        return b"".join(struct.pack(order + "H", s) for s in samples)
    from make_corpus import pack_row  # (make_corpus imports this module)
    return pack_row(samples, bits)


def page_blocks(p, order):
    """The page's strips or tiles, each packed (and compressed)."""
    w, h, spp, bits = p["width"], p["height"], p["samples"], p["bits"]
    planes = spp if p.get("planar") else 1
    per = 1 if p.get("planar") else spp
    tile = p.get("tile")
    bw, bh = (tile, tile) if tile else (w, p.get("rows", 4))
    blocks = []
    for plane in range(planes):
        for y0 in range(0, h, bh):
            for x0 in (range(0, w, bw) if tile else [0]):
                raw = b""
                for y in range(y0, min(y0 + bh, h) if not tile else y0 + bh):
                    row = []
                    for x in range(x0, x0 + bw):
                        for s in range(per):
                            inside = x < w and y < h
                            row.append(p["value"](x, y, plane + s) if inside else 0)
                    raw += pack(row, bits, order, p.get("float", False))
                c = p.get("compression", 1)
                blocks.append(zlib.compress(raw) if c == 8 else packbits(raw) if c == 32773 else raw)
    return blocks


def tiff(pages, big_endian=False):
    """A classic TIFF of `pages` (dicts: width, height, samples, bits, photometric, value(x, y, s), and
    optionally rows, tile, planar, compression, predictor, extra, colormap, float, inkset, icc)."""
    order = ">" if big_endian else "<"
    out = bytearray(b"MM\x00\x2a" if big_endian else b"II\x2a\x00") + b"\0\0\0\0"
    link_at = 4
    for p in pages:
        blocks = page_blocks(p, order)
        offsets = []
        for b in blocks:
            offsets.append(len(out))
            out += b
            if len(out) % 2:
                out += b"\0"
        spp = p["samples"]
        tags = {256: (LONG, [p["width"]]), 257: (LONG, [p["height"]]), 258: (SHORT, [32 if p.get("float") else p["bits"]] * spp),
                259: (SHORT, [p.get("compression", 1)]), 262: (SHORT, [p["photometric"]]), 277: (SHORT, [spp]),
                284: (SHORT, [2 if p.get("planar") else 1])}
        if p.get("tile"):
            tags.update({322: (LONG, [p["tile"]]), 323: (LONG, [p["tile"]]), 324: (LONG, offsets),
                         325: (LONG, [len(b) for b in blocks])})
        else:
            tags.update({273: (LONG, offsets), 278: (LONG, [p.get("rows", 4)]), 279: (LONG, [len(b) for b in blocks])})
        if p.get("float"):
            tags[339] = (SHORT, [3] * spp)
        for tag, key in ((338, "extra"), (320, "colormap"), (332, "inkset"), (317, "predictor")):
            if key in p:
                tags[tag] = (SHORT, p[key] if isinstance(p[key], list) else [p[key]])
        if "icc" in p:
            tags[34675] = (UNDEFINED, list(p["icc"]))
        if len(pages) > 1:
            tags[254] = (LONG, [2])
        # Values longer than 4 bytes go before the directory.
        entries = []
        for tag in sorted(tags):
            kind, values = tags[tag]
            fmt = {SHORT: "H", LONG: "I", UNDEFINED: "B"}[kind]
            data = struct.pack(order + fmt * len(values), *values)
            if len(data) > 4:
                at = len(out)
                out += data + (b"\0" if len(data) % 2 else b"")
                entries.append((tag, kind, len(values), struct.pack(order + "I", at)))
            else:
                entries.append((tag, kind, len(values), data.ljust(4, b"\0")))
        ifd = len(out)
        out[link_at:link_at + 4] = struct.pack(order + "I", ifd)
        out += struct.pack(order + "H", len(entries))
        for tag, kind, count, value in entries:
            out += struct.pack(order + "HHI", tag, kind, count) + value
        link_at = len(out)
        out += b"\0\0\0\0"
    return bytes(out)


def seeds(icc):
    w, h = 13, 11

    def ramp(top):
        return lambda x, y, s: (x * 37 + y * 11 + s * 53) % (top + 1)

    def page(samples, bits, photometric, **more):
        p = {"width": w, "height": h, "samples": samples, "bits": bits, "photometric": photometric,
             "value": ramp((1 << min(bits, 16)) - 1)}
        p.update(more)
        return p

    s = {}
    s["tiff_gray8.tif"] = tiff([page(1, 8, 1)])
    s["tiff_gray8_be.tif"] = tiff([page(1, 8, 1, rows=3)], big_endian=True)
    s["tiff_rgb8_deflate.tif"] = tiff([page(3, 8, 2, compression=8)])
    s["tiff_rgba8_packbits.tif"] = tiff([page(4, 8, 2, compression=32773, extra=[2])])
    s["tiff_rgba8_assoc.tif"] = tiff([page(4, 8, 2, extra=[1])])
    s["tiff_gray_alpha16_be.tif"] = tiff([page(2, 16, 1, extra=[2])], big_endian=True)
    s["tiff_rgb16_tiled.tif"] = tiff([page(3, 16, 2, tile=16)])
    s["tiff_rgb8_planar.tif"] = tiff([page(3, 8, 2, planar=True, rows=5)])
    s["tiff_rgb8_planar_tiled_deflate.tif"] = tiff([page(3, 8, 2, planar=True, tile=16, compression=8)])
    s["tiff_gray1_white.tif"] = tiff([page(1, 1, 0, compression=32773)])
    s["tiff_gray2.tif"] = tiff([page(1, 2, 1)])
    s["tiff_gray4_tiled.tif"] = tiff([page(1, 4, 1, tile=16)])
    s["tiff_palette8.tif"] = tiff([page(1, 8, 3, colormap=[(i * 257 * 7) % 65536 for i in range(3 * 256)])])
    s["tiff_palette4.tif"] = tiff([page(1, 4, 3, colormap=[(i * 4369) % 65536 for i in range(3 * 16)])])
    s["tiff_cmyk8.tif"] = tiff([page(4, 8, 5, inkset=1)])
    s["tiff_float_gray.tif"] = tiff([page(1, 32, 1, float=True, value=lambda x, y, c: (x + y) / 24.0 - 0.1)])
    s["tiff_rgb8_icc.tif"] = tiff([page(3, 8, 2, icc=icc)])
    s["tiff_pages3.tif"] = tiff([page(1, 8, 1), page(3, 8, 2, compression=8), page(2, 16, 1, extra=[2])])
    s["tiff_1x1.tif"] = tiff([dict(page(3, 8, 2), width=1, height=1)])
    return s
