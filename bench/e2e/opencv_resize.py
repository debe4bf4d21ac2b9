#!/usr/bin/env python3
"""The OpenCV peers of bench/e2e/resize.sh, as a Python user writes them:
  opencv_resize.py thumbnail|chain|half IN OUT           one file
  opencv_resize.py --pool N thumbnail|chain|half OUT_DIR IN...   a process pool of N
thumbnail: imread with IMREAD_REDUCED_COLOR_4 (libjpeg's DCT scaling: shrink-on-load),
           then INTER_AREA to fit 512x512, JPEG quality 95;
chain:     INTER_AREA to half size, GaussianBlur sigma 1 (7x7), an unsharp mask (sigma 1,
           amount 1, threshold 0.05 as ImageMagick's rule), JPEG quality 95;
half:      INTER_AREA to half size, JPEG quality 95."""
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

BOX = 512


def thumbnail(src, dst):
    img = cv2.imread(src, cv2.IMREAD_REDUCED_COLOR_4)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    h, w = img.shape[:2]
    s = min(BOX / w, BOX / h)
    out = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    cv2.imwrite(dst, out, [cv2.IMWRITE_JPEG_QUALITY, 95])


def half(img):
    h, w = img.shape[:2]
    return cv2.resize(img, (max(1, (w + 1) // 2), max(1, (h + 1) // 2)), interpolation=cv2.INTER_AREA)


def chain(src, dst):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    img = cv2.GaussianBlur(half(img), (7, 7), 1)
    blurred = cv2.GaussianBlur(img, (7, 7), 1).astype(np.int16)
    diff = img.astype(np.int16) - blurred
    sharp = np.clip(img + diff, 0, 255).astype(np.uint8)
    out = np.where(2 * np.abs(diff) >= 0.05 * 255, sharp, img)
    cv2.imwrite(dst, out, [cv2.IMWRITE_JPEG_QUALITY, 95])


def halve(src, dst):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    cv2.imwrite(dst, half(img), [cv2.IMWRITE_JPEG_QUALITY, 95])


JOBS = {"thumbnail": thumbnail, "chain": chain, "half": halve}


def into(args):
    job, src, out_dir = args
    JOBS[job](src, os.path.join(out_dir, os.path.basename(src)))


def main():
    if sys.argv[1] == "--pool":
        workers, job, out_dir, files = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
        t = time.perf_counter()
        with Pool(workers) as pool:
            pool.map(into, [(job, f, out_dir) for f in files], chunksize=1)
        print(f"{len(files) / (time.perf_counter() - t):.1f}")
    else:
        JOBS[sys.argv[1]](sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
