// Resize's tables (one per axis, made once per image size on the host and
// shared by both backends) and its CPU reference: the rows pass into an
// intermediate image, then the columns pass, each multithreaded.
#include "src/ops/resize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/error.hpp"
#include "src/ops/resize_math.hpp"
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

double sinc(double x) {
    if (x == 0.0) return 1.0;
    x *= kPi;
    return std::sin(x) / x;
}

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
        case ResizeFilter::Lanczos3: return x < 3.0 ? sinc(x) * sinc(x / 3.0) : 0.0;
        default: return 0.0;
    }
}

void filter_table(ResizeAxis& a) {
    const double scale = static_cast<double>(a.in) / a.out;
    const double widen = std::max(scale, 1.0);
    const double reach = support_of(a.filter) * widen;
    std::vector<std::vector<double>> weights(static_cast<std::size_t>(a.count));
    int taps = 1;
    for (int k = 0; k < a.count; ++k) {
        const double centre = (a.first + k + 0.5) * scale;
        int lo = std::max(0, static_cast<int>(std::floor(centre - reach - 0.5)));
        int hi = std::min(a.in - 1, static_cast<int>(std::ceil(centre + reach - 0.5)));
        std::vector<double> w;
        for (int i = lo; i <= hi; ++i) w.push_back(kernel_of(a.filter, (i + 0.5 - centre) / widen));
        // Zero weights at the ends are not taps.
        while (w.size() > 1 && w.back() == 0.0) w.pop_back(), --hi;
        std::size_t skip = 0;
        while (skip + 1 < w.size() && w[skip] == 0.0) ++skip;
        w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(skip));
        lo += static_cast<int>(skip);
        a.start[static_cast<std::size_t>(k)] = lo;
        weights[static_cast<std::size_t>(k)] = std::move(w);
        taps = std::max(taps, static_cast<int>(weights[static_cast<std::size_t>(k)].size()));
    }
    a.taps = taps;
    a.weight.assign(static_cast<std::size_t>(a.count) * taps, 0);
    const std::int32_t one = std::int32_t{1} << kResizeWeightBits;
    for (int k = 0; k < a.count; ++k) {
        const std::vector<double>& w = weights[static_cast<std::size_t>(k)];
        double sum = 0;
        for (double v : w) sum += v;
        std::int32_t* out = &a.weight[static_cast<std::size_t>(k) * taps];
        std::int32_t total = 0;
        std::size_t largest = 0;
        for (std::size_t t = 0; t < w.size(); ++t) {
            out[t] = static_cast<std::int32_t>(std::lround(w[t] / sum * one));
            total += out[t];
            if (std::fabs(w[t]) > std::fabs(w[largest])) largest = t;
        }
        out[largest] += one - total;  // the weights sum to exactly one
        std::int64_t magnitude = 0;
        for (int t = 0; t < taps; ++t) magnitude += std::abs(out[t]);
        if (magnitude > 2 * one)  // what the arithmetic's ranges assume (Catmull-Rom and Lanczos3 stay near 1.3)
            throw usage_error("resize", "a filter's weights overshoot more than the arithmetic allows");
    }
}

void area_table(ResizeAxis& a) {
    // In units of 1/out: input pixel i covers [i out, (i + 1) out), output
    // pixel j the box [j in, (j + 1) in).
    const std::int64_t n = a.in, m = a.out;
    int taps = 1;
    for (int k = 0; k < a.count; ++k) {
        const std::int64_t j = a.first + k;
        const std::int64_t lo = j * n / m, hi = ((j + 1) * n + m - 1) / m;  // pixels [lo, hi)
        a.start[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(lo);
        taps = std::max(taps, static_cast<int>(hi - lo));
    }
    a.taps = taps;
    a.weight.assign(static_cast<std::size_t>(a.count) * taps, 0);
    for (int k = 0; k < a.count; ++k) {
        const std::int64_t j = a.first + k, lo = a.start[static_cast<std::size_t>(k)];
        for (int t = 0; t < taps && lo + t < n; ++t) {
            const std::int64_t i = lo + t;
            const std::int64_t overlap = std::min((i + 1) * m, (j + 1) * n) - std::max(i * m, j * n);
            a.weight[static_cast<std::size_t>(k) * taps + t] = static_cast<std::int32_t>(std::max<std::int64_t>(0, overlap));
        }
    }
}

}  // namespace

ResizeAxis resize_axis(ResizeFilter filter, int in, int out, int first, int count) {
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
        case AxisKind::Filter: filter_table(a); break;
    }
    return a;
}

ResizePlan resize_plan(ResizeFilter filter, int in_width, int in_height, const ResizeGeometry& g) {
    ResizePlan p;
    p.x = resize_axis(filter, in_width, g.width, g.x, g.crop_width);
    p.y = resize_axis(filter, in_height, g.height, g.y, g.crop_height);
    return p;
}

void check_resize_range(const ResizePlan& plan, int channels) {
    const AxisKind kx = axis_kind(plan.x.filter), ky = axis_kind(plan.y.filter);
    const bool premultiply = has_alpha(channels) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const double top = premultiply ? 65025.0 : 255.0;
    // A filter's weights' magnitudes sum to at most 2 (resize_axis checks).
    const double mid = kx == AxisKind::Area ? top * plan.x.in : kx == AxisKind::Filter ? top * 2 * 64 : top;
    const double sum = mid * (ky == AxisKind::Area ? plan.y.in : ky == AxisKind::Filter ? 32768.0 : 1.0);
    if (mid >= 2147483648.0 || sum >= 1099511627776.0)  // 32-bit intermediates; sums below 2^40
        throw usage_error("resize", std::string(resize_filter_name(plan.x.filter)) + " over " +
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

// One row of intermediate samples from input row r (rows pass).
void rows_pass_row(const ResizeAxis& x, ConstViewU8 src, int r, bool premultiply, std::int32_t* out) {
    const int C = src.channels;
    const AxisKind kind = axis_kind(x.filter);
    const std::uint8_t* row = src.row(r);
    for (int k = 0; k < x.count; ++k) {
        const std::int32_t start = x.start[static_cast<std::size_t>(k)];
        const std::int32_t* w = &x.weight[static_cast<std::size_t>(k) * x.taps];
        for (int c = 0; c < C; ++c) {
            const bool colour = premultiply && c != C - 1;
            std::int64_t sum = 0;
            for (int t = 0; t < x.taps; ++t) {
                const int i = std::min(start + t, x.in - 1);
                const std::uint8_t* p = row + static_cast<std::size_t>(i) * C;
                const std::int64_t v = colour ? static_cast<std::int64_t>(p[c]) * p[C - 1] : p[c];
                sum += w[t] * v;
            }
            out[static_cast<std::size_t>(k) * C + c] = rows_intermediate(kind, sum);
        }
    }
}

}  // namespace

void resize(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst) {
    const ResizeAxis& x = plan.x;
    const ResizeAxis& y = plan.y;
    const int C = src.channels;
    if (src.width != x.in || src.height != y.in || dst.width != x.count || dst.height != y.count || dst.channels != C)
        throw usage_error("resize", "the images do not fit the plan");
    check_resize_range(plan, C);
    const bool premultiply = has_alpha(C) && !(axis_kind(x.filter) == AxisKind::Gather && axis_kind(y.filter) == AxisKind::Gather);
    // The input rows the kept output rows read.
    const int r0 = y.start.front();
    const int r1 = std::min(y.in, y.start.back() + y.taps);
    const std::size_t row_samples = static_cast<std::size_t>(x.count) * C;
    std::vector<std::int32_t> mid(static_cast<std::size_t>(r1 - r0) * row_samples);
    parallel_for(r1 - r0, 8, [&](int begin, int end) {
        for (int r = begin; r < end; ++r) rows_pass_row(x, src, r0 + r, premultiply, &mid[static_cast<std::size_t>(r) * row_samples]);
    });
    const ExactDivider divider =
        ExactDivider::of(axis_scale(axis_kind(x.filter), x.in, true) * axis_scale(axis_kind(y.filter), y.in, false));
    parallel_for(y.count, 4, [&](int begin, int end) {
        std::vector<std::int64_t> sums(row_samples);
        for (int k = begin; k < end; ++k) {
            std::fill(sums.begin(), sums.end(), 0);
            const std::int32_t start = y.start[static_cast<std::size_t>(k)];
            const std::int32_t* w = &y.weight[static_cast<std::size_t>(k) * y.taps];
            for (int t = 0; t < y.taps; ++t) {
                const int r = std::min(start + t, y.in - 1) - r0;
                const std::int32_t* m = &mid[static_cast<std::size_t>(r) * row_samples];
                for (std::size_t s = 0; s < row_samples; ++s) sums[s] += static_cast<std::int64_t>(w[t]) * m[s];
            }
            std::uint8_t* out = dst.row(k);
            for (int px = 0; px < x.count; ++px) {
                const std::int64_t* s = &sums[static_cast<std::size_t>(px) * C];
                std::uint8_t* o = out + static_cast<std::size_t>(px) * C;
                if (!premultiply) {
                    for (int c = 0; c < C; ++c) o[c] = static_cast<std::uint8_t>(resize_output(s[c], divider));
                    continue;
                }
                o[C - 1] = static_cast<std::uint8_t>(resize_output(s[C - 1], divider));
                for (int c = 0; c < C - 1; ++c) o[c] = static_cast<std::uint8_t>(resize_unpremultiply(s[c], s[C - 1]));
            }
        }
    });
}

std::string resize_kernel_name(const ResizePlan& plan, int channels) {
    return std::string("separable rows then columns, ") +
           (has_alpha(channels) ? "premultiplied, " : "") + std::to_string(cpu_thread_count()) + " thread" +
           (cpu_thread_count() == 1 ? "" : "s") + " (" + describe_resize(plan) + ")";
}

}  // namespace cpu

}  // namespace imgpar
