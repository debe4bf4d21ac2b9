#!/usr/bin/env python3
"""The Python peers of the compare whole-run benchmark: what a Python user writes
to get SSIM and PSNR of two photos.
  peer_ssim.py skimage|opencv A B                  one pair, prints "ssim psnr"
  peer_ssim.py --pool N skimage|opencv DIR_A DIR_B  a process pool of N over the
                                                    files of DIR_A against DIR_B's
skimage: skimage.metrics.structural_similarity(gaussian_weights=True, sigma=1.5,
use_sample_covariance=False, data_range=255, channel_axis=-1), the definition
imgpar follows, and peak_signal_noise_ratio. opencv: the SSIM recipe of OpenCV's
documentation (GaussianBlur 11x11, sigma 1.5, in float64, mirrored edges, the
mean over the image less a 5-pixel border) and PSNR from NumPy. Each reads the
images with its own library."""
import os
import sys
import time
from multiprocessing import Pool

import numpy as np


def read(path):
    import cv2
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {path}")
    return img


def opencv_ssim(x, y):
    import cv2
    x = x.astype(np.float64)
    y = y.astype(np.float64)
    blur = lambda v: cv2.GaussianBlur(v, (11, 11), 1.5, borderType=cv2.BORDER_REFLECT)
    mx, my = blur(x), blur(y)
    vx, vy, vxy = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    s = (2 * mx * my + c1) * (2 * vxy + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(s[5:-5, 5:-5].mean())


def metrics(kind, a, b):
    if kind == "skimage":
        from skimage.io import imread
        from skimage.metrics import peak_signal_noise_ratio, structural_similarity
        x, y = imread(a), imread(b)
        axis = -1 if x.ndim == 3 else None
        ssim = structural_similarity(x, y, gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
                                     data_range=255, channel_axis=axis)
        return ssim, peak_signal_noise_ratio(x, y, data_range=255)
    x, y = read(a), read(b)
    mse = np.mean((x.astype(np.float64) - y.astype(np.float64)) ** 2)
    return opencv_ssim(x, y), 10 * np.log10(255 ** 2 / mse) if mse else float("inf")


def pair(args):
    return metrics(*args)


def main():
    if sys.argv[1] == "--pool":
        workers, kind, dir_a, dir_b = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
        names = sorted(os.listdir(dir_a))
        t = time.perf_counter()
        with Pool(workers) as pool:
            pool.map(pair, [(kind, os.path.join(dir_a, n), os.path.join(dir_b, n)) for n in names], chunksize=1)
        print(f"{len(names) / (time.perf_counter() - t):.1f}")
    else:
        print("%.6f %.4f" % metrics(sys.argv[1], sys.argv[2], sys.argv[3]))


if __name__ == "__main__":
    main()
