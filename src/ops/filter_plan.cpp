// Plan construction for the convolution filters: every parameter is checked
// here, once, before any pixel is touched, and the integer form of each
// kernel (Gaussian taps, custom fixed point) is fixed here so the CPU and GPU
// backends only ever see the same integers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/number_text.hpp"
#include "src/ops/filter.hpp"

namespace imgpar {

namespace {

std::string num(double v) { return number_text(v); }

void check_sigma(double sigma) {
    if (!std::isfinite(sigma) || sigma <= 0.0 || sigma > kMaxSigma)
        throw usage_error("--sigma", "must be a number greater than 0 and at most " + num(kMaxSigma) + " (got " +
                                         num(sigma) + ")");
}

// radius 0 means automatic: ceil(3 sigma), at least 1. sigma <= 50 keeps the
// automatic radius within kMaxGaussianRadius.
int gaussian_radius(double sigma, int radius) {
    if (radius < 0 || radius > kMaxGaussianRadius)
        throw usage_error("--radius", "must be from 1 to " + std::to_string(kMaxGaussianRadius) +
                                          ", or 0 for automatic (ceil(3*sigma)) (got " + std::to_string(radius) + ")");
    if (radius > 0) return radius;
    return std::max(1, static_cast<int>(std::ceil(3.0 * sigma)));
}

}  // namespace

const char* filter_kind_name(FilterKind k) {
    switch (k) {
        case FilterKind::Gaussian: return "gaussian";
        case FilterKind::Box: return "box";
        case FilterKind::Unsharp: return "unsharp";
        case FilterKind::Edges: return "edges";
        case FilterKind::Custom: return "custom";
    }
    return "unknown";
}

const char* edge_operator_name(EdgeOperator op) {
    switch (op) {
        case EdgeOperator::Sobel: return "sobel";
        case EdgeOperator::Scharr: return "scharr";
        case EdgeOperator::Laplacian: return "laplacian";
    }
    return "unknown";
}

EdgeOperator parse_edge_operator(const std::string& name) {
    if (name == "sobel") return EdgeOperator::Sobel;
    if (name == "scharr") return EdgeOperator::Scharr;
    if (name == "laplacian") return EdgeOperator::Laplacian;
    throw usage_error("--op", "'" + name + "' is not an edge operator (allowed: sobel, scharr, laplacian)");
}

int FilterPlan::output_channels(int channels) const {
    if (kind == FilterKind::Edges && edges_gray) return has_alpha(channels) ? 2 : 1;
    return channels;
}

int FilterPlan::footprint_width() const {
    switch (kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
        case FilterKind::Box: return 2 * radius + 1;
        case FilterKind::Edges: return 3;
        case FilterKind::Custom: return kernel_width;
    }
    return 0;
}

int FilterPlan::footprint_height() const {
    return kind == FilterKind::Custom ? kernel_height : footprint_width();
}

bool FilterPlan::separable() const {
    return kind == FilterKind::Gaussian || kind == FilterKind::Unsharp || kind == FilterKind::Box;
}

std::string FilterPlan::describe() const {
    std::string s = filter_kind_name(kind);
    switch (kind) {
        case FilterKind::Gaussian:
            s += " sigma=" + num(sigma) + " radius=" + std::to_string(radius);
            break;
        case FilterKind::Box:
            s += " radius=" + std::to_string(radius);
            break;
        case FilterKind::Unsharp:
            s += " sigma=" + num(sigma) + " radius=" + std::to_string(radius) + " amount=" + num(amount) +
                 " threshold=" + num(threshold);
            break;
        case FilterKind::Edges:
            s += std::string(" ") + edge_operator_name(edge_op) + (edges_gray ? " gray" : "");
            break;
        case FilterKind::Custom:
            s += std::string(flipped ? " convolution" : " correlation") + " scale=" + num(scale) +
                 " offset=" + num(offset) + " frac_bits=" + std::to_string(frac_bits);
            break;
    }
    s += " (" + std::to_string(footprint_width()) + "x" + std::to_string(footprint_height()) +
         (separable() ? ", separable" : "") + (kind == FilterKind::Custom && separable_hint ? ", rank 1" : "") +
         "), border " + border_name(border);
    return s;
}

void check_plan(const FilterPlan& p) {
    auto bad = [](const std::string& why) { return usage_error("filter plan", why); };
    switch (p.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: {
            if (p.radius < 1 || p.radius > kMaxGaussianRadius || p.taps.size() != 2 * static_cast<std::size_t>(p.radius) + 1)
                throw bad("a Gaussian needs a radius from 1 to " + std::to_string(kMaxGaussianRadius) + " and 2r+1 taps");
            long long sum = 0;
            for (std::int32_t t : p.taps) {
                if (t < 0 || t > kGaussianTapSum) throw bad("Gaussian taps must lie in 0.." + std::to_string(kGaussianTapSum));
                sum += t;
            }
            if (sum != kGaussianTapSum)
                throw bad("Gaussian taps must sum to " + std::to_string(kGaussianTapSum) + ", these sum to " +
                          std::to_string(sum));
            if (p.kind == FilterKind::Unsharp &&
                (p.amount_q8 < 0 || p.amount_q8 > 256 * kMaxUnsharpAmount || p.threshold_level < 0 || p.threshold_level > 255))
                throw bad("the unsharp amount must be 0.." + num(kMaxUnsharpAmount) + " and the threshold level 0..255");
            break;
        }
        case FilterKind::Box:
            if (p.radius < 1 || p.radius > kMaxBoxRadius)
                throw bad("the box radius must be from 1 to " + std::to_string(kMaxBoxRadius) + " (got " +
                          std::to_string(p.radius) + ")");
            break;
        case FilterKind::Edges:
            if (p.edge_op != EdgeOperator::Sobel && p.edge_op != EdgeOperator::Scharr &&
                p.edge_op != EdgeOperator::Laplacian)
                throw bad("unknown edge operator");
            break;
        case FilterKind::Custom: {
            const int kw = p.kernel_width, kh = p.kernel_height;
            if (kw < 1 || kw > kMaxKernelSide || kh < 1 || kh > kMaxKernelSide ||
                p.coeffs.size() != static_cast<std::size_t>(kw) * kh)
                throw bad("custom kernel sides must be from 1 to " + std::to_string(kMaxKernelSide) +
                          " with one coefficient per cell");
            if (p.anchor_x < 0 || p.anchor_x >= kw || p.anchor_y < 0 || p.anchor_y >= kh)
                throw bad("the custom kernel's anchor lies outside the kernel");
            long long abs_sum = 0;
            for (std::int32_t c : p.coeffs) abs_sum += c < 0 ? -static_cast<long long>(c) : c;
            if (abs_sum > kMaxKernelAbsSum)
                throw bad("the sum of |fixed-point coefficients| is " + std::to_string(abs_sum) + ", above " +
                          std::to_string(kMaxKernelAbsSum));
            const double den = p.scale * std::ldexp(1.0, p.frac_bits);
            if (p.frac_bits < 0 || p.frac_bits > kMaxFracBits || !std::isfinite(den) || den == 0.0 ||
                !std::isfinite(p.offset))
                throw bad("a custom kernel needs frac_bits 0.." + std::to_string(kMaxFracBits) +
                          ", a finite non-zero scale and a finite offset");
            break;
        }
        default:
            throw bad("unknown filter kind");
    }
}

// Largest-remainder rounding of the sampled Gaussian to integers summing to
// exactly `sum` (kGaussianTapSum for 8-bit images, kGaussianTapSum16 for
// 16-bit ones). Symmetry is kept by working on |i| only: a pair
// +-i always moves by two units together, so an odd remainder can only go to
// the centre. When the remainder is even the centre may still take two units
// where its fractional part ranks high enough; without that, a wide kernel
// whose centre and first pair share a floor could end with t[+-1] > t[0].
namespace {
std::vector<std::int32_t> gaussian_taps_summing(double sigma, int radius, std::int64_t sum) {
    check_sigma(sigma);
    const int r = std::max(radius, 0);
    std::vector<double> g(static_cast<std::size_t>(r) + 1);
    double total = 0.0;
    for (int k = 0; k <= r; ++k) {
        // The centre is 1 whatever sigma: for a sigma so small that 2 sigma^2
        // is 0 (1e-200), 0 / 0 would make it NaN; the other taps are then 0,
        // the identity kernel that a tiny sigma tends to.
        g[k] = k == 0 ? 1.0 : std::exp(-static_cast<double>(k) * k / (2.0 * sigma * sigma));
        total += k == 0 ? g[k] : 2.0 * g[k];
    }
    std::vector<std::int32_t> half(static_cast<std::size_t>(r) + 1);
    std::vector<double> frac(static_cast<std::size_t>(r) + 1);
    std::int64_t used = 0;
    for (int k = 0; k <= r; ++k) {
        double w = static_cast<double>(sum) * g[k] / total;
        double f = std::floor(w);
        half[k] = static_cast<std::int32_t>(f);
        frac[k] = w - f;
        used += k == 0 ? half[k] : 2 * half[k];
    }
    std::int64_t rem = sum - used;
    bool centre_done = false;
    if (rem % 2 != 0) {
        half[0] += 1;
        rem -= 1;
        centre_done = true;
    }
    // Candidates by fractional part, largest first; ties go to the tap
    // nearer the centre so the taps stay non-increasing outward.
    std::vector<int> order(static_cast<std::size_t>(r) + 1);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return frac[a] > frac[b]; });
    for (int k : order) {
        if (rem <= 0) break;
        if (k == 0) {
            if (centre_done) continue;
            half[0] += 2;
        } else {
            half[k] += 1;
        }
        rem -= 2;
    }
    std::vector<std::int32_t> taps(2 * static_cast<std::size_t>(r) + 1);
    for (int i = -r; i <= r; ++i) taps[static_cast<std::size_t>(i + r)] = half[static_cast<std::size_t>(std::abs(i))];
    return taps;
}
}  // namespace

std::vector<std::int32_t> gaussian_taps(double sigma, int radius) {
    return gaussian_taps_summing(sigma, radius, kGaussianTapSum);
}

std::vector<std::int32_t> gaussian_taps16(const FilterPlan& plan) {
    return gaussian_taps_summing(plan.sigma, plan.radius, kGaussianTapSum16);
}

FilterPlan make_gaussian(double sigma, int radius, Border border) {
    check_sigma(sigma);
    FilterPlan p;
    p.kind = FilterKind::Gaussian;
    p.border = border;
    p.sigma = sigma;
    p.radius = gaussian_radius(sigma, radius);
    p.taps = gaussian_taps(sigma, p.radius);
    return p;
}

FilterPlan make_box(int radius, Border border) {
    if (radius < 1 || radius > kMaxBoxRadius)
        throw usage_error("--radius", "box radius must be from 1 to " + std::to_string(kMaxBoxRadius) + " (got " +
                                          std::to_string(radius) + ")");
    FilterPlan p;
    p.kind = FilterKind::Box;
    p.border = border;
    p.radius = radius;
    return p;
}

FilterPlan make_unsharp(double sigma, int radius, double amount, double threshold, Border border) {
    check_sigma(sigma);
    int r = gaussian_radius(sigma, radius);
    if (!std::isfinite(amount) || amount < 0.0 || amount > kMaxUnsharpAmount)
        throw usage_error("--amount", "must be from 0 to " + num(kMaxUnsharpAmount) + " (got " + num(amount) + ")");
    if (!std::isfinite(threshold) || threshold < 0.0 || threshold > 1.0)
        throw usage_error("--threshold", "must be from 0 to 1, a fraction of full scale (got " + num(threshold) + ")");
    FilterPlan p;
    p.kind = FilterKind::Unsharp;
    p.border = border;
    p.sigma = sigma;
    p.radius = r;
    p.taps = gaussian_taps(sigma, r);
    p.amount = amount;
    p.amount_q8 = static_cast<int>(std::lround(amount * 256.0));
    p.threshold = threshold;
    // ceil, as the test 2|d| < T * 255 is exact for integer d; the slack
    // keeps T = 0.2 (51.000000000000007 in binary) at 51.
    p.threshold_level = static_cast<int>(std::ceil(threshold * 255.0 - 1e-9));
    return p;
}

FilterPlan make_edges(EdgeOperator op, bool gray, Border border) {
    FilterPlan p;
    p.kind = FilterKind::Edges;
    p.border = border;
    p.edge_op = op;
    p.edges_gray = gray;
    return p;
}

namespace {

// The fixed-point form of a custom kernel: the fewest fractional bits that
// hold every coefficient exactly, else the most that keep sum |c| within the
// limit (so S = sum c * s stays below 2^24 and is exact in int and float).
struct FixedPoint {
    int frac_bits = 0;
    std::vector<std::int32_t> coeffs;
};

FixedPoint to_fixed_point(const std::vector<double>& values) {
    const double limit = static_cast<double>(kMaxKernelAbsSum);
    for (int f = 0; f <= kMaxFracBits; ++f) {
        bool exact = true;
        double sum = 0.0;
        for (double v : values) {
            double s = std::ldexp(v, f);  // exact: a power-of-two scaling
            if (s != std::floor(s)) {
                exact = false;
                break;
            }
            sum += std::fabs(s);
        }
        if (!exact) continue;
        // The smallest exact f has the smallest sum: larger ones only double it.
        if (sum <= limit) {
            FixedPoint fp;
            fp.frac_bits = f;
            for (double v : values) fp.coeffs.push_back(static_cast<std::int32_t>(std::ldexp(v, f)));
            return fp;
        }
        break;
    }
    for (int f = kMaxFracBits; f >= 0; --f) {
        double sum = 0.0;
        for (double v : values) sum += std::fabs(std::round(std::ldexp(v, f)));
        if (sum <= limit) {
            FixedPoint fp;
            fp.frac_bits = f;
            for (double v : values) fp.coeffs.push_back(static_cast<std::int32_t>(std::round(std::ldexp(v, f))));
            return fp;
        }
    }
    throw usage_error("--kernel", "coefficients are too large: the sum of their absolute values, rounded to "
                                  "integers, must be at most " + std::to_string(kMaxKernelAbsSum) +
                                  "; divide them and give a smaller --scale");
}

// Whether the integer kernel is an outer product (rank 1): reported only.
bool is_rank_one(const std::vector<std::int32_t>& c, int w, int h) {
    auto at = [&](int i, int j) { return static_cast<std::int64_t>(c[static_cast<std::size_t>(j) * w + i]); };
    int i0 = -1, j0 = -1;
    for (int j = 0; j < h && i0 < 0; ++j)
        for (int i = 0; i < w; ++i)
            if (at(i, j) != 0) {
                i0 = i;
                j0 = j;
                break;
            }
    if (i0 < 0) return false;
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i)
            if (at(i, j) * at(i0, j0) != at(i0, j) * at(i, j0)) return false;
    return true;
}

}  // namespace

FilterPlan make_custom(const KernelMatrix& kernel, const CustomKernelOptions& options, Border border) {
    if (kernel.width < 1 || kernel.width > kMaxKernelSide || kernel.height < 1 || kernel.height > kMaxKernelSide)
        throw usage_error("--kernel", "kernel is " + std::to_string(kernel.width) + "x" +
                                          std::to_string(kernel.height) + "; each side must be from 1 to " +
                                          std::to_string(kMaxKernelSide));
    if (kernel.values.size() != static_cast<std::size_t>(kernel.width) * kernel.height)
        throw usage_error("--kernel", "a " + std::to_string(kernel.width) + "x" + std::to_string(kernel.height) +
                                          " kernel needs " + std::to_string(kernel.width * kernel.height) +
                                          " values, got " + std::to_string(kernel.values.size()));
    for (double v : kernel.values)
        if (!std::isfinite(v)) throw usage_error("--kernel", "coefficients must be finite numbers");

    if (options.normalize && options.scale)
        throw usage_error("--normalize", "cannot be combined with --scale (normalising sets the scale to the sum "
                                         "of the coefficients)");
    double scale = 1.0;
    if (options.scale) {
        scale = *options.scale;
        if (!std::isfinite(scale) || scale == 0.0)
            throw usage_error("--scale", "must be a finite, non-zero number (got " + num(scale) + ")");
    } else if (options.normalize) {
        scale = std::accumulate(kernel.values.begin(), kernel.values.end(), 0.0);
        if (scale == 0.0 || !std::isfinite(scale))
            throw usage_error("--normalize", "the coefficients sum to 0, so the kernel cannot be normalised; "
                                             "give --scale instead");
    } else if (kernel.scale) {
        scale = *kernel.scale;
        if (!std::isfinite(scale) || scale == 0.0)
            throw usage_error("--kernel", "the kernel's scale must be a finite, non-zero number (got " + num(scale) +
                                              "); give --scale to override it");
    }
    double offset = options.offset ? *options.offset : (kernel.offset ? *kernel.offset : 0.0);
    if (!std::isfinite(offset))
        throw usage_error(options.offset ? "--offset" : "--kernel", "offset must be a finite number");

    FixedPoint fp = to_fixed_point(kernel.values);
    bool any_nonzero = std::any_of(kernel.values.begin(), kernel.values.end(), [](double v) { return v != 0.0; });
    bool all_zero_fixed = std::all_of(fp.coeffs.begin(), fp.coeffs.end(), [](std::int32_t c) { return c == 0; });
    if (any_nonzero && all_zero_fixed)
        throw usage_error("--kernel", "coefficients are too small to represent with " +
                                          std::to_string(kMaxFracBits) + " fractional bits; multiply them and "
                                          "give a larger --scale");

    FilterPlan p;
    p.kind = FilterKind::Custom;
    p.border = border;
    p.kernel_width = kernel.width;
    p.kernel_height = kernel.height;
    p.anchor_x = kernel.width / 2;
    p.anchor_y = kernel.height / 2;
    p.frac_bits = fp.frac_bits;
    p.scale = scale;
    p.offset = offset;
    p.flipped = options.flip;
    p.coeffs = fp.coeffs;
    if (options.flip) std::reverse(p.coeffs.begin(), p.coeffs.end());  // row-major reversal = 180 degree turn
    p.separable_hint = is_rank_one(p.coeffs, p.kernel_width, p.kernel_height);
    return p;
}

}  // namespace imgpar
