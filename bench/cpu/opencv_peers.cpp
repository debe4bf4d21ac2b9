// OpenCV's equivalent of each case, on imgpar's pixels wrapped in a cv::Mat
// (no copy), into outputs made once. Which function answers which case, and
// how close the two computations are, is said in each case's note.
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/cpu_bench.hpp"
#include "src/ops/filter_ops.hpp"
#include "src/ops/integral.hpp"

namespace imgpar::cpu_bench {
namespace {

cv::Mat wrap(ConstViewU8 v) {
    // OpenCV takes a mutable pointer; the peers only read their source.
    return cv::Mat(v.height, v.width, CV_8UC(v.channels), const_cast<std::uint8_t*>(v.data), v.stride);
}

ConstViewU8 view_of(const cv::Mat& m) { return {m.data, m.cols, m.rows, m.channels(), m.step}; }

// imgpar's border rules in OpenCV's terms (src/ops/border.hpp): reflect
// repeats the edge sample (OpenCV's BORDER_REFLECT), reflect101 does not
// (BORDER_REFLECT_101, OpenCV's default). OpenCV's filters read 0 beyond a
// constant border and have no wrap.
std::optional<int> cv_border(const Border& b) {
    switch (b.mode) {
        case BorderMode::Replicate: return cv::BORDER_REPLICATE;
        case BorderMode::Reflect: return cv::BORDER_REFLECT;
        case BorderMode::Reflect101: return cv::BORDER_REFLECT_101;
        case BorderMode::Constant:
            if (b.value == 0) return cv::BORDER_CONSTANT;
            return std::nullopt;
        case BorderMode::Wrap: return std::nullopt;
    }
    return std::nullopt;
}

// The kernel size is imgpar's footprint (a Gaussian's 2r+1, r = ceil(3 sigma)
// unless given), so both read the same neighbourhood.
PreparedRun filter_peer(const FilterPlan& plan, cv::Mat src) {
    PreparedRun p;
    const std::optional<int> border = cv_border(plan.border);
    if (!border) return p;
    const int b = *border;
    const cv::Size ksize(plan.footprint_width(), plan.footprint_height());
    cv::Mat dst(src.size(), src.type());
    switch (plan.kind) {
        case FilterKind::Gaussian: {
            const double sigma = plan.sigma;
            p.run = [=]() mutable { cv::GaussianBlur(src, dst, ksize, sigma, sigma, b); };
            p.note = "cv::GaussianBlur " + std::to_string(ksize.width) + "x" + std::to_string(ksize.height);
            p.output = [dst] { return view_of(dst); };
            break;
        }
        case FilterKind::Box:
            p.run = [=]() mutable { cv::blur(src, dst, ksize, cv::Point(-1, -1), b); };
            p.note = "cv::blur " + std::to_string(ksize.width) + "x" + std::to_string(ksize.height);
            p.output = [dst] { return view_of(dst); };
            break;
        case FilterKind::Unsharp: {
            const double sigma = plan.sigma, amount = plan.amount;
            cv::Mat blurred(src.size(), src.type());
            p.run = [=]() mutable {
                cv::GaussianBlur(src, blurred, ksize, sigma, sigma, b);
                cv::addWeighted(src, 1.0 + amount, blurred, -amount, 0.0, dst);
            };
            p.note = "cv::GaussianBlur + cv::addWeighted: unsharp without imgpar's threshold";
            break;
        }
        case FilterKind::Edges: {
            if (plan.edges_gray) return p;
            cv::Mat gx(src.size(), CV_16SC(src.channels())), gy(src.size(), CV_16SC(src.channels()));
            const EdgeOperator op = plan.edge_op;
            p.run = [=]() mutable {
                if (op == EdgeOperator::Sobel) {
                    cv::Sobel(src, gx, CV_16S, 1, 0, 3, 1, 0, b);
                    cv::Sobel(src, gy, CV_16S, 0, 1, 3, 1, 0, b);
                } else if (op == EdgeOperator::Scharr) {
                    cv::Scharr(src, gx, CV_16S, 1, 0, 1, 0, b);
                    cv::Scharr(src, gy, CV_16S, 0, 1, 1, 0, b);
                } else {
                    cv::Laplacian(src, gx, CV_16S, 1, 1, 0, b);
                }
            };
            p.note = op == EdgeOperator::Laplacian
                         ? "cv::Laplacian into CV_16S: the signed sum only, imgpar also |L| clipped"
                         : std::string("cv::") + (op == EdgeOperator::Sobel ? "Sobel" : "Scharr") +
                               " dx and dy into CV_16S: gx and gy only, imgpar also the magnitude";
            break;
        }
        case FilterKind::Custom: {
            cv::Mat kernel(plan.kernel_height, plan.kernel_width, CV_32F);
            const double denominator = plan.scale * static_cast<double>(1 << plan.frac_bits);
            for (int j = 0; j < plan.kernel_height; ++j)
                for (int i = 0; i < plan.kernel_width; ++i)
                    kernel.at<float>(j, i) = static_cast<float>(plan.coeffs[j * plan.kernel_width + i] / denominator);
            const cv::Point anchor(plan.anchor_x, plan.anchor_y);
            const double offset = plan.offset;
            p.run = [=]() mutable { cv::filter2D(src, dst, -1, kernel, anchor, offset, b); };
            p.note = "cv::filter2D, float kernel";
            p.output = [dst] { return view_of(dst); };
            break;
        }
    }
    return p;
}

PreparedRun equalize_peer(const std::string& mode, cv::Mat src) {
    PreparedRun p;
    if (src.channels() == 1) {
        cv::Mat dst(src.size(), src.type());
        p.run = [=]() mutable { cv::equalizeHist(src, dst); };
        p.note = "cv::equalizeHist";
        p.output = [dst] { return view_of(dst); };
        return p;
    }
    if (src.channels() != 3) return p;
    std::vector<cv::Mat> planes(3);
    for (cv::Mat& plane : planes) plane.create(src.size(), CV_8UC1);
    cv::Mat dst(src.size(), src.type());
    p.run = [=]() mutable {
        cv::split(src, planes);
        for (cv::Mat& plane : planes) cv::equalizeHist(plane, plane);
        cv::merge(planes, dst);
    };
    if (mode == "channels") {
        p.note = "cv::split, cv::equalizeHist per channel, cv::merge";
        p.output = [dst] { return view_of(dst); };
    } else {
        p.note = "cv::equalizeHist per channel (split/merge): imgpar's luma mode computes another image";
    }
    return p;
}

// Colour images become gray through cv::cvtColor, whose weights (0.299,
// 0.587, 0.114 in 14-bit fixed point) differ slightly from imgpar's luma
// ((77 R + 150 G + 29 B + 128) >> 8).
PreparedRun threshold_peer(const ParamValues& v, cv::Mat src) {
    PreparedRun p;
    const bool otsu = v.flag("otsu");
    const bool adaptive_mean = v.given("adaptive") && v.text("adaptive") == "mean";
    if (!otsu && !adaptive_mean) return p;  // sauvola, niblack: in OpenCV's contrib modules only
    if (src.channels() != 1 && src.channels() != 3) return p;
    const bool colour = src.channels() == 3;
    cv::Mat gray = colour ? cv::Mat(src.size(), CV_8UC1) : src;
    cv::Mat dst(src.size(), CV_8UC1);
    const int window = adaptive_mean ? v.int_value("window") : 0;
    const double offset = adaptive_mean ? v.real("offset") : 0.0;
    p.run = [=]() mutable {
        if (colour) cv::cvtColor(src, gray, cv::COLOR_RGB2GRAY);
        if (adaptive_mean)
            cv::adaptiveThreshold(gray, dst, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY, window, offset);
        else
            cv::threshold(gray, dst, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    };
    p.note = std::string(colour ? "cv::cvtColor + " : "") +
             (adaptive_mean ? "cv::adaptiveThreshold MEAN_C" : "cv::threshold OTSU");
    if (!colour) p.output = [dst] { return view_of(dst); };
    return p;
}

// One cv::calcHist per channel (and of cv::cvtColor's gray for the luma
// plane), into float counts.
PreparedRun histogram_peer(bool with_luma, cv::Mat src) {
    PreparedRun p;
    const bool luma = with_luma && src.channels() == 3;
    cv::Mat gray = luma ? cv::Mat(src.size(), CV_8UC1) : cv::Mat();
    std::vector<cv::Mat> hists(src.channels() + (luma ? 1 : 0));
    p.run = [=]() mutable {
        const int size = 256;
        const float range[] = {0, 256};
        const float* ranges[] = {range};
        for (int c = 0; c < src.channels(); ++c) cv::calcHist(&src, 1, &c, cv::Mat(), hists[c], 1, &size, ranges);
        if (luma) {
            const int zero = 0;
            cv::cvtColor(src, gray, cv::COLOR_RGB2GRAY);
            cv::calcHist(&gray, 1, &zero, cv::Mat(), hists.back(), 1, &size, ranges);
        }
    };
    p.note = luma ? "cv::calcHist per channel, and of cv::cvtColor's gray" : "cv::calcHist per channel";
    return p;
}

// cv::integral in the depth of imgpar's --dtype auto table: 32-bit integers
// for u32; OpenCV has no 64-bit integer table, so doubles for u64. With
// squares, OpenCV's own default depths (sums in 32-bit integers, squares in
// doubles), where imgpar writes both in the type the squares need.
PreparedRun integral_peer(bool squared, cv::Mat src) {
    PreparedRun p;
    cv::Mat sum, squares;
    if (squared) {
        p.run = [=]() mutable { cv::integral(src, sum, squares); };
        p.note = "cv::integral(src, sum, sqsum): sums in 32-bit integers, squares in doubles";
        return p;
    }
    IntegralSpec spec;
    const bool u32 = integral_type(spec, src.cols, src.rows, "bench") == SumType::U32;
    const int depth = u32 ? CV_32S : CV_64F;
    p.run = [=]() mutable { cv::integral(src, sum, depth); };
    p.note = u32 ? "cv::integral into 32-bit integers" : "cv::integral into doubles (no 64-bit integer table)";
    return p;
}

// cv::meanStdDev over every channel at once, then cv::minMaxLoc per channel
// (it takes one channel: cv::extractChannel first for colour images). No
// count of non-zero samples, which imgpar also makes.
PreparedRun stats_peer(cv::Mat src) {
    PreparedRun p;
    cv::Mat plane(src.size(), CV_8UC1);
    p.run = [=]() mutable {
        cv::Scalar mean, stddev;
        cv::meanStdDev(src, mean, stddev);
        for (int c = 0; c < src.channels(); ++c) {
            double lo = 0, hi = 0;
            cv::Point lo_at, hi_at;
            if (src.channels() == 1) {
                cv::minMaxLoc(src, &lo, &hi, &lo_at, &hi_at);
            } else {
                cv::extractChannel(src, plane, c);
                cv::minMaxLoc(plane, &lo, &hi, &lo_at, &hi_at);
            }
        }
    };
    p.note = src.channels() == 1 ? "cv::meanStdDev + cv::minMaxLoc"
                                 : "cv::meanStdDev, then cv::extractChannel + cv::minMaxLoc per channel";
    return p;
}

// cv::resize to the size imgpar's resize gives: INTER_AREA for area (at an
// integer factor both compute the exact block mean), INTER_LANCZOS4 for
// lanczos3 (OpenCV's Lanczos is not widened when shrinking: 8 taps a side
// whatever the factor, where imgpar's antialiased one reads 6 x the factor),
// INTER_LINEAR and INTER_CUBIC (point-sampled, a = -0.75) for bilinear and
// bicubic, INTER_NEAREST_EXACT (pixel centres) for nearest.
PreparedRun resize_peer(const BenchCase& c, cv::Mat src) {
    PreparedRun p;
    const ImageShape out = c.job->output_shape({src.cols, src.rows, src.channels(), SampleType::U8});
    const std::string filter = c.values->text("filter");
    const int interpolation = filter == "area"       ? cv::INTER_AREA
                              : filter == "bilinear" ? cv::INTER_LINEAR
                              : filter == "bicubic"  ? cv::INTER_CUBIC
                              : filter == "nearest"  ? cv::INTER_NEAREST_EXACT
                                                     : cv::INTER_LANCZOS4;
    cv::Mat dst(out.height, out.width, src.type());
    p.run = [=]() mutable { cv::resize(src, dst, dst.size(), 0, 0, interpolation); };
    p.note = std::string("cv::resize ") +
             (filter == "area" ? "INTER_AREA" : filter == "bilinear" ? "INTER_LINEAR (not antialiased)"
              : filter == "bicubic" ? "INTER_CUBIC (not antialiased)" : filter == "nearest" ? "INTER_NEAREST_EXACT"
              : "INTER_LANCZOS4 (not antialiased: 8 taps)");
    if (filter == "area" || filter == "nearest") p.output = [dst] { return view_of(dst); };
    return p;
}

}  // namespace

PreparedRun prepare_opencv(const BenchCase& c, ConstViewU8 src) {
    const cv::Mat mat = wrap(src);
    if (c.operation == "histo") return histogram_peer(c.histogram_luma, mat);
    if (c.operation == "integral") return integral_peer(c.integral_squared, mat);
    if (c.operation == "stats") return stats_peer(mat);
    if (has_alpha(src.channels)) return {};  // imgpar filters premultiplied; OpenCV has no such mode
    if (c.operation == "resize") return resize_peer(c, mat);
    if (const auto* filter = dynamic_cast<const FilterJob*>(c.job.get())) return filter_peer(filter->plan(), mat);
    if (c.operation == "equalize") return equalize_peer(c.values->text("mode"), mat);
    if (c.operation == "threshold") return threshold_peer(*c.values, mat);
    return {};
}

std::string opencv_version() { return "OpenCV " + cv::getVersionString(); }

void set_opencv_threads(int threads) { cv::setNumThreads(threads); }

}  // namespace imgpar::cpu_bench
