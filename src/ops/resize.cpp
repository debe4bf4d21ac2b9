// Resize's tables (one per axis, made once per image size on the host and
// shared by both backends) and its CPU reference: the rows pass into an
// intermediate image, then the columns pass, each multithreaded.
#include "src/ops/resize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <type_traits>

#include "src/error.hpp"
#include "src/ops/resize_blocks.hpp"
#include "src/ops/resize_math.hpp"
#include "src/ops/simd/resize_columns.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const char* resize_filter_name(ResizeFilter f) {
    switch (f) {
        case ResizeFilter::Auto: return "auto";
        case ResizeFilter::Nearest: return "nearest";
        case ResizeFilter::Bilinear: return "bilinear";
        case ResizeFilter::Bicubic: return "bicubic";
        case ResizeFilter::Lanczos3: return "lanczos3";
        case ResizeFilter::Area: return "area";
    }
    return "?";
}

ResizeFilter parse_resize_filter(const std::string& text) {
    for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic,
                           ResizeFilter::Lanczos3, ResizeFilter::Area})
        if (text == resize_filter_name(f)) return f;
    throw usage_error("--filter", "'" + text + "' is not a filter (allowed: auto, nearest, bilinear, bicubic, lanczos3, area)");
}

ResizeFilter resolved_filter(ResizeFilter asked, int n, int m) {
    if (n == m) return ResizeFilter::Nearest;  // every filter is the identity there
    if (asked != ResizeFilter::Auto) return asked;
    return m < n ? ResizeFilter::Lanczos3 : ResizeFilter::Bicubic;
}

namespace {

constexpr double kPi = 3.14159265358979323846;

double support_of(ResizeFilter f) {
    switch (f) {
        case ResizeFilter::Bilinear: return 1.0;
        case ResizeFilter::Bicubic: return 2.0;
        case ResizeFilter::Lanczos3: return 3.0;
        default: return 0.5;
    }
}

// The continuous kernels, in double on the host only (the tables are what
// both backends share).
double kernel_of(ResizeFilter f, double x) {
    x = std::fabs(x);
    switch (f) {
        case ResizeFilter::Bilinear: return x < 1.0 ? 1.0 - x : 0.0;
        case ResizeFilter::Bicubic: {  // Catmull-Rom, a = -0.5
            constexpr double a = -0.5;
            if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
            if (x < 2.0) return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
            return 0.0;
        }
        case ResizeFilter::Lanczos3: {
            // sinc(x) sinc(x / 3) with one sine: sin(3 t) = 3 sin t - 4 sin^3 t, t = pi x / 3.
            if (x >= 3.0) return 0.0;
            if (x == 0.0) return 1.0;
            const double t = kPi * x / 3.0, s = std::sin(t);
            return (3.0 * s - 4.0 * s * s * s) * s / (3.0 * t * t);
        }
        default: return 0.0;
    }
}

void filter_table(ResizeAxis& a) {
    const double scale = static_cast<double>(a.in) / a.out;
    const double widen = std::max(scale, 1.0);
    const double reach = support_of(a.filter) * widen;
    // Taps: the input pixels whose centre lies within the kernel's reach,
    // less those at either end outside its support (weight 0: the bounds'
    // rounding takes one more each side, 6 taps for bicubic's 4 when
    // enlarging, 14 for lanczos3's 12 at a half). The weights left are the
    // same, and the first tap moves right with the centre, as the kernels
    // need (zeros inside the support, as Lanczos' at whole distances, stay).
    const double support = support_of(a.filter);
    const auto outside = [&](int i, double centre) { return std::fabs((i + 0.5 - centre) / widen) >= support; };
    const auto range = [&](int k, int& lo, int& hi) {
        const double centre = (a.first + k + 0.5) * scale;
        lo = std::max(0, static_cast<int>(std::floor(centre - reach - 0.5)));
        hi = std::min(a.in - 1, static_cast<int>(std::ceil(centre + reach - 0.5)));
        while (lo < hi && outside(lo, centre)) ++lo;
        while (hi > lo && outside(hi, centre)) --hi;
        return centre;
    };
    int taps = 1;
    for (int k = 0; k < a.count; ++k) {
        int lo = 0, hi = 0;
        range(k, lo, hi);
        taps = std::max(taps, hi - lo + 1);
    }
    a.taps = taps;
    a.weight.assign(static_cast<std::size_t>(a.count) * taps, 0);
    const std::int32_t one = std::int32_t{1} << a.weight_bits;
    std::vector<double> w(static_cast<std::size_t>(taps));
    for (int k = 0; k < a.count; ++k) {
        int lo = 0, hi = 0;
        const double centre = range(k, lo, hi);
        const int n = hi - lo + 1;
        double sum = 0;
        for (int t = 0; t < n; ++t) sum += w[static_cast<std::size_t>(t)] = kernel_of(a.filter, (lo + t + 0.5 - centre) / widen);
        a.start[static_cast<std::size_t>(k)] = lo;
        std::int32_t* out = &a.weight[static_cast<std::size_t>(k) * taps];
        std::int32_t total = 0;
        int largest = 0;
        for (int t = 0; t < n; ++t) {
            out[t] = static_cast<std::int32_t>(std::lround(w[static_cast<std::size_t>(t)] / sum * one));
            total += out[t];
            if (std::fabs(w[static_cast<std::size_t>(t)]) > std::fabs(w[static_cast<std::size_t>(largest)])) largest = t;
        }
        out[largest] += one - total;  // the weights sum to exactly one
        std::int64_t magnitude = 0;
        for (int t = 0; t < n; ++t) magnitude += std::abs(out[t]);
        if (magnitude > 2 * one)  // what the arithmetic's ranges assume (Catmull-Rom and Lanczos3 stay near 1.3)
            throw usage_error("resize", "a filter's weights overshoot more than the arithmetic allows");
    }
}

void area_table(ResizeAxis& a) {
    // In units of 1/out: input pixel i covers [i out, (i + 1) out), output
    // pixel j the box [j in, (j + 1) in). Every overlap is a multiple of
    // g = gcd(in, out), and is kept divided by it.
    const std::int64_t n = a.in, m = a.out, g = std::gcd(n, m);
    int taps = 1;
    for (int k = 0; k < a.count; ++k) {
        const std::int64_t j = a.first + k;
        const std::int64_t lo = j * n / m, hi = ((j + 1) * n + m - 1) / m;  // pixels [lo, hi)
        a.start[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(lo);
        taps = std::max(taps, static_cast<int>(hi - lo));
    }
    a.taps = taps;
    a.sum = n / g;
    a.weight.assign(static_cast<std::size_t>(a.count) * taps, 0);
    for (int k = 0; k < a.count; ++k) {
        const std::int64_t j = a.first + k, lo = a.start[static_cast<std::size_t>(k)];
        for (int t = 0; t < taps && lo + t < n; ++t) {
            const std::int64_t i = lo + t;
            const std::int64_t overlap = std::min((i + 1) * m, (j + 1) * n) - std::max(i * m, j * n);
            a.weight[static_cast<std::size_t>(k) * taps + t] = static_cast<std::int32_t>(std::max<std::int64_t>(0, overlap) / g);
        }
    }
}

}  // namespace

ResizeAxis resize_axis(ResizeFilter filter, int in, int out, int first, int count, int weight_bits) {
    if (in < 1 || out < 1 || first < 0 || count < 1 || first + count > out)
        throw usage_error("resize", "an axis of " + std::to_string(in) + " pixels cannot become pixels " +
                                        std::to_string(first) + " to " + std::to_string(first + count) + " of " +
                                        std::to_string(out));
    ResizeAxis a;
    a.filter = resolved_filter(filter, in, out);
    a.in = in;
    a.out = out;
    a.first = first;
    a.count = count;
    if (weight_bits != kResizeWeightBits && weight_bits != kResizeWeightBits16)
        throw usage_error("resize", "weights of " + std::to_string(weight_bits) + " bits are not a precision resize has");
    a.weight_bits = weight_bits;
    a.start.assign(static_cast<std::size_t>(count), 0);
    switch (axis_kind(a.filter)) {
        case AxisKind::Gather:
            a.taps = 1;
            a.weight.assign(static_cast<std::size_t>(count), 1);
            for (int k = 0; k < count; ++k)
                a.start[static_cast<std::size_t>(k)] =
                    static_cast<std::int32_t>((2 * static_cast<std::int64_t>(first + k) + 1) * in / (2 * static_cast<std::int64_t>(out)));
            break;
        case AxisKind::Area: area_table(a); break;
        case AxisKind::Filter:
            filter_table(a);
            a.sum = std::int64_t{1} << a.weight_bits;
            break;
    }
    return a;
}

ResizePlan resize_plan(ResizeFilter filter, int in_width, int in_height, const ResizeGeometry& g, SampleType type) {
    if (type != SampleType::U8 && type != SampleType::U16)
        throw usage_error("resize", std::string("takes u8 and u16 samples, not ") + sample_type_name(type));
    const int bits = type == SampleType::U16 ? kResizeWeightBits16 : kResizeWeightBits;
    ResizePlan p;
    p.x = resize_axis(filter, in_width, g.width, g.x, g.crop_width, bits);
    p.y = resize_axis(filter, in_height, g.height, g.y, g.crop_height, bits);
    p.type = type;
    return p;
}

namespace {

// 16 BITS' bounds: what a sample of each kind is multiplied by in each pass.
void check_resize_range16(const ResizePlan& plan, bool premultiply) {
    const AxisKind kx = axis_kind(plan.x.filter), ky = axis_kind(plan.y.filter);
    const double ymul = ky == AxisKind::Area ? static_cast<double>(plan.y.sum)
                        : ky == AxisKind::Filter ? 2.0 * (1 << kResizeRowBits16) : 1.0;
    const double xmul = kx == AxisKind::Area ? static_cast<double>(plan.x.sum)
                        : kx == AxisKind::Filter ? 2.0 * static_cast<double>(1 << kResizeWeightBits16) : 1.0;
    const double plain = 65535.0 * ymul * xmul;               // divided exactly: below 2^50
    const double colour = premultiply ? 65535.0 * plain : 0;  // round(P / A) in 64 bits: below 2^61
    // Premultiplied alpha: 2^8 finer after a filter (resize_unpremultiply16: below 2^52), else as a plain channel.
    const double alpha = premultiply ? plain * static_cast<double>(1 << premultiplied_alpha_shift16(ky)) : 0;
    if (plain >= 1125899906842624.0 || colour >= 2305843009213693952.0 || alpha >= 4503599627370496.0)
        throw usage_error("resize", std::string(resize_filter_name(plan.y.filter)) + " over " +
                                        std::to_string(plan.x.in) + "x" + std::to_string(plan.y.in) +
                                        (premultiply ? " with alpha" : "") +
                                        " at 16 bits is beyond the integers its sums are kept in: use another filter");
}

}  // namespace

void check_resize_range(const ResizePlan& plan, int channels) {
    const AxisKind kx = axis_kind(plan.x.filter), ky = axis_kind(plan.y.filter);
    const bool premultiply = has_alpha(channels) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    if (plan.type == SampleType::U16) return check_resize_range16(plan, premultiply);
    const double top = premultiply ? 65025.0 : 255.0;
    // The first pass goes down the columns (y), the second along the rows
    // (x); a filter's weights' magnitudes sum to at most 2 (resize_axis checks).
    const double mid = ky == AxisKind::Area ? top * plan.y.sum : ky == AxisKind::Filter ? top * 2 * 64 : top;
    const double sum = mid * (kx == AxisKind::Area ? plan.x.sum : kx == AxisKind::Filter ? 32768.0 : 1.0);
    if (mid >= 2147483648.0 || sum >= 1099511627776.0)  // 32-bit intermediates; sums below 2^40
        throw usage_error("resize", std::string(resize_filter_name(plan.y.filter)) + " over " +
                                        std::to_string(plan.x.in) + "x" + std::to_string(plan.y.in) +
                                        (premultiply ? " with alpha" : "") +
                                        " is beyond the integers its sums are kept in: use another filter");
}

std::string describe_resize(const ResizePlan& p) {
    const ResizeFilter fx = p.x.filter, fy = p.y.filter;
    std::string filters = fx == fy ? resize_filter_name(fx)
                                   : std::string(resize_filter_name(fx)) + " across, " + resize_filter_name(fy) + " down";
    char text[200];
    std::snprintf(text, sizeof text, "%s %dx%d -> %dx%d", filters.c_str(), p.x.in, p.y.in, p.x.out, p.y.out);
    std::string d = text;
    if (p.x.count != p.x.out || p.y.count != p.y.out)
        d += ", kept " + std::to_string(p.x.count) + "x" + std::to_string(p.y.count) + "+" + std::to_string(p.x.first) +
             "+" + std::to_string(p.y.first);
    return d + " (taps " + std::to_string(p.x.taps) + " x " + std::to_string(p.y.taps) + ")";
}

namespace cpu {

namespace {

// The taps of output pixel k that lie inside the axis (the rest weigh 0).
int live_taps(const ResizeAxis& a, int k) { return std::min(a.taps, a.in - a.start[static_cast<std::size_t>(k)]); }

// First pass, down the columns, of output rows [k0, k1) of an image
// resampled as it is: whole input rows times weights
// (src/ops/simd/resize_columns.hpp), into `mid` rows as wide as the input.
template <typename Mid>
void first_pass(const ResizeAxis& y, ConstViewU8 src, int k0, int k1, Mid* mid) {
    const std::size_t n = src.row_samples();
    const std::uint8_t* rows[1024];
    std::vector<const std::uint8_t*> many(y.taps > 1024 ? static_cast<std::size_t>(y.taps) : 0);
    const std::uint8_t** r = y.taps > 1024 ? many.data() : rows;
    for (int k = k0; k < k1; ++k) {
        const int start = y.start[static_cast<std::size_t>(k)], taps = live_taps(y, k);
        for (int t = 0; t < taps; ++t) r[t] = src.row(start + t);
        const std::int32_t* w = &y.weight[static_cast<std::size_t>(k) * y.taps];
        if constexpr (std::is_same_v<Mid, std::int16_t>)
            simd::resize_columns(w, taps, r, n, axis_kind(y.filter) == AxisKind::Filter ? kResizeWeightBits - kResizeRowBits : 0,
                                 mid + (k - k0) * n);
        else
            simd::resize_columns(w, taps, r, n, mid + (k - k0) * n);
    }
}

// The same with colour premultiplied by alpha (products up to 65025): in 64
// bits, one sample at a time.
void first_pass_premultiplied(const ResizeAxis& y, ConstViewU8 src, int k0, int k1, std::int32_t* mid) {
    const int C = src.channels;
    const std::size_t n = src.row_samples();
    const AxisKind kind = axis_kind(y.filter);
    for (int k = k0; k < k1; ++k) {
        const int start = y.start[static_cast<std::size_t>(k)], taps = live_taps(y, k);
        const std::int32_t* w = &y.weight[static_cast<std::size_t>(k) * y.taps];
        std::int32_t* out = mid + (k - k0) * n;
        for (std::size_t s = 0; s < n; ++s) {
            const std::size_t alpha = s - s % C + (C - 1);
            std::int64_t sum = 0;
            for (int t = 0; t < taps; ++t) {
                const std::uint8_t* row = src.row(start + t);
                sum += static_cast<std::int64_t>(w[t]) * (s == alpha ? row[s] : row[s] * row[alpha]);
            }
            out[s] = first_pass_value(kind, sum);
        }
    }
}

// Second pass, along the rows, of output rows [k0, k1): each output pixel
// from its taps of its intermediate row.
template <int C, bool Premul, typename Mid, typename Acc>
void second_pass(const ResizeAxis& x, const Mid* mid, std::size_t mid_row, const ExactDivider& divider, ViewU8 dst,
                 int k0, int k1) {
    for (int k = k0; k < k1; ++k) {
        const Mid* row = mid + (k - k0) * mid_row;
        std::uint8_t* out = dst.row(k);
        for (int j = 0; j < x.count; ++j) {
            const int start = x.start[static_cast<std::size_t>(j)], taps = live_taps(x, j);
            const std::int32_t* w = &x.weight[static_cast<std::size_t>(j) * x.taps];
            const Mid* m = row + static_cast<std::size_t>(start) * C;
            Acc sum[C] = {};
            for (int t = 0; t < taps; ++t, m += C)
                for (int c = 0; c < C; ++c) sum[c] += static_cast<Acc>(w[t]) * m[c];
            std::uint8_t* o = out + static_cast<std::size_t>(j) * C;
            if (!Premul) {
                for (int c = 0; c < C; ++c) o[c] = static_cast<std::uint8_t>(resize_output(sum[c], divider));
                continue;
            }
            o[C - 1] = static_cast<std::uint8_t>(resize_output(sum[C - 1], divider));
            for (int c = 0; c < C - 1; ++c) o[c] = static_cast<std::uint8_t>(resize_unpremultiply(sum[c], sum[C - 1]));
        }
    }
}

template <int C, bool Premul, typename Mid>
void second_pass_for(const ResizeAxis& x, const Mid* mid, std::size_t mid_row, const ExactDivider& divider, ViewU8 dst,
                     int k0, int k1) {
    // 32-bit sums where the intermediate is 16-bit and the weights' magnitudes
    // sum to at most 2^15 (a filter, a copy).
    if (std::is_same_v<Mid, std::int16_t> && axis_kind(x.filter) != AxisKind::Area)
        second_pass<C, Premul, Mid, std::int32_t>(x, mid, mid_row, divider, dst, k0, k1);
    else
        second_pass<C, Premul, Mid, std::int64_t>(x, mid, mid_row, divider, dst, k0, k1);
}

template <bool Premul, typename Mid>
void second_pass_any(const ResizeAxis& x, const Mid* mid, std::size_t mid_row, const ExactDivider& divider, ViewU8 dst,
                     int k0, int k1) {
    switch (dst.channels) {
        case 1: return second_pass_for<1, Premul>(x, mid, mid_row, divider, dst, k0, k1);
        case 2: return second_pass_for<2, Premul>(x, mid, mid_row, divider, dst, k0, k1);
        case 3: return second_pass_for<3, Premul>(x, mid, mid_row, divider, dst, k0, k1);
        default: return second_pass_for<4, Premul>(x, mid, mid_row, divider, dst, k0, k1);
    }
}

// Output rows a band takes: the intermediate of a band (its rows as wide as
// the input) stays within about 256 KB, near the core's caches, and is
// never a fresh image-sized allocation (page faults cost more than the
// arithmetic on virtual machines).
int band_rows(std::size_t mid_row_bytes) {
    return static_cast<int>(std::clamp<std::size_t>((std::size_t{256} << 10) / std::max<std::size_t>(mid_row_bytes, 1), 1, 64));
}

template <bool Premul, typename Mid>
void resize_bands(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst, const ExactDivider& divider) {
    const std::size_t mid_row = src.row_samples();
    const int band = band_rows(mid_row * sizeof(Mid));
    const int bands = (plan.y.count + band - 1) / band;
    parallel_for(bands, 1, [&](int b0, int b1) {
        std::unique_ptr<Mid[]> mid(new Mid[mid_row * static_cast<std::size_t>(band)]);
        for (int b = b0; b < b1; ++b) {
            const int k0 = b * band, k1 = std::min(plan.y.count, k0 + band);
            if constexpr (Premul)
                first_pass_premultiplied(plan.y, src, k0, k1, mid.get());
            else
                first_pass(plan.y, src, k0, k1, mid.get());
            second_pass_any<Premul>(plan.x, mid.get(), mid_row, divider, dst, k0, k1);
        }
    });
}

// The common case (no alpha, a filter down the columns, a filter or a copy
// along the rows) with both passes vectorised: each band of output rows is
// made down the columns into a transposed band (for each input column, its
// samples of the band's rows, side by side), so the pass along the rows also
// sums whole contiguous runs (src/ops/simd/resize_columns.hpp) before the
// band's output pixels are written. The sums are second_pass's integers, so
// the bytes are too.
void resize_transposed(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst, const ExactDivider& divider) {
    const ResizeAxis& x = plan.x;
    const ResizeAxis& y = plan.y;
    const int C = src.channels;
    constexpr int kBand = 16;
    const std::size_t n = src.row_samples();
    const int bands = (y.count + kBand - 1) / kBand;
    parallel_for(bands, 1, [&](int b0, int b1) {
        std::vector<std::int16_t> row(n), band(n * kBand);
        std::vector<std::int32_t> sums(static_cast<std::size_t>(kBand) * C);
        for (int b = b0; b < b1; ++b) {
            const int k0 = b * kBand, k1 = std::min(y.count, k0 + kBand), rows = k1 - k0;
            const std::size_t column = static_cast<std::size_t>(rows) * C;  // one input column of the band
            for (int k = k0; k < k1; ++k) {
                first_pass(y, src, k, k + 1, row.data());
                std::int16_t* to = band.data() + static_cast<std::size_t>(k - k0) * C;
                for (int i = 0; i < x.in; ++i, to += column)
                    for (int c = 0; c < C; ++c) to[c] = row[static_cast<std::size_t>(i) * C + c];
            }
            for (int j = 0; j < x.count; ++j) {
                const int start = x.start[static_cast<std::size_t>(j)];
                simd::resize_rows(&x.weight[static_cast<std::size_t>(j) * x.taps], live_taps(x, j),
                                  band.data() + static_cast<std::size_t>(start) * column, column, column, sums.data());
                for (int r = 0; r < rows; ++r) {
                    std::uint8_t* o = dst.row(k0 + r) + static_cast<std::size_t>(j) * C;
                    for (int c = 0; c < C; ++c)
                        o[c] = static_cast<std::uint8_t>(resize_output(sums[static_cast<std::size_t>(r) * C + c], divider));
                }
            }
        }
    });
}

void resize_any(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst, bool vectorised) {
    if (plan.type != SampleType::U8) throw usage_error("resize", "an 8-bit image needs a plan made for 8 bits");
    const ResizeAxis& x = plan.x;
    const ResizeAxis& y = plan.y;
    const int C = src.channels;
    if (src.width != x.in || src.height != y.in || dst.width != x.count || dst.height != y.count || dst.channels != C)
        throw usage_error("resize", "the images do not fit the plan");
    check_resize_range(plan, C);
    const AxisKind ky = axis_kind(y.filter), kx = axis_kind(x.filter);
    const bool premultiply = has_alpha(C) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const ExactDivider divider = ExactDivider::of(axis_scale(ky, y.sum, true) * axis_scale(kx, x.sum, false));
    // Where the first pass's values fit 16 bits and the second pass's sums 32
    // (a filter's, area's at modest factors), both passes are vectorised.
    const double mid = ky == AxisKind::Filter ? 255.0 * 2 * 64 : 255.0 * static_cast<double>(y.sum);
    const double sums = mid * (kx == AxisKind::Filter ? 32768.0 : static_cast<double>(x.sum));
    if (vectorised && resize_takes_blocks(plan, C))
        resize_blocks(plan, src, dst);
    else if (premultiply)
        resize_bands<true, std::int32_t>(plan, src, dst, divider);
    else if (vectorised && mid < 32768 && sums < 2147483648.0)
        resize_transposed(plan, src, dst, divider);
    else if (ky == AxisKind::Filter)
        resize_bands<false, std::int16_t>(plan, src, dst, divider);
    else
        resize_bands<false, std::int32_t>(plan, src, dst, divider);
}

}  // namespace

void resize(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst) { resize_any(plan, src, dst, true); }

void resize_one_lane(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst) { resize_any(plan, src, dst, false); }

std::string resize_kernel_name(const ResizePlan& plan, int channels) {
    if (resize_takes_blocks(plan, channels))
        return std::string("block means (area at whole factors; vectors: ") + simd::simd_target_name() + "), " +
               std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s") + " (" +
               describe_resize(plan) + ")";
    return std::string("separable, down the columns (vectors: ") + simd::simd_target_name() + "), then along the rows, " +
           (has_alpha(channels) ? "premultiplied, " : "") + std::to_string(cpu_thread_count()) + " thread" +
           (cpu_thread_count() == 1 ? "" : "s") + " (" + describe_resize(plan) + ")";
}

}  // namespace cpu

}  // namespace imgpar
