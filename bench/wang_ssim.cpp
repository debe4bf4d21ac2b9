#include "bench/wang_ssim.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>

#include "src/ops/ssim.hpp"

namespace imgpar::bench {
namespace {

// One channel of `image` as doubles, shrunk by f: the f x f mean around every
// f-th sample (MATLAB's kernel centre, floor((f + 1) / 2), so the window runs
// from -(f - 1) / 2 to f / 2), the samples 0, f, 2f, ... kept. Outside the
// image the window reads it mirrored with the edge sample repeated (MATLAB's
// 'symmetric', which is ssim_reflect's rule).
std::vector<double> shrunk(const ImageU8& image, int channel, int f, int& out_w, int& out_h) {
    const int w = image.width(), h = image.height(), c = image.channels();
    out_w = (w + f - 1) / f;
    out_h = (h + f - 1) / f;
    std::vector<double> out(static_cast<std::size_t>(out_w) * static_cast<std::size_t>(out_h));
    const int before = (f - 1) / 2;
    for (int y = 0; y < out_h; ++y)
        for (int x = 0; x < out_w; ++x) {
            double sum = 0;
            for (int dy = 0; dy < f; ++dy) {
                const std::uint8_t* row = image.row(ssim_reflect(y * f + dy - before, h));
                for (int dx = 0; dx < f; ++dx) sum += row[ssim_reflect(x * f + dx - before, w) * c + channel];
            }
            out[static_cast<std::size_t>(y) * static_cast<std::size_t>(out_w) + static_cast<std::size_t>(x)] = sum / (f * f);
        }
    return out;
}

}  // namespace

WangSsim wang_reference_ssim(const ImageU8& a, const ImageU8& b) {
    WangSsim result;
    result.factor = std::max(1, static_cast<int>(std::lround(std::min(a.width(), a.height()) / 256.0)));
    // The same window (11 x 11, sigma 1.5) and constants as imgpar's SSIM.
    const SsimTaps& t = ssim_taps();
    for (int c = 0; c < a.channels(); ++c) {
        int w = 0, h = 0;
        const std::vector<double> x = shrunk(a, c, result.factor, w, h);
        const std::vector<double> y = shrunk(b, c, result.factor, w, h);
        double sum = 0;
        long long count = 0;
        for (int top = 0; top + kSsimWindow <= h; ++top)
            for (int left = 0; left + kSsimWindow <= w; ++left) {
                double mx = 0, my = 0, xx = 0, yy = 0, xy = 0;
                for (int j = 0; j < kSsimWindow; ++j)
                    for (int i = 0; i < kSsimWindow; ++i) {
                        const std::size_t at = static_cast<std::size_t>(top + j) * static_cast<std::size_t>(w) +
                                               static_cast<std::size_t>(left + i);
                        const double g = t.w[std::abs(j - kSsimRadius)] * t.w[std::abs(i - kSsimRadius)], u = x[at], v = y[at];
                        mx += g * u, my += g * v, xx += g * u * u, yy += g * v * v, xy += g * u * v;
                    }
                sum += ssim_value(t, mx, my, xx, yy, xy);
                ++count;
            }
        result.channel.push_back(count ? sum / static_cast<double>(count) : 1.0);
    }
    return result;
}

}  // namespace imgpar::bench
