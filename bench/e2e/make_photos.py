#!/usr/bin/env python3
"""Makes the photo set of the whole-run benchmark from freely licensed photos
(Debian's wallpaper packages: see run.sh): single/ holds a 16 MP JPEG and PNG
and an 8192x8192 JPEG; batch/ holds COUNT JPEGs of 2 to 12 MP, crops and
rescalings of the sources (deterministic: the same sources give the same set).

usage: make_photos.py SOURCE_DIR OUT_DIR [COUNT]"""
import glob
import os
import random
import sys
from multiprocessing import Pool

import cv2


def write_jpeg(args):
    path, image = args
    cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 92])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src_dir, out = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 520
    sources = sorted(f for f in glob.glob(os.path.join(src_dir, "**", "*"), recursive=True)
                     if f.lower().endswith((".jpg", ".jpeg", ".png")))
    images = [(os.path.basename(f).rsplit(".", 1)[0], cv2.imread(f, cv2.IMREAD_COLOR)) for f in sources]
    images = [(n, im) for n, im in images if im is not None and im.shape[0] * im.shape[1] >= 2_000_000]
    if not images:
        sys.exit(f"no photos of 2 MP or more under {src_dir}")
    os.makedirs(os.path.join(out, "single"), exist_ok=True)
    os.makedirs(os.path.join(out, "batch"), exist_ok=True)
    q = [cv2.IMWRITE_JPEG_QUALITY, 92]

    largest = max(images, key=lambda t: t[1].shape[0] * t[1].shape[1])[1]
    mp16 = cv2.resize(largest, (4896, 3264), interpolation=cv2.INTER_AREA)  # 16.0 MP, 3:2
    cv2.imwrite(os.path.join(out, "single", "photo16mp.jpg"), mp16, q)
    cv2.imwrite(os.path.join(out, "single", "photo16mp.png"), mp16)
    big = cv2.resize(largest, (8192, 8192), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(os.path.join(out, "single", "photo8k.jpg"), big, q)

    rng = random.Random(23)
    jobs = []
    for i in range(count):
        name, im = images[i % len(images)]
        h, w = im.shape[:2]
        target = rng.uniform(2.0e6, 12.0e6)  # pixels
        scale = min(1.0, (target / (w * h)) ** 0.5) if rng.random() < 0.5 else 1.0
        if scale < 1.0:
            im = cv2.resize(im, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA)
            h, w = im.shape[:2]
        # A crop of about `target` pixels (the whole image when smaller), at a random place.
        cw = min(w, max(1, int((target * w / h) ** 0.5)))
        ch = min(h, max(1, int(target / cw)))
        if cw * ch < 2_000_000:
            cw, ch = w, h
        x, y = rng.randint(0, w - cw), rng.randint(0, h - ch)
        jobs.append((os.path.join(out, "batch", f"{i:04d}_{name}.jpg"), im[y:y + ch, x:x + cw].copy()))
        if len(jobs) == 64 or i == count - 1:  # encode in parallel, a bounded number in memory
            with Pool() as pool:
                pool.map(write_jpeg, jobs)
            jobs = []
    print(f"{out}: 3 single photos, {count} batch photos from {len(images)} sources")


if __name__ == "__main__":
    main()
