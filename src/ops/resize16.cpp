// Resize of 16-bit images on the CPU (src/ops/resize.hpp, 16 BITS): the two
// passes of the 8-bit reference over a plan made for 16 bits (22-bit
// weights), their sums in 64 bits. A band of output rows at a time, down the
// columns into an intermediate band as wide as the input (each tap row added
// to a row of 64-bit sums, so the inner loop runs along a contiguous row),
// then along the rows; multithreaded over bands. That is the reference
// (resize_one_lane); cpu::resize takes area at whole factors as block means
// (src/ops/resize_blocks.hpp) and plain samples through the same integers
// in vector lanes (transposed16); premultiplied colour takes the reference.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "src/error.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/resize_math.hpp"
#include "src/ops/simd/resize16_lanes.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu {

namespace {

// The taps of output pixel k that lie inside the axis (the rest weigh 0).
int live_taps(const ResizeAxis& a, int k) { return std::min(a.taps, a.in - a.start[static_cast<std::size_t>(k)]); }

// Output rows [k0, k1) down the columns into `mid` (rows of src.row_samples()).
// Premultiplied: colour samples as c a (below 2^32), alpha as itself.
template <int C, bool Premul, typename Mid>
void first_pass16(const ResizeAxis& y, ConstViewU16 src, int k0, int k1, std::int64_t* acc, Mid* mid) {
    const std::size_t n = src.row_samples();
    const AxisKind kind = axis_kind(y.filter);
    for (int k = k0; k < k1; ++k) {
        const int start = y.start[static_cast<std::size_t>(k)], taps = live_taps(y, k);
        const std::int32_t* w = &y.weight[static_cast<std::size_t>(k) * y.taps];
        std::fill(acc, acc + n, std::int64_t{0});
        for (int t = 0; t < taps; ++t) {
            const std::int64_t wt = w[t];
            if (wt == 0) continue;  // adds nothing
            const std::uint16_t* row = src.row(start + t);
            if constexpr (Premul) {
                for (std::size_t p = 0; p < n; p += C) {
                    const std::int64_t a = row[p + C - 1];
                    for (int c = 0; c < C - 1; ++c) acc[p + c] += wt * (row[p + c] * a);
                    acc[p + C - 1] += wt * a;
                }
            } else {
                for (std::size_t s = 0; s < n; ++s) acc[s] += wt * row[s];
            }
        }
        Mid* out = mid + static_cast<std::size_t>(k - k0) * n;
        for (std::size_t s = 0; s < n; ++s)
            out[s] = static_cast<Mid>(first_pass_value16(kind, acc[s], Premul && s % C == C - 1));
    }
}

// Output rows [k0, k1) along the rows from their intermediate rows.
// alpha_shift: premultiplied alpha's extra fractional bits (premultiplied_alpha_shift16).
template <int C, bool Premul, typename Mid>
void second_pass16(const ResizeAxis& x, const Mid* mid, std::size_t mid_row, const ExactDivider& divider,
                   int alpha_shift, ViewU16 dst, int k0, int k1) {
    for (int k = k0; k < k1; ++k) {
        const Mid* row = mid + static_cast<std::size_t>(k - k0) * mid_row;
        std::uint16_t* out = dst.row(k);
        for (int j = 0; j < x.count; ++j) {
            const int start = x.start[static_cast<std::size_t>(j)], taps = live_taps(x, j);
            const std::int32_t* w = &x.weight[static_cast<std::size_t>(j) * x.taps];
            const Mid* m = row + static_cast<std::size_t>(start) * C;
            std::int64_t sum[C] = {};
            for (int t = 0; t < taps; ++t, m += C)
                for (int c = 0; c < C; ++c) sum[c] += static_cast<std::int64_t>(w[t]) * m[c];
            std::uint16_t* o = out + static_cast<std::size_t>(j) * C;
            if constexpr (!Premul) {
                (void)alpha_shift;
                for (int c = 0; c < C; ++c) o[c] = static_cast<std::uint16_t>(resize_output(sum[c], divider, 65535));
            } else {
                o[C - 1] = static_cast<std::uint16_t>(resize_alpha16(sum[C - 1], divider.d, alpha_shift));
                for (int c = 0; c < C - 1; ++c)
                    o[c] = static_cast<std::uint16_t>(resize_unpremultiply16(sum[c], sum[C - 1], alpha_shift));
            }
        }
    }
}

template <int C, bool Premul, typename Mid>
void bands16(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst, const ExactDivider& divider) {
    const std::size_t n = src.row_samples();
    // About 256 KB of intermediate a band (as the 8-bit path), 1 to 64 rows.
    const int band = static_cast<int>(
        std::clamp<std::size_t>((std::size_t{256} << 10) / std::max<std::size_t>(n * sizeof(Mid), 1), 1, 64));
    const int bands = (plan.y.count + band - 1) / band;
    parallel_for(bands, 1, [&](int b0, int b1) {
        std::unique_ptr<Mid[]> mid(new Mid[n * static_cast<std::size_t>(band)]);
        std::unique_ptr<std::int64_t[]> acc(new std::int64_t[n]);
        for (int b = b0; b < b1; ++b) {
            const int k0 = b * band, k1 = std::min(plan.y.count, k0 + band);
            first_pass16<C, Premul, Mid>(plan.y, src, k0, k1, acc.get(), mid.get());
            second_pass16<C, Premul, Mid>(plan.x, mid.get(), n, divider, premultiplied_alpha_shift16(axis_kind(plan.y.filter)),
                                          dst, k0, k1);
        }
    });
}

// The common case (no alpha; a filter, area or a copy down the columns,
// its intermediates within 32 bits) with both passes vectorised
// (src/ops/simd/resize16_lanes.hpp): each band of output rows is made down
// the columns, then transposed (for each input column, its samples of the
// band's rows side by side), so the pass along the rows also sums whole
// contiguous runs with one weight a tap, as the 8-bit path does
// (src/ops/resize.cpp). The integers are bands16's, so the samples are too.
void transposed16(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst, std::uint64_t divisor) {
    const ResizeAxis& x = plan.x;
    const ResizeAxis& y = plan.y;
    const int C = src.channels;
    constexpr int kBand = 16;  // as the 8-bit path
    const std::size_t n = src.row_samples();
    const int shift = axis_kind(y.filter) == AxisKind::Filter ? kResizeWeightBits16 - kResizeRowBits16 : 0;
    const int bands = (y.count + kBand - 1) / kBand;
    parallel_for(bands, 1, [&](int b0, int b1) {
        std::vector<std::int32_t> row(n), band(n * kBand);
        std::vector<const std::uint16_t*> taps(static_cast<std::size_t>(y.taps));
        std::vector<std::uint16_t*> out(static_cast<std::size_t>(kBand));
        for (int b = b0; b < b1; ++b) {
            const int k0 = b * kBand, k1 = std::min(y.count, k0 + kBand), rows = k1 - k0;
            const std::size_t column = static_cast<std::size_t>(rows) * C;  // one input column of the band
            for (int k = k0; k < k1; ++k) {
                const int start = y.start[static_cast<std::size_t>(k)], live = live_taps(y, k);
                for (int t = 0; t < live; ++t) taps[static_cast<std::size_t>(t)] = src.row(start + t);
                simd::resize_columns16(&y.weight[static_cast<std::size_t>(k) * y.taps], live, taps.data(), n, shift,
                                       row.data());
                std::int32_t* to = band.data() + static_cast<std::size_t>(k - k0) * C;
                for (int i = 0; i < x.in; ++i, to += column)
                    for (int c = 0; c < C; ++c) to[c] = row[static_cast<std::size_t>(i) * C + c];
                out[static_cast<std::size_t>(k - k0)] = dst.row(k);
            }
            simd::resize_band16(x.start.data(), x.weight.data(), x.taps, x.in, x.count, band.data(), column, C, divisor,
                                out.data());
        }
    });
}

template <int C>
void resize16_c(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst, const ExactDivider& divider, bool premultiply) {
    // 32-bit intermediates where they fit (a filter's or a copy's plain
    // samples: below 2^21); premultiplied colour and area's sums take 64.
    if (premultiply) {
        if constexpr (C == 2 || C == 4) bands16<C, true, std::int64_t>(plan, src, dst, divider);
    } else if (axis_kind(plan.y.filter) != AxisKind::Area) {
        bands16<C, false, std::int32_t>(plan, src, dst, divider);
    } else {
        bands16<C, false, std::int64_t>(plan, src, dst, divider);
    }
}

ExactDivider divider16(const ResizePlan& plan) {
    return ExactDivider::of(axis_scale(axis_kind(plan.y.filter), plan.y.sum, true, kResizeRowBits16) *
                            axis_scale(axis_kind(plan.x.filter), plan.x.sum, false));
}

// The vector passes take plain samples (no premultiplied alpha) where the
// intermediates fit 32 bits (a filter's below 2^21; area's exact sums below
// 2^31) and the divisor their exact rounding (below 2^35; check_resize_range
// keeps it below 2^34).
bool takes_vector_passes16(const ResizePlan& plan, int channels) {
    const AxisKind ky = axis_kind(plan.y.filter), kx = axis_kind(plan.x.filter);
    const bool premultiply = has_alpha(channels) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const bool narrow = ky != AxisKind::Area || 65535.0 * static_cast<double>(plan.y.sum) < 2147483648.0;
    return !premultiply && narrow && divider16(plan).d < (std::uint64_t{1} << 35);
}

void resize_any16(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst, bool vectorised) {
    const ResizeAxis& x = plan.x;
    const ResizeAxis& y = plan.y;
    const int C = src.channels;
    if (plan.type != SampleType::U16) throw usage_error("resize", "a 16-bit image needs a plan made for 16 bits");
    if (src.width != x.in || src.height != y.in || dst.width != x.count || dst.height != y.count || dst.channels != C)
        throw usage_error("resize", "the images do not fit the plan");
    check_resize_range(plan, C);
    if (vectorised && resize_takes_blocks(plan, C)) return resize_blocks(plan, src, dst);
    const AxisKind ky = axis_kind(y.filter), kx = axis_kind(x.filter);
    const bool premultiply = has_alpha(C) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const ExactDivider divider = divider16(plan);
    if (vectorised && takes_vector_passes16(plan, C)) return transposed16(plan, src, dst, divider.d);
    switch (C) {
        case 1: resize16_c<1>(plan, src, dst, divider, premultiply); break;
        case 2: resize16_c<2>(plan, src, dst, divider, premultiply); break;
        case 3: resize16_c<3>(plan, src, dst, divider, premultiply); break;
        default: resize16_c<4>(plan, src, dst, divider, premultiply); break;
    }
}

}  // namespace

void resize(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst) { resize_any16(plan, src, dst, true); }

void resize_one_lane(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst) { resize_any16(plan, src, dst, false); }

std::string resize_kernel_name16(const ResizePlan& plan, int channels) {
    if (resize_takes_blocks(plan, channels))
        return std::string("block means (area at whole factors, 16-bit samples; vectors: ") + simd::simd_target_name() +
               "), " + std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s") + " (" +
               describe_resize(plan) + ")";
    if (takes_vector_passes16(plan, channels))
        return std::string("separable, down the columns then along the rows, 16-bit samples, exact float64 lanes (vectors: ") +
               simd::simd_target_name() + "), " + std::to_string(cpu_thread_count()) + " thread" +
               (cpu_thread_count() == 1 ? "" : "s") + " (" + describe_resize(plan) + ")";
    return std::string("separable, down the columns then along the rows, 16-bit samples, 64-bit sums, ") +
           (has_alpha(channels) ? "premultiplied, " : "") + std::to_string(cpu_thread_count()) + " thread" +
           (cpu_thread_count() == 1 ? "" : "s") + " (" + describe_resize(plan) + ")";
}

}  // namespace imgpar::cpu
