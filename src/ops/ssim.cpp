// The CPU reference of SSIM (src/ops/ssim.hpp), and of the shrinking that
// --ssim-downsample puts before it. Each thread takes a band of
// output rows and keeps the window's 11 rows of horizontally filtered
// moments in a ring (one new row per output row), so the image is filtered
// along rows once plus 10 rows per band. Compiled with -ffp-contract=off
// (CMakeLists.txt): every product and sum is rounded on its own, as the
// kernels in cuda/ssim.cu round them.
#include "src/ops/ssim.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "src/error.hpp"
#include "src/parallel.hpp"

namespace imgpar {

namespace {

constexpr int kMoments = 5;  // a, b, a^2, b^2, ab

__extension__ typedef __int128 Int128;  // GCC's and Clang's 128-bit integer

// The horizontal pass of one image row (source row y): for each sample s =
// x * C + c, the window's weighted sum along the row of each moment, into
// out[m * n + s] (n = W * C). T: std::uint8_t (read as int) or double.
template <typename T>
void filter_row(const SsimPlanes<T>& a, const SsimPlanes<T>& b, int y, const SsimTaps& t, double* out) {
    // 8-bit samples as int (exact integer terms); 16-bit ones and doubles
    // through the double terms (16-bit products and sums stay below 2^34:
    // exact as well).
    using Sample = std::conditional_t<std::is_same_v<T, std::uint8_t>, int, double>;
    const int w = a.width, ch = a.channels;
    const std::size_t n = static_cast<std::size_t>(w) * ch;
    const T* ra = a.data + static_cast<std::size_t>(y) * a.row_samples;
    const T* rb = b.data + static_cast<std::size_t>(y) * b.row_samples;
    for (int x = 0; x < w; ++x) {
        const bool inside = x >= kSsimRadius && x < w - kSsimRadius;
        for (int c = 0; c < ch; ++c) {
            const std::size_t s = static_cast<std::size_t>(x) * ch + c;
            double pairs[kMoments][kSsimRadius];
            for (int k = 1; k <= kSsimRadius; ++k) {
                const int xl = inside ? x - k : ssim_reflect(x - k, w);
                const int xr = inside ? x + k : ssim_reflect(x + k, w);
                const std::size_t l = static_cast<std::size_t>(xl) * ch + c, r = static_cast<std::size_t>(xr) * ch + c;
                double terms[kMoments];
                ssim_pair_terms(Sample(ra[l]), Sample(ra[r]), Sample(rb[l]), Sample(rb[r]), terms);
                for (int m = 0; m < kMoments; ++m) pairs[m][k - 1] = terms[m];
            }
            double centre[kMoments];
            ssim_centre_terms(Sample(ra[s]), Sample(rb[s]), centre);
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

const SsimTaps& ssim_taps16() {
    static const SsimTaps taps = [] {
        SsimTaps t = ssim_taps();
        t.c1 = (kSsimK1 * kSsimDataRange16) * (kSsimK1 * kSsimDataRange16);
        t.c2 = (kSsimK2 * kSsimDataRange16) * (kSsimK2 * kSsimDataRange16);
        return t;
    }();
    return taps;
}

bool ssim_fits(int width, int height) { return width >= kSsimWindow && height >= kSsimWindow; }

int ssim_downsample_factor(int request, int width, int height) {
    if (request < 0 || request > kSsimMaxDownsample)
        throw usage_error("--ssim-downsample", "must be auto or a whole number from 1 to " +
                                                   std::to_string(kSsimMaxDownsample) + ", not " + std::to_string(request));
    if (request != kSsimAutoDownsample) return request;
    // ssim.m: max(1, round(min(M, N) / 256)), MATLAB rounding halves away from zero.
    return std::max(1, static_cast<int>(std::lround(std::min(width, height) / 256.0)));
}

SsimResult ssim_from_sums(const SsimSums& sums, int width, int height, int channels, int downsample) {
    SsimResult r;
    if (!ssim_fits(width, height)) return r;
    r.defined = true;
    r.channels = channels;
    r.downsample = downsample;
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

namespace {

// SSIM of two images of one shape (ssim_fits), the map into `map` when given.
template <typename T>
SsimSums ssim_sums(const SsimPlanes<T>& a, const SsimPlanes<T>& b, const ViewU8* map, const SsimTaps& t = ssim_taps()) {
    const int w = a.width, h = a.height, ch = a.channels;
    const std::size_t n = static_cast<std::size_t>(w) * ch;
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
    return sums;
}

}  // namespace

namespace {

template <typename T>
std::vector<double> shrink(ImageView<const T> image, int f) {
    const int w = image.width, h = image.height, ch = image.channels;
    const int out_w = ssim_shrunk_side(w, f), out_h = ssim_shrunk_side(h, f), before = (f - 1) / 2;
    const std::size_t n = static_cast<std::size_t>(out_w) * ch;
    std::vector<double> out(n * static_cast<std::size_t>(out_h));
    parallel_for(out_h, 1, [&](int y0, int y1) {
        std::vector<long long> sums(n);  // 16-bit: up to 65535 f^2, past 2^31
        for (int y = y0; y < y1; ++y) {
            std::fill(sums.begin(), sums.end(), 0);
            for (int dy = 0; dy < f; ++dy) {
                const T* row = image.row(ssim_reflect(y * f + dy - before, h));
                for (int x = 0; x < out_w; ++x)
                    for (int dx = 0; dx < f; ++dx) {
                        const T* px = row + static_cast<std::size_t>(ssim_reflect(x * f + dx - before, w)) * ch;
                        for (int c = 0; c < ch; ++c) sums[static_cast<std::size_t>(x) * ch + c] += px[c];
                    }
            }
            double* o = out.data() + n * static_cast<std::size_t>(y);
            for (std::size_t s = 0; s < n; ++s) o[s] = ssim_shrunk_value(sums[s], f);
        }
    });
    return out;
}

}  // namespace

std::vector<double> ssim_shrink(ConstViewU8 image, int f) { return shrink(image, f); }
std::vector<double> ssim_shrink(ConstViewU16 image, int f) { return shrink(image, f); }

SsimResult ssim(ConstViewU8 a, ConstViewU8 b, const ViewU8* map, int downsample) {
    if (!same_shape(a, b)) throw usage_error("ssim", "the two images differ in size or channel count");
    if (downsample < 1 || downsample > kSsimMaxDownsample)
        throw usage_error("ssim", "the downsampling factor " + std::to_string(downsample) + " is outside 1.." +
                                      std::to_string(kSsimMaxDownsample));
    const int w = ssim_shrunk_side(a.width, downsample), h = ssim_shrunk_side(a.height, downsample), ch = a.channels;
    if (map && (map->width != w || map->height != h || map->channels != ch))
        throw usage_error("ssim", "the map's shape differs from the (shrunk) images'");
    if (!ssim_fits(w, h))
        throw usage_error("ssim", std::to_string(w) + "x" + std::to_string(h) + (downsample > 1 ? " (shrunk)" : "") +
                                      " is smaller than the 11x11 window");
    SsimSums sums;
    if (downsample == 1) {
        // 8-bit samples: the strides in bytes are in samples.
        sums = ssim_sums(SsimPlanes<std::uint8_t>{a.data, w, h, ch, a.stride},
                         SsimPlanes<std::uint8_t>{b.data, w, h, ch, b.stride}, map);
    } else {
        const std::vector<double> sa = ssim_shrink(a, downsample), sb = ssim_shrink(b, downsample);
        const std::size_t n = static_cast<std::size_t>(w) * ch;
        sums = ssim_sums(SsimPlanes<double>{sa.data(), w, h, ch, n}, SsimPlanes<double>{sb.data(), w, h, ch, n}, map);
    }
    return ssim_from_sums(sums, w, h, ch, downsample);
}

SsimResult ssim(ConstViewU16 a, ConstViewU16 b, const ViewU8* map, int downsample) {
    if (!same_shape(a, b)) throw usage_error("ssim", "the two images differ in size or channel count");
    if (downsample < 1 || downsample > kSsimMaxDownsample)
        throw usage_error("ssim", "the downsampling factor " + std::to_string(downsample) + " is outside 1.." +
                                      std::to_string(kSsimMaxDownsample));
    const int w = ssim_shrunk_side(a.width, downsample), h = ssim_shrunk_side(a.height, downsample), ch = a.channels;
    if (map && (map->width != w || map->height != h || map->channels != ch))
        throw usage_error("ssim", "the map's shape differs from the (shrunk) images'");
    if (!ssim_fits(w, h))
        throw usage_error("ssim", std::to_string(w) + "x" + std::to_string(h) + (downsample > 1 ? " (shrunk)" : "") +
                                      " is smaller than the 11x11 window");
    SsimSums sums;
    if (downsample == 1) {
        sums = ssim_sums(SsimPlanes<std::uint16_t>{a.data, w, h, ch, a.stride / sizeof(std::uint16_t)},
                         SsimPlanes<std::uint16_t>{b.data, w, h, ch, b.stride / sizeof(std::uint16_t)}, map,
                         ssim_taps16());
    } else {
        const std::vector<double> sa = ssim_shrink(a, downsample), sb = ssim_shrink(b, downsample);
        const std::size_t n = static_cast<std::size_t>(w) * ch;
        sums = ssim_sums(SsimPlanes<double>{sa.data(), w, h, ch, n}, SsimPlanes<double>{sb.data(), w, h, ch, n}, map,
                         ssim_taps16());
    }
    return ssim_from_sums(sums, w, h, ch, downsample);
}

}  // namespace cpu
}  // namespace imgpar
