// The arithmetic of SSIM (src/ops/ssim.hpp), one definition for the CPU
// reference and the CUDA kernels, so both compute every pixel's value with
// the same double-precision operations in the same order, each product and
// sum rounded on its own (no fused multiply-add on either side: the device
// side spells its roundings with __dmul_rn/__dadd_rn/__ddiv_rn, the host
// file is compiled with -ffp-contract=off). Equal per-pixel values, then an
// exact integer sum of them (ssim_quantize), make the mean the same bits on
// both backends.
#pragma once

#include <cmath>
#include <cstdint>

#include "src/hd.hpp"
#include "src/ops/rounded_math.hpp"

namespace imgpar {

// Wang et al. 2004 as scikit-image's structural_similarity(gaussian_weights=
// True, sigma=1.5, use_sample_covariance=False, data_range=255) computes it:
// a Gaussian window of sigma 1.5 truncated at radius int(3.5 sigma + 0.5) = 5
// (11 x 11), K1 = 0.01, K2 = 0.03.
constexpr int kSsimRadius = 5;
constexpr int kSsimWindow = 2 * kSsimRadius + 1;
constexpr double kSsimSigma = 1.5;
constexpr double kSsimK1 = 0.01;
constexpr double kSsimK2 = 0.03;
constexpr double kSsimDataRange = 255;
constexpr double kSsimDataRange16 = 65535;  // 16-bit images (src/ops/ssim.hpp, 16 BITS)
// Per-pixel values are summed as integers in units of 2^-52 (exact, so in
// any order; a double near 1 has that resolution): each value q, |q| <= 2^52
// (|SSIM| <= 1), is split into q = hi 2^26 + lo with 0 <= lo < 2^26, and the
// sums of hi and of lo over a channel fit in 64 bits up to 2^37 pixels.
constexpr double kSsimQuantum = 4503599627370496.0;  // 2^52
constexpr int kSsimSplitBits = 26;

// The window's 1-D taps: w[0] the centre, w[k] at distance k (the window is
// symmetric), normalised to sum 1 over -5..5 (ssim_taps() fills it on the
// host; kernels receive it by value). c1 = (K1 R)^2, c2 = (K2 R)^2.
struct SsimTaps {
    double w[kSsimRadius + 1];
    double c1, c2;
};

// Index i of a line of n samples under scipy.ndimage's 'reflect' mode (the
// one scikit-image's SSIM filters with): the edge sample repeated,
// dcba|abcd|dcba, for any distance outside (n >= 1).
IMGPAR_HD int ssim_reflect(int i, int n) {
    if (i >= 0 && i < n) return i;  // inside: no division
    const int period = 2 * n;
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - 1 - i;
}

// The window's weighted sum along one axis: centre value p0 and the sums of
// the two samples at distance k, pair[k - 1], k = 1..5:
//   ((((w0 p0 + w1 pair1) + w2 pair2) + w3 pair3) + w4 pair4) + w5 pair5
IMGPAR_HD double ssim_window_sum(const SsimTaps& t, double p0, const double pair[kSsimRadius]) {
    double acc = mul_rn(t.w[0], p0);
    for (int k = 1; k <= kSsimRadius; ++k) acc = add_rn(acc, mul_rn(t.w[k], pair[k - 1]));
    return acc;
}

// A small non-negative integer as a double, exactly (0 <= v < 2^31). On the
// device: the bits of 2^52 + v less 2^52, one fp64 subtraction where the
// conversion instruction runs at a quarter of the fp64 rate.
IMGPAR_HD double ssim_exact_double(int v) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(__hiloint2double(0x43300000, v), 4503599627370496.0);
#else
    return static_cast<double>(v);
#endif
}

// The row pass's inputs for one pair of samples at distance k (left l, right
// r, of images a and b), one per moment: l + r of a and of b, l^2 + r^2 of a
// and of b, and l_a l_b + r_a r_b. 8-bit samples: integer sums of integer
// products, exact. Double samples (the shrunk images of --ssim-downsample):
// each product and sum rounded on its own. For integer-valued doubles both
// give the same values.
IMGPAR_HD void ssim_pair_terms(int la, int ra, int lb, int rb, double out[5]) {
    out[0] = ssim_exact_double(la + ra);
    out[1] = ssim_exact_double(lb + rb);
    out[2] = ssim_exact_double(la * la + ra * ra);
    out[3] = ssim_exact_double(lb * lb + rb * rb);
    out[4] = ssim_exact_double(la * lb + ra * rb);
}
IMGPAR_HD void ssim_pair_terms(double la, double ra, double lb, double rb, double out[5]) {
    out[0] = add_rn(la, ra);
    out[1] = add_rn(lb, rb);
    out[2] = add_rn(mul_rn(la, la), mul_rn(ra, ra));
    out[3] = add_rn(mul_rn(lb, lb), mul_rn(rb, rb));
    out[4] = add_rn(mul_rn(la, lb), mul_rn(ra, rb));
}
// The same for the window's centre sample: a, b, a^2, b^2, ab.
IMGPAR_HD void ssim_centre_terms(int a, int b, double out[5]) {
    out[0] = ssim_exact_double(a);
    out[1] = ssim_exact_double(b);
    out[2] = ssim_exact_double(a * a);
    out[3] = ssim_exact_double(b * b);
    out[4] = ssim_exact_double(a * b);
}
IMGPAR_HD void ssim_centre_terms(double a, double b, double out[5]) {
    out[0] = a;
    out[1] = b;
    out[2] = mul_rn(a, a);
    out[3] = mul_rn(b, b);
    out[4] = mul_rn(a, b);
}

// A sample of an image shrunk by f (--ssim-downsample): the exact integer sum
// of the f x f samples it stands for, divided by f^2 and rounded once.
// (16-bit samples: sums up to 65535 x 1024^2 < 2^37, exact in a double.)
IMGPAR_HD double ssim_shrunk_value(long long sum, int f) {
    return div_rn(static_cast<double>(sum), static_cast<double>(static_cast<long long>(f) * f));
}

// One pixel's SSIM from its window's weighted moments (means ux, uy; mean
// squares uxx, uyy; mean product uxy), with population covariance and in
// scikit-image's order of operations:
//   vx = uxx - ux ux, vy = uyy - uy uy, vxy = uxy - ux uy
//   S = ((2 ux) uy + c1) (2 vxy + c2) / (((ux ux + uy uy) + c1) ((vx + vy) + c2))
IMGPAR_HD double ssim_value(const SsimTaps& t, double ux, double uy, double uxx, double uyy, double uxy) {
    const double vx = sub_rn(uxx, mul_rn(ux, ux));
    const double vy = sub_rn(uyy, mul_rn(uy, uy));
    const double vxy = sub_rn(uxy, mul_rn(ux, uy));
    const double a1 = add_rn(mul_rn(mul_rn(2.0, ux), uy), t.c1);
    const double a2 = add_rn(mul_rn(2.0, vxy), t.c2);
    const double b1 = add_rn(add_rn(mul_rn(ux, ux), mul_rn(uy, uy)), t.c1);
    const double b2 = add_rn(add_rn(vx, vy), t.c2);
    return div_rn(mul_rn(a1, a2), mul_rn(b1, b2));
}

// A pixel's value in units of 2^-52, rounded to nearest (ties to even): the
// term of the exact sums the mean is made of.
IMGPAR_HD long long ssim_quantize(double s) {
#if defined(__CUDA_ARCH__)
    return __double2ll_rn(__dmul_rn(s, kSsimQuantum));
#else
    // Scaling by a power of two is exact; nearbyint rounds ties to even in
    // the default rounding mode, as the device's conversion does.
    return static_cast<long long>(std::nearbyint(s * kSsimQuantum));
#endif
}
// Its two parts: q = ssim_high(q) 2^26 + ssim_low(q), 0 <= low < 2^26.
IMGPAR_HD long long ssim_high(long long q) { return q >> kSsimSplitBits; }  // arithmetic: floor
IMGPAR_HD long long ssim_low(long long q) { return q & ((1LL << kSsimSplitBits) - 1); }

// A pixel of the 8-bit SSIM map: round(255 S) for 0 <= S <= 1, negative
// values (anti-correlated windows) 0.
IMGPAR_HD int ssim_map_value(double s) {
    if (!(s > 0.0)) return 0;
    if (s >= 1.0) return 255;
    return static_cast<int>(add_rn(mul_rn(s, 255.0), 0.5));
}

}  // namespace imgpar
