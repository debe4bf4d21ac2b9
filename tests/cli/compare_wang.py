#!/usr/bin/env python3
"""imgpar compare --ssim-downsample against Wang et al.'s ssim.m, written
again here with numpy alone, on real photos and their blurred and
JPEG-compressed versions (made with imgpar itself, decoded back to PNG by
imgpar so both sides read the same pixels).

    tests/cli/compare_wang.py IMGPAR WORKDIR [--device cpu|gpu]

ssim.m, per channel: f = max(1, round(min(M, N) / 256)) unless given;
imfilter(img, ones(f) / f^2, 'symmetric', 'same') then img(1:f:end, 1:f:end);
filter2(fspecial('gaussian', 11, 1.5), ., 'valid') of each moment;
C1 = (0.01 255)^2, C2 = (0.03 255)^2; the mean of the map. The image's SSIM
is the mean of its channels'. For F in auto, 2, 3, 7 it checks imgpar's
"downsample", "pixels" and per-channel and overall SSIM (within 1e-9), prints
one line per pair and "N pairs, M failed" last; exits 1 on any failure.
Needs numpy only (the PNGs are read with zlib: imgpar writes them stored).
"""
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")
FACTORS = ["auto", "2", "3", "7"]
TOLERANCE = 1e-9


def run(imgpar, *args):
    return subprocess.run([imgpar, *args], check=True, capture_output=True, text=True).stdout


def read_png(path):
    """An 8-bit, non-interlaced PNG as an (H, W, C) uint8 array."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit gray/RGB(A) without interlacing is read here")
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8).reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind, row = raw[y, 0], raw[y, 1:].astype(np.int64)
        if kind == 0:
            cur = row
        elif kind == 1:  # Sub: a running sum per channel
            cur = np.cumsum(row.reshape(width, channels), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            cur = (row + prev) % 256
        else:  # Average, Paeth: sample by sample
            cur = row.copy()
            for i in range(stride):
                a = int(cur[i - channels]) if i >= channels else 0
                b = int(prev[i])
                c = int(prev[i - channels]) if i >= channels else 0
                if kind == 3:
                    pred = (a + b) // 2
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                else:
                    raise ValueError(f"{path}: filter type {kind}")
                cur[i] = (cur[i] + pred) % 256
        out[y] = cur
        prev = cur
    return out.reshape(height, width, channels)


def auto_factor(height, width):
    # MATLAB's round: halves away from zero (Python's round() goes to even).
    return max(1, int(np.floor(min(height, width) / 256 + 0.5)))


def shrink(x, f):
    """imfilter(x, ones(f) / f^2, 'symmetric', 'same')(1:f:end, 1:f:end): the
    kernel's centre is floor((f + 1) / 2) (1-based), so output i averages
    inputs i f - floor((f - 1) / 2) .. i f - floor((f - 1) / 2) + f - 1. The
    exact integer sum over f^2, one rounding."""
    if f == 1:
        return x.astype(np.float64)
    h, w = x.shape
    oh, ow = -(-h // f), -(-w // f)
    before = (f - 1) // 2
    padded = np.pad(x.astype(np.int64), ((before, max(0, oh * f - before - h)), (before, max(0, ow * f - before - w))),
                    mode="symmetric")[:oh * f, :ow * f]
    return padded.reshape(oh, f, ow, f).sum(axis=(1, 3)).astype(np.float64) / float(f * f)


def valid_filter(x, window):
    """filter2(window, x, 'valid'): every 11 x 11 window inside x."""
    k = window.shape[0]
    h, w = x.shape[0] - k + 1, x.shape[1] - k + 1
    out = np.zeros((h, w), dtype=np.float64)
    for j in range(k):
        for i in range(k):
            out += window[j, i] * x[j:j + h, i:i + w]
    return out


def wang_ssim(x, y, f):
    """ssim.m's mssim of one channel (2-D uint8 arrays) shrunk by f, and the
    number of windows it averages."""
    r = np.arange(-5, 6, dtype=np.float64)
    window = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * 1.5 ** 2))
    window /= window.sum()
    a, b = shrink(x, f), shrink(y, f)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mu1, mu2 = valid_filter(a, window), valid_filter(b, window)
    s11 = valid_filter(a * a, window) - mu1 * mu1
    s22 = valid_filter(b * b, window) - mu2 * mu2
    s12 = valid_filter(a * b, window) - mu1 * mu2
    ssim_map = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) * (s11 + s22 + c2))
    return float(ssim_map.mean()), ssim_map.size


def self_check():
    # The shrink's windows by hand (one row 0 10 20 30 40): f = 2 pairs
    # columns 0-1, 2-3, 4-5 (5 mirrors to 4); f = 4 takes -1..2 and 3..6.
    row = np.array([[0, 10, 20, 30, 40]], dtype=np.uint8)
    assert shrink(row, 2).tolist() == [[5.0, 25.0, 40.0]], shrink(row, 2)
    assert shrink(row, 4).tolist() == [[7.5, 35.0]], shrink(row, 4)
    assert shrink(row, 17).tolist() == [[390.0 * 17 / 289]], shrink(row, 17)
    assert auto_factor(4320, 7680) == 17 and auto_factor(384, 384) == 2 and auto_factor(383, 383) == 1


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    imgpar, work = sys.argv[1], sys.argv[2]
    device = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--device" else "cpu"
    self_check()
    os.makedirs(work, exist_ok=True)
    pairs = []
    for sample in ["camera.png", "chelsea.png", "chelsea_alpha.png", "rocket.jpg"]:
        stem = os.path.splitext(sample)[0]
        ref = os.path.join(work, stem + ".png")
        # Stored PNGs (--compression 0): no filtering, quick to read here.
        run(imgpar, "convert", os.path.join(SAMPLES, sample), ref, "--compression", "0", "-q")
        for sigma in ["1", "3"]:
            out = os.path.join(work, f"{stem}_blur{sigma}.png")
            run(imgpar, "blur", ref, out, "--sigma", sigma, "--compression", "0", "-q")
            pairs.append((ref, out))
        for quality in [] if "alpha" in sample else ["90", "50"]:  # JPEG has no alpha
            jpg = os.path.join(work, f"{stem}_q{quality}.jpg")
            run(imgpar, "convert", ref, jpg, "--quality", quality, "-q")
            png = os.path.join(work, f"{stem}_q{quality}.png")
            run(imgpar, "convert", jpg, png, "--compression", "0", "-q")  # the pixels imgpar decoded
            pairs.append((ref, png))
    worst, bad = 0.0, 0
    for a, b in pairs:
        x, y = read_png(a), read_png(b)
        height, width, channels = x.shape
        parts, ok = [], True
        for factor in FACTORS:
            f = auto_factor(height, width) if factor == "auto" else int(factor)
            record = json.loads(run(imgpar, "compare", a, b, "--json", "--ssim-downsample", factor, "--device", device))
            got = [c["ssim"] for c in record["per_channel"]]
            want, windows = zip(*(wang_ssim(x[:, :, c], y[:, :, c], f) for c in range(channels)))
            mean = sum(want) / channels
            diff = max([abs(g - w) for g, w in zip(got, want)] + [abs(record["all"]["ssim"] - mean)])
            worst = max(worst, diff)
            good = (record["ssim"].get("downsample") == f and record["ssim"].get("pixels") == windows[0]
                    and len(got) == channels and diff <= TOLERANCE)
            ok = ok and good
            parts.append(f"{factor} (f={record['ssim'].get('downsample')}) {record['all']['ssim']:.12f} numpy {mean:.12f} "
                         f"diff {diff:.1e}{'' if good else ' FAIL'}")
        bad += not ok
        print(f"{os.path.basename(a)} vs {os.path.basename(b)}: " + "; ".join(parts))
    print(f"largest difference {worst:.3e}; {len(pairs)} pairs, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
