#!/usr/bin/env python3
"""The OpenCV peer of the whole-run benchmark: what a Python user writes.
  opencv_blur.py IN OUT                 one file: imread -> GaussianBlur -> imwrite
  opencv_blur.py --pool N OUT_DIR IN... a process pool of N over many files
Gaussian sigma 2 with a 13x13 kernel, as imgpar's blur --sigma 2 (radius 6)."""
import os
import sys
import time
from multiprocessing import Pool

import cv2


def blur(src, dst):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    if not cv2.imwrite(dst, cv2.GaussianBlur(img, (13, 13), 2)):
        raise SystemExit(f"cannot write {dst}")


def blur_into(args):
    src, out_dir = args
    blur(src, os.path.join(out_dir, os.path.basename(src)))


def main():
    if sys.argv[1] == "--pool":
        workers, out_dir, files = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
        t = time.perf_counter()
        with Pool(workers) as pool:
            pool.map(blur_into, [(f, out_dir) for f in files], chunksize=1)
        print(f"{len(files) / (time.perf_counter() - t):.1f}")
    else:
        blur(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
