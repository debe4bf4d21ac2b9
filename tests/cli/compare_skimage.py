#!/usr/bin/env python3
"""imgpar compare against scikit-image, on real photos and their blurred and
JPEG-compressed versions (made with imgpar itself, decoded back to PNG by
imgpar so both sides read the same pixels).

    tests/cli/compare_skimage.py IMGPAR WORKDIR [--device cpu|gpu]

For each pair it prints imgpar's SSIM, PSNR and MSE beside
skimage.metrics.structural_similarity(gaussian_weights=True, sigma=1.5,
use_sample_covariance=False, data_range=255), peak_signal_noise_ratio and
mean_squared_error, and checks the SSIM map (--ssim-map) against
round(255 clip(S, 0, 1)) of scikit-image's full map, border included. Exits 1
when SSIM differs by more than 1e-4, PSNR or MSE by more than 1e-9 relative,
or a map pixel differs away from a rounding edge. Needs numpy and skimage.
"""
import json
import os
import subprocess
import sys

import numpy as np
from skimage import io
from skimage.metrics import mean_squared_error, peak_signal_noise_ratio, structural_similarity

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")


def run(imgpar, *args):
    return subprocess.run([imgpar, *args], check=True, capture_output=True, text=True).stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    imgpar, work = sys.argv[1], sys.argv[2]
    device = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--device" else "cpu"
    os.makedirs(work, exist_ok=True)
    pairs = []
    for sample in ["camera.png", "chelsea.png", "chelsea_alpha.png", "rocket.jpg"]:
        stem = os.path.splitext(sample)[0]
        ref = os.path.join(work, stem + ".png")
        run(imgpar, "convert", os.path.join(SAMPLES, sample), ref, "-q")
        for sigma in ["1", "3"]:
            out = os.path.join(work, f"{stem}_blur{sigma}.png")
            run(imgpar, "blur", ref, out, "--sigma", sigma, "-q")
            pairs.append((ref, out))
        for quality in [] if "alpha" in sample else ["90", "50"]:  # JPEG has no alpha
            jpg = os.path.join(work, f"{stem}_q{quality}.jpg")
            run(imgpar, "convert", ref, jpg, "--quality", quality, "-q")
            png = os.path.join(work, f"{stem}_q{quality}.png")
            run(imgpar, "convert", jpg, png, "-q")  # the pixels imgpar decoded
            pairs.append((ref, png))
    worst = {"ssim": 0.0, "psnr": 0.0, "mse": 0.0}
    bad = 0
    for a, b in pairs:
        ssim_map = b[:-4] + "_ssim.png"
        record = json.loads(run(imgpar, "compare", a, b, "--json", "--ssim-map", ssim_map, "--device", device))
        x, y = io.imread(a), io.imread(b)
        axis = -1 if x.ndim == 3 else None
        ssim, full = structural_similarity(x, y, gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
                                           data_range=255, channel_axis=axis, full=True)
        psnr = peak_signal_noise_ratio(x, y, data_range=255)
        mse = mean_squared_error(x, y)
        d_ssim = abs(record["all"]["ssim"] - ssim)
        d_psnr = abs(record["all"]["psnr"] - psnr) / psnr
        d_mse = abs(record["all"]["mse"] - mse) / mse
        worst["ssim"] = max(worst["ssim"], d_ssim)
        worst["psnr"] = max(worst["psnr"], d_psnr)
        worst["mse"] = max(worst["mse"], d_mse)
        # The map: round(255 S), negative as 0; values within 1e-6 of a
        # rounding edge may fall either way.
        scaled = np.clip(full, 0, 1) * 255
        want = np.floor(scaled + 0.5)
        edge = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
        got = io.imread(ssim_map).astype(float)
        map_off = int(np.count_nonzero((got != want) & ~edge))
        ok = d_ssim <= 1e-4 and d_psnr <= 1e-9 and d_mse <= 1e-9 and map_off == 0
        bad += not ok
        print(f"{os.path.basename(a)} vs {os.path.basename(b)}: ssim {record['all']['ssim']:.12f} skimage {ssim:.12f} "
              f"(diff {d_ssim:.2e}); psnr {record['all']['psnr']:.9f} skimage {psnr:.9f}; mse diff {d_mse:.1e}; "
              f"map pixels off {map_off}{'' if ok else '  FAIL'}")
    print(f"largest differences: ssim {worst['ssim']:.3e}, psnr {worst['psnr']:.3e} (relative), "
          f"mse {worst['mse']:.3e} (relative); {len(pairs)} pairs, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
