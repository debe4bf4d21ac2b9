#include "src/ops/adaptive_threshold.hpp"

#include "src/report/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/simd/intensity_rows.hpp"
#include "src/ops/simd/window_rows.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"

namespace imgpar {

AdaptiveMethod parse_adaptive_method(const std::string& text) {
    if (text == "mean") return AdaptiveMethod::Mean;
    if (text == "sauvola") return AdaptiveMethod::Sauvola;
    if (text == "niblack") return AdaptiveMethod::Niblack;
    throw usage_error("--adaptive", "'" + text + "' is not a method (allowed: mean, sauvola, niblack)");
}

const char* adaptive_method_name(AdaptiveMethod m) {
    switch (m) {
        case AdaptiveMethod::Mean: return "mean";
        case AdaptiveMethod::Sauvola: return "sauvola";
        case AdaptiveMethod::Niblack: return "niblack";
    }
    return "mean";
}

void check_adaptive_spec(const AdaptiveSpec& s) {
    if (s.window < 1 || s.window > kMaxAdaptiveWindow || s.window % 2 == 0)
        throw usage_error("--window", std::to_string(s.window) + " is not allowed: the window is W x W pixels centred "
                                      "on each pixel (allowed: an odd W from 1 to " +
                                          std::to_string(kMaxAdaptiveWindow) + ", at most the image's width and height)");
    if (!std::isfinite(s.k) || s.k < -10 || s.k > 10) throw usage_error("--k", "must be from -10 to 10");
    if (!std::isfinite(s.offset) || s.offset < -65535 || s.offset > 65535)
        throw usage_error("--offset", "must be from -65535 to 65535 (-255 to 255 for 8-bit images)");
}

void check_adaptive_depth(const AdaptiveSpec& s, SampleType type) {
    if (type == SampleType::U8 && (s.offset < -255 || s.offset > 255))
        throw usage_error("--offset", json_number(s.offset) +
                                          " is beyond -255..255, the range of 8-bit images (16-bit ones take -65535..65535)");
}

void check_adaptive_window(const AdaptiveSpec& s, int width, int height) {
    if (s.window > width || s.window > height)
        throw usage_error("--window", std::to_string(s.window) + " is larger than the " + std::to_string(width) + "x" +
                                          std::to_string(height) + " image (allowed: an odd W up to " +
                                          std::to_string(std::min(width, height)) + ")");
}

AdaptiveParams adaptive_params(const AdaptiveSpec& s) {
    AdaptiveParams p;
    p.method = s.method;
    p.n = static_cast<long long>(s.window) * s.window;
    p.offset = static_cast<int>(std::ceil(s.offset));
    p.k = s.k;
    p.r = s.r;
    p.inv_n = static_cast<float>(1.0 / static_cast<double>(p.n));
    p.inv_n2 = static_cast<float>(1.0 / (static_cast<double>(p.n) * static_cast<double>(p.n)));
    p.inv_r = static_cast<float>(1.0 / s.r);
    p.k_single = static_cast<float>(s.k);
    return p;
}

namespace cpu {
namespace {

// Index of position i of a line of `size` samples, outside mapped by the
// method's border rule (axis_ranges' weights, position by position).
int border_index(int i, int size, bool replicate) {
    if (i < 0) return replicate ? 0 : -i;
    if (i >= size) return replicate ? size - 1 : 2 * (size - 1) - i;
    return i;
}

// out[x] = sum of columns[border_index(x + d)] for d in -r..r: running sums
// (one add and one subtract per pixel), border lookups only near the ends.
// T is unsigned: a sum wraps on the way and comes out exact while the true
// window sum fits T. 32-bit sums run in vectors between the borders; 64-bit
// ones (Sauvola's squares past W = 257, rare) one pixel at a time.
template <typename T>
void window_row(const std::uint32_t* columns, int width, int r, bool replicate, T* out) {
    const auto at = [&](int i) { return static_cast<T>(columns[border_index(i, width, replicate)]); };
    const auto start = [&](int x) {
        T sum = 0;
        for (int i = x - r; i <= x + r; ++i) sum += at(i);
        return sum;
    };
    if constexpr (std::is_same_v<T, std::uint32_t>) {
        // 32-bit sums: the interior in vectors (running_window_sums).
        T sum = start(0);
        out[0] = sum;
        const int inner_begin = std::min(width, r + 1), inner_end = std::max(inner_begin, width - r);
        int x = 1;
        for (; x < inner_begin; ++x) out[x] = sum += at(x + r) - at(x - r - 1);
        if (inner_end > inner_begin) {
            simd::running_window_sums(columns, r, static_cast<std::size_t>(inner_begin), static_cast<std::size_t>(inner_end), out);
            sum = out[inner_end - 1];
            x = inner_end;
        }
        for (; x < width; ++x) out[x] = sum += at(x + r) - at(x - r - 1);
        return;
    }
    T sum = start(0);
    out[0] = sum;
    for (int x = 1; x < width; ++x) out[x] = sum += at(x + r) - at(x - r - 1);
}

// Rows y0..y1-1 of the output. The window slides down the band: the
// intensities of the last W + 1 rows wait in a ring, each column's sum (and
// sum of squares) over the window's rows moves by the row that enters and
// the one that leaves, and each output row's window sums run along those
// column sums. The sums are those of the summed-area tables the contract
// names (the same integers; only the order of exact additions differs).
// SquareSum: u32 while W^2 * 255^2 fits it, else u64.
template <typename SquareSum>
void adaptive_band(ConstViewU8 src, ViewU8 dst, const AdaptiveSpec& spec, const AdaptiveParams& p, int y0, int y1) {
    const int width = src.width, height = src.height, C = src.channels, out_c = dst.channels;
    const int window = spec.window, r = window / 2;
    const bool mean = spec.method == AdaptiveMethod::Mean;
    const std::size_t w = static_cast<std::size_t>(width);
    std::vector<std::uint8_t> ring(static_cast<std::size_t>(window + 1) * w);
    const auto ring_row = [&](int y) { return ring.data() + static_cast<std::size_t>(y % (window + 1)) * w; };
    const auto load_row = [&](int y) { simd::intensity_row(src.row(y), C, w, ring_row(y)); };
    const auto border = [&](int y) { return border_index(y, height, mean); };
    std::vector<std::uint32_t> column_sums(w, 0), column_squares(mean ? 0 : w, 0), sums(w);
    std::vector<SquareSum> squares(mean ? 0 : w);
    std::vector<std::uint8_t> zeros(w, 0), decisions(out_c == 2 ? w : 0);
    std::uint32_t* const squares_or_null = mean ? nullptr : column_squares.data();

    const int first = std::max(0, y0 - r), last = std::min(height - 1, y0 + r);
    for (int y = first; y <= last; ++y) load_row(y);
    for (int d = -r; d <= r; ++d) simd::slide_columns(ring_row(border(y0 + d)), zeros.data(), w, column_sums.data(), squares_or_null);
    for (int y = y0; y < y1; ++y) {
        if (y > y0) {
            if (y + r < height) load_row(y + r);
            simd::slide_columns(ring_row(border(y + r)), ring_row(border(y - r - 1)), w, column_sums.data(), squares_or_null);
        }
        const std::uint8_t* v = ring_row(y);
        std::uint8_t* out = out_c == 2 ? decisions.data() : dst.row(y);
        window_row(column_sums.data(), width, r, mean, sums.data());
        if (mean) {
            simd::mean_decision_row(sums.data(), v, w, static_cast<std::int32_t>(p.n), p.offset, out);
        } else {
            window_row(column_squares.data(), width, r, false, squares.data());
            if constexpr (sizeof(SquareSum) == 4)
                simd::level_decision_row(sums.data(), squares.data(), v, w, p, out);
            else
                for (std::size_t x = 0; x < w; ++x)
                    out[x] = static_cast<std::uint8_t>(adaptive_decision_fast(v[x], sums[x], squares[x], p));
        }
        if (out_c == 2) {
            const std::uint8_t* s = src.row(y);
            std::uint8_t* d = dst.row(y);
            for (std::size_t x = 0; x < w; ++x) {
                d[2 * x] = out[x];
                d[2 * x + 1] = s[x * C + C - 1];  // alpha unchanged
            }
        }
    }
}

}  // namespace

void adaptive_threshold(ConstViewU8 src, ViewU8 dst, const AdaptiveSpec& spec) {
    check_image_shape(src.width, src.height, src.channels);
    const int C = src.channels, out_c = threshold_output_channels(C);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("threshold", "the output must have the input's size and " + std::to_string(out_c) +
                                           " channel(s)");
    check_adaptive_spec(spec);
    check_adaptive_window(spec, src.width, src.height);
    const AdaptiveParams p = adaptive_params(spec);
    // Each band starts by summing W rows: bands of at least 4 W rows keep
    // that below a quarter of the work.
    const int grain = std::max({1, 4 * spec.window, (1 << 14) / std::max(1, src.width)});
    const bool narrow_squares = spec.window <= simd::kMaxVectorLevelWindow;  // 255^2 * 257^2 < 2^32
    parallel_for(src.height, grain, [&](int y0, int y1) {
        if (narrow_squares)
            adaptive_band<std::uint32_t>(src, dst, spec, p, y0, y1);
        else
            adaptive_band<std::uint64_t>(src, dst, spec, p, y0, y1);
    });
}

std::string adaptive_threshold_kernel_name() {
    return "a sliding window (running column sums, then running row sums), a level per pixel; " +
           std::to_string(cpu_thread_count()) + " thread(s)";
}

}  // namespace cpu
}  // namespace imgpar
