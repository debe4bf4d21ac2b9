// References for the resize tests of both sample types, written from the
// contract in src/ops/resize.hpp and independently of its tables: the
// filters' kernels and normalised weights in float64, the separable filter in
// float64 with no rounding between the passes, and area as the exact
// rational box mean in 64-bit integers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "src/ops/resize.hpp"

namespace imgpar::test {

inline double resize_kernel(ResizeFilter f, double x) {
    x = std::fabs(x);
    const double pi = 3.14159265358979323846;
    const auto sinc = [pi](double v) { return v == 0 ? 1.0 : std::sin(pi * v) / (pi * v); };
    switch (f) {
        case ResizeFilter::Bilinear: return std::max(0.0, 1 - x);
        case ResizeFilter::Bicubic:
            return x < 1 ? 1.5 * x * x * x - 2.5 * x * x + 1 : x < 2 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 0;
        case ResizeFilter::Lanczos3: return x < 3 ? sinc(x) * sinc(x / 3) : 0;
        default: return 0;
    }
}

// One axis of n input samples to m outputs: each output's (input, weight)
// pairs, normalised to sum to one; the kernel widened by the factor when
// shrinking, centres at (j + 0.5) n / m.
inline std::vector<std::vector<std::pair<int, double>>> resize_weights(ResizeFilter f, int n, int m) {
    const double s = static_cast<double>(n) / m, widen = std::max(1.0, s);
    const double support = f == ResizeFilter::Bilinear ? 1 : f == ResizeFilter::Bicubic ? 2 : 3;
    std::vector<std::vector<std::pair<int, double>>> all(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j) {
        const double c = (j + 0.5) * s;
        double total = 0;
        for (int i = 0; i < n; ++i) {
            const double wgt = std::fabs(i + 0.5 - c) < support * widen ? resize_kernel(f, (i + 0.5 - c) / widen) : 0.0;
            if (wgt != 0) all[static_cast<std::size_t>(j)].push_back({i, wgt}), total += wgt;
        }
        for (auto& p : all[static_cast<std::size_t>(j)]) p.second /= total;
    }
    return all;
}

// The separable filter in float64 of one channel of an iw x ih input (value(x,
// y) gives it) to w x h, rows first, no rounding between the passes; the
// result row by row.
template <typename Value>
std::vector<double> float_resize_pass(ResizeFilter f, int iw, int ih, int w, int h, const Value& value) {
    const auto wx = resize_weights(f, iw, w), wy = resize_weights(f, ih, h);
    std::vector<double> rows(static_cast<std::size_t>(ih) * w), out(static_cast<std::size_t>(h) * w);
    for (int y = 0; y < ih; ++y)
        for (int j = 0; j < w; ++j) {
            double v = 0;
            for (const auto& [i, wgt] : wx[static_cast<std::size_t>(j)]) v += wgt * value(i, y);
            rows[static_cast<std::size_t>(y) * w + j] = v;
        }
    for (int k = 0; k < h; ++k)
        for (int j = 0; j < w; ++j) {
            double v = 0;
            for (const auto& [i, wgt] : wy[static_cast<std::size_t>(k)]) v += wgt * rows[static_cast<std::size_t>(i) * w + j];
            out[static_cast<std::size_t>(k) * w + j] = v;
        }
    return out;
}

// The box mean of output (j, k) of channel c of a w x h resize, exactly:
// overlaps in units of 1/out, rounded half up.
template <typename Image>
long long area_box_mean(const Image& src, int w, int h, int j, int k, int c) {
    const long long n = src.width(), m = w, ny = src.height(), my = h;
    long long sum = 0;
    for (long long y = 0; y < ny; ++y) {
        const long long oy = std::max(0LL, std::min((y + 1) * my, (k + 1) * ny) - std::max(y * my, k * ny));
        if (!oy) continue;
        for (long long x = 0; x < n; ++x) {
            const long long ox = std::max(0LL, std::min((x + 1) * m, (j + 1) * n) - std::max(x * m, j * n));
            sum += ox * oy * src.at(static_cast<int>(x), static_cast<int>(y), c);
        }
    }
    const long long d = n * ny;
    return (2 * sum + d) / (2 * d);
}

// How many samples of `got`, a nearest resize of src, differ from NumPy
// indexing: output (j, k) is input ((2j + 1) n // (2m), (2k + 1) ny // (2my)).
template <typename Image>
int nearest_mismatches(const Image& src, const Image& got) {
    const long long n = src.width(), ny = src.height(), m = got.width(), my = got.height();
    int bad = 0;
    for (int k = 0; k < got.height(); ++k)
        for (int j = 0; j < got.width(); ++j) {
            const int x = static_cast<int>((2LL * j + 1) * n / (2 * m)), y = static_cast<int>((2LL * k + 1) * ny / (2 * my));
            for (int c = 0; c < src.channels(); ++c) bad += got.at(j, k, c) != src.at(x, y, c);
        }
    return bad;
}

}  // namespace imgpar::test
