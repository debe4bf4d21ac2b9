#!/usr/bin/env python3
"""The OpenCV peer of imgpar chain 'blur --sigma 2 | sharpen | equalize' in the
whole-run benchmark (chain.sh): what a Python user writes.
  opencv_chain.py IN OUT                 one file: imread -> the three stages -> imwrite
  opencv_chain.py --pool N OUT_DIR IN... a process pool of N over many files
The stages, each on the previous one's 8-bit image, with imgpar's defaults
(edges replicated):
  blur      Gaussian sigma 2, 13x13 (imgpar's radius ceil(3 sigma) = 6)
  sharpen   unsharp mask sigma 1 (7x7), amount 1, threshold 0.05, ImageMagick's
            rule: add amount x (image - blur) where 2 |image - blur| >= 0.05 x 255
  equalize  histogram equalization of the luma (Y of YCrCb) of colour images,
            of the samples of gray ones
JPEG out at quality 95 (OpenCV's 4:2:0); alpha, if any, is kept unchanged."""
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np


def unsharp(img, sigma=1.0, amount=1.0, threshold=0.05):
    f = img.astype(np.float32)
    size = 2 * int(np.ceil(3 * sigma)) + 1
    diff = f - cv2.GaussianBlur(f, (size, size), sigma, borderType=cv2.BORDER_REPLICATE)
    sharp = np.where(2 * np.abs(diff) >= threshold * 255, f + amount * diff, f)
    return np.clip(np.rint(sharp), 0, 255).astype(np.uint8)


def equalize(img):
    if img.ndim == 2:
        return cv2.equalizeHist(img)
    ycrcb = cv2.cvtColor(img, cv2.COLOR_BGR2YCrCb)
    ycrcb[..., 0] = cv2.equalizeHist(ycrcb[..., 0])
    return cv2.cvtColor(ycrcb, cv2.COLOR_YCrCb2BGR)


def chain(src, dst):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    alpha = None
    if img.ndim == 3 and img.shape[2] == 4:
        img, alpha = img[..., :3], img[..., 3]
    elif img.ndim == 3 and img.shape[2] == 1:
        img = img[..., 0]
    img = cv2.GaussianBlur(img, (13, 13), 2, borderType=cv2.BORDER_REPLICATE)
    img = equalize(unsharp(img))
    if alpha is not None:
        img = np.dstack([img, alpha])
    if not cv2.imwrite(dst, img, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise SystemExit(f"cannot write {dst}")


def chain_into(args):
    src, out_dir = args
    chain(src, os.path.join(out_dir, os.path.basename(src)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "--pool":
        workers, out_dir, files = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
        t = time.perf_counter()
        with Pool(workers) as pool:
            pool.map(chain_into, [(f, out_dir) for f in files], chunksize=1)
        print(f"{len(files) / (time.perf_counter() - t):.1f}")
    else:
        chain(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
