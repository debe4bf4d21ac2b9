// The CPU reference of SSIM (src/ops/ssim.hpp). Each thread takes a band of
// output rows and keeps the window's 11 rows of horizontally filtered
// moments in a ring (one new row per output row), so the image is filtered
// along rows once plus 10 rows per band. Compiled with -ffp-contract=off
// (CMakeLists.txt): every product and sum is rounded on its own, as the
// kernels in cuda/ssim.cu round them.
#include "src/ops/ssim.hpp"

#include <climits>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/parallel.hpp"

namespace imgpar {

namespace {

constexpr int kMoments = 5;  // a, b, a^2, b^2, ab

__extension__ typedef __int128 Int128;  // GCC's and Clang's 128-bit integer

// The horizontal pass of one image row (source row y): for each sample s =
// x * C + c, the window's weighted sum along the row of each moment, into
// out[m * n + s] (n = W * C).
void filter_row(ConstViewU8 a, ConstViewU8 b, int y, const SsimTaps& t, double* out) {
    const int w = a.width, ch = a.channels;
    const std::size_t n = a.row_samples();
    const std::uint8_t* ra = a.row(y);
    const std::uint8_t* rb = b.row(y);
    for (int x = 0; x < w; ++x) {
        const bool inside = x >= kSsimRadius && x < w - kSsimRadius;
        for (int c = 0; c < ch; ++c) {
            const int a0 = ra[static_cast<std::size_t>(x) * ch + c], b0 = rb[static_cast<std::size_t>(x) * ch + c];
            double pairs[kMoments][kSsimRadius];
            for (int k = 1; k <= kSsimRadius; ++k) {
                const int xl = inside ? x - k : ssim_reflect(x - k, w);
                const int xr = inside ? x + k : ssim_reflect(x + k, w);
                const int al = ra[static_cast<std::size_t>(xl) * ch + c], ar = ra[static_cast<std::size_t>(xr) * ch + c];
                const int bl = rb[static_cast<std::size_t>(xl) * ch + c], br = rb[static_cast<std::size_t>(xr) * ch + c];
                // Integer sums of integer products: exact in double.
                pairs[0][k - 1] = al + ar;
                pairs[1][k - 1] = bl + br;
                pairs[2][k - 1] = al * al + ar * ar;
                pairs[3][k - 1] = bl * bl + br * br;
                pairs[4][k - 1] = al * bl + ar * br;
            }
            const double centre[kMoments] = {static_cast<double>(a0), static_cast<double>(b0),
                                             static_cast<double>(a0 * a0), static_cast<double>(b0 * b0),
                                             static_cast<double>(a0 * b0)};
            const std::size_t s = static_cast<std::size_t>(x) * ch + c;
            for (int m = 0; m < kMoments; ++m) out[m * n + s] = ssim_window_sum(t, centre[m], pairs[m]);
        }
    }
}

// The vertical pass of one moment: rows[k] is the filtered row at distance
// k - 5 from the output row.
void filter_column(const double* const rows[kSsimWindow], const SsimTaps& t, std::size_t n, double* out) {
    for (std::size_t s = 0; s < n; ++s) {
        double pair[kSsimRadius];
        for (int k = 1; k <= kSsimRadius; ++k) pair[k - 1] = rows[kSsimRadius - k][s] + rows[kSsimRadius + k][s];
        out[s] = ssim_window_sum(t, rows[kSsimRadius][s], pair);
    }
}

}  // namespace

const SsimTaps& ssim_taps() {
    static const SsimTaps taps = [] {
        SsimTaps t{};
        double phi[kSsimWindow];
        double sum = 0;
        const double scale = -0.5 / (kSsimSigma * kSsimSigma);
        for (int i = 0; i < kSsimWindow; ++i) {
            const double x = i - kSsimRadius;
            phi[i] = std::exp(scale * (x * x));
            sum += phi[i];
        }
        for (int k = 0; k <= kSsimRadius; ++k) t.w[k] = phi[kSsimRadius + k] / sum;
        t.c1 = (kSsimK1 * kSsimDataRange) * (kSsimK1 * kSsimDataRange);
        t.c2 = (kSsimK2 * kSsimDataRange) * (kSsimK2 * kSsimDataRange);
        return t;
    }();
    return taps;
}

bool ssim_fits(int width, int height) { return width >= kSsimWindow && height >= kSsimWindow; }

SsimResult ssim_from_sums(const SsimSums& sums, int width, int height, int channels) {
    SsimResult r;
    if (!ssim_fits(width, height)) return r;
    r.defined = true;
    r.channels = channels;
    r.pixels = static_cast<std::uint64_t>(width - 2 * kSsimRadius) * static_cast<std::uint64_t>(height - 2 * kSsimRadius);
    double total = 0;
    for (int c = 0; c < channels; ++c) {
        const Int128 sum = static_cast<Int128>(sums.high[c]) * (Int128{1} << kSsimSplitBits) + sums.low[c];
        r.channel[c] = static_cast<double>(sum) / (kSsimQuantum * static_cast<double>(r.pixels));
        total += r.channel[c];
    }
    r.mean = total / channels;
    return r;
}

namespace cpu {

SsimResult ssim(ConstViewU8 a, ConstViewU8 b, const ViewU8* map) {
    if (!same_shape(a, b)) throw usage_error("ssim", "the two images differ in size or channel count");
    if (map && !same_shape(a, *map)) throw usage_error("ssim", "the map's shape differs from the images'");
    if (!ssim_fits(a.width, a.height))
        throw usage_error("ssim", std::to_string(a.width) + "x" + std::to_string(a.height) +
                                      " is smaller than the 11x11 window");
    const SsimTaps& t = ssim_taps();
    const int w = a.width, h = a.height, ch = a.channels;
    const std::size_t n = a.row_samples();
    SsimSums sums;
    std::mutex mutex;

    parallel_for(h, 32, [&](int y0, int y1) {
        SsimSums band;
        // The ring: slot v mod 11 holds the filtered row at virtual row v
        // (v outside 0..H-1 is the reflected row), its 5 moments n apart.
        std::vector<double> ring(static_cast<std::size_t>(kSsimWindow) * kMoments * n);
        int held[kSsimWindow];
        for (int& v : held) v = INT_MIN;
        const auto filtered = [&](int v) -> const double* {
            const int slot = ((v % kSsimWindow) + kSsimWindow) % kSsimWindow;
            double* p = ring.data() + static_cast<std::size_t>(slot) * kMoments * n;
            if (held[slot] != v) {
                filter_row(a, b, ssim_reflect(v, h), t, p);
                held[slot] = v;
            }
            return p;
        };
        std::vector<double> moments(kMoments * n);
        for (int y = y0; y < y1; ++y) {
            const double* rows[kSsimWindow];
            for (int k = 0; k < kSsimWindow; ++k) rows[k] = filtered(y + k - kSsimRadius);
            for (int m = 0; m < kMoments; ++m) {
                const double* column[kSsimWindow];
                for (int k = 0; k < kSsimWindow; ++k) column[k] = rows[k] + m * n;
                filter_column(column, t, n, moments.data() + m * n);
            }
            const double* mu_a = moments.data();
            const double* mu_b = mu_a + n;
            const double* mu_aa = mu_b + n;
            const double* mu_bb = mu_aa + n;
            const double* mu_ab = mu_bb + n;
            const bool counted_row = y >= kSsimRadius && y < h - kSsimRadius;
            std::uint8_t* out = map ? map->row(y) : nullptr;
            for (int x = 0; x < w; ++x) {
                const bool counted = counted_row && x >= kSsimRadius && x < w - kSsimRadius;
                for (int c = 0; c < ch; ++c) {
                    const std::size_t s = static_cast<std::size_t>(x) * ch + c;
                    const double v = ssim_value(t, mu_a[s], mu_b[s], mu_aa[s], mu_bb[s], mu_ab[s]);
                    if (out) out[s] = static_cast<std::uint8_t>(ssim_map_value(v));
                    if (counted) {
                        const long long q = ssim_quantize(v);
                        band.high[c] += ssim_high(q);
                        band.low[c] += ssim_low(q);
                    }
                }
            }
        }
        std::lock_guard<std::mutex> lock(mutex);
        for (int c = 0; c < ch; ++c) {  // integers: the order of the bands does not matter
            sums.high[c] += band.high[c];
            sums.low[c] += band.low[c];
        }
    });
    return ssim_from_sums(sums, w, h, ch);
}

}  // namespace cpu
}  // namespace imgpar
