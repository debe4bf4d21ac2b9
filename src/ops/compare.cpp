// The CPU reference of image comparison (src/ops/compare.hpp) and the
// metrics both backends derive from the exact sums.
#include "src/ops/compare.hpp"

#include <cmath>
#include <limits>
#include <mutex>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/parallel.hpp"

namespace imgpar {

namespace {

std::string shape_text(ConstViewU8 v) {
    return std::to_string(v.width) + "x" + std::to_string(v.height) + " " + channel_layout_name(v.channels);
}

// The sums of rows [y0, y1), of 8- or 16-bit samples (d^2 up to 2^32 for 16 bits).
template <typename T>
DifferenceSums sum_rows(ImageView<const T> a, ImageView<const T> b, const ImageView<T>* diff, int y0, int y1) {
    DifferenceSums s;
    const int ch = a.channels;
    for (int y = y0; y < y1; ++y) {
        const T* ra = a.row(y);
        const T* rb = b.row(y);
        T* rd = diff ? diff->row(y) : nullptr;
        for (int x = 0; x < a.width; ++x) {
            bool any = false;
            for (int c = 0; c < ch; ++c) {
                const std::size_t i = static_cast<std::size_t>(x) * ch + c;
                const int d = ra[i] > rb[i] ? ra[i] - rb[i] : rb[i] - ra[i];
                ChannelDifference& cd = s.channel[c];
                if (d > cd.max_abs) cd.max_abs = d;
                cd.differ += d != 0;
                cd.sum_abs += static_cast<std::uint64_t>(d);
                cd.sum_sq += static_cast<std::uint64_t>(d) * static_cast<std::uint64_t>(d);
                any = any || d != 0;
                if (rd) rd[i] = static_cast<T>(d);
            }
            s.pixels_differ += any;
        }
    }
    return s;
}

void add_into(DifferenceSums& total, const DifferenceSums& part, int channels) {
    total.pixels_differ += part.pixels_differ;
    for (int c = 0; c < channels; ++c) {
        ChannelDifference& t = total.channel[c];
        const ChannelDifference& p = part.channel[c];
        if (p.max_abs > t.max_abs) t.max_abs = p.max_abs;
        t.differ += p.differ;
        t.sum_abs += p.sum_abs;
        t.sum_sq += p.sum_sq;
    }
}

}  // namespace

DifferenceMetrics difference_metrics(const DifferenceSums& sums, int channel) {
    DifferenceMetrics m;
    std::uint64_t sum_abs = 0, sum_sq = 0;
    const int first = channel < 0 ? 0 : channel;
    const int last = channel < 0 ? sums.channels : channel + 1;
    for (int c = first; c < last; ++c) {
        const ChannelDifference& d = sums.channel[c];
        if (d.max_abs > m.max_abs) m.max_abs = d.max_abs;
        m.differ += d.differ;
        sum_abs += d.sum_abs;
        sum_sq += d.sum_sq;
    }
    m.samples = sums.pixels * static_cast<std::uint64_t>(last - first);
    if (m.samples == 0) return m;
    const double n = static_cast<double>(m.samples);
    m.differ_share = static_cast<double>(m.differ) / n;
    m.mae = static_cast<double>(sum_abs) / n;
    m.mse = static_cast<double>(sum_sq) / n;
    m.rmse = std::sqrt(m.mse);
    // As scikit-image: 10 * log10(data_range ** 2 / mse).
    const double peak = static_cast<double>(sums.data_range);
    m.psnr = sum_sq == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(peak * peak / m.mse);
    return m;
}

void check_comparable(ConstViewU8 a, ConstViewU8 b, const std::string& name_a, const std::string& name_b) {
    if (same_shape(a, b)) return;
    const std::string what = a.channels != b.channels && a.width == b.width && a.height == b.height
                                 ? "different channel layouts"
                                 : "different sizes";
    throw input_error(name_a + ", " + name_b, "cannot compare images of " + what + ": " + name_a + " is " +
                                                  shape_text(a) + ", " + name_b + " is " + shape_text(b));
}

SsimPlan ssim_plan(const CompareOptions& options, int width, int height) {
    SsimPlan p;
    p.downsample = ssim_downsample_factor(options.ssim_downsample, width, height);
    p.width = ssim_shrunk_side(width, p.downsample);
    p.height = ssim_shrunk_side(height, p.downsample);
    p.fits = ssim_fits(p.width, p.height);
    return p;
}

std::string SsimPlan::shortfall() const {
    const std::string window = std::to_string(kSsimWindow) + "x" + std::to_string(kSsimWindow) + " window";
    if (downsample == 1) return "is smaller than the " + window;
    return "shrunk " + std::to_string(downsample) + "x (--ssim-downsample) is " + std::to_string(width) + "x" +
           std::to_string(height) + ", smaller than the " + window;
}

namespace cpu {

namespace {

template <typename T>
DifferenceSums sums_of(ImageView<const T> a, ImageView<const T> b, const ImageView<T>* diff) {
    if (!same_shape(a, b)) throw usage_error("compare", "the two images differ in size or channel count");
    if (diff && !same_shape(a, *diff)) throw usage_error("compare", "the difference image's shape differs");
    DifferenceSums total;
    total.channels = a.channels;
    total.data_range = sizeof(T) == 2 ? 65535 : 255;
    total.pixels = static_cast<std::uint64_t>(a.width) * static_cast<std::uint64_t>(a.height);
    std::mutex mutex;
    parallel_for(a.height, 64, [&](int y0, int y1) {
        const DifferenceSums part = sum_rows(a, b, diff, y0, y1);
        std::lock_guard<std::mutex> lock(mutex);
        add_into(total, part, a.channels);  // integers: the order of the parts does not matter
    });
    return total;
}

}  // namespace

DifferenceSums difference_sums(ConstViewU8 a, ConstViewU8 b, const ViewU8* diff) { return sums_of(a, b, diff); }
DifferenceSums difference_sums(ConstViewU16 a, ConstViewU16 b, const ViewU16* diff) { return sums_of(a, b, diff); }

Comparison compare(ConstViewU8 a, ConstViewU8 b, const CompareOptions& options) {
    Comparison r;
    if (options.diff) r.diff = ImageU8(a.width, a.height, a.channels);
    const ViewU8 diff_view = r.diff.view();
    r.sums = difference_sums(a, b, options.diff ? &diff_view : nullptr);
    const SsimPlan plan = ssim_plan(options, a.width, a.height);
    if (options.ssim_map && !plan.fits) throw usage_error("--ssim-map", shape_text(a) + " " + plan.shortfall());
    if ((options.ssim || options.ssim_map) && plan.fits) {
        if (options.ssim_map) r.ssim_map = ImageU8(plan.width, plan.height, a.channels);
        const ViewU8 map_view = r.ssim_map.view();
        r.ssim = ssim(a, b, options.ssim_map ? &map_view : nullptr, plan.downsample);
    }
    return r;
}

std::string compare_kernel_name(const CompareOptions& options) {
    const int threads = cpu_thread_count();
    std::string s = "difference sums";
    if (options.ssim && options.ssim_downsample != 1) s += ", shrinking (f x f sums)";
    if (options.ssim) s += ", SSIM (11x11 Gaussian moments, row ring)";
    return s + ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
}

}  // namespace cpu

namespace {

template <typename T>
auto compare_on(const BackendChoice& backend, ImageView<const T> a, ImageView<const T> b, const CompareOptions& asked,
                std::string* kernel) {
    // "auto" resolved for these images, so that the kernels' names say whether they shrink.
    CompareOptions options = asked;
    options.ssim_downsample = ssim_downsample_factor(asked.ssim_downsample, a.width, a.height);
    if (backend.backend != Backend::Gpu) {
        if (kernel) *kernel = cpu::compare_kernel_name(options);
        return cpu::compare(a, b, options);
    }
    if (!same_shape(a, b)) throw usage_error("compare", "the two images differ in size or channel count");
    gpu::Session& s = *backend.session;
    const DeviceView<T> da = s.image<T>(gpu::Session::Slot::Input, a.width, a.height, a.channels);
    const DeviceView<T> db = s.image<T>(gpu::Session::Slot::Output, b.width, b.height, b.channels);
    s.upload(a, da);
    s.upload(b, db);
    return gpu::compare(s, DeviceView<const T>(da), DeviceView<const T>(db), options, kernel);
}

}  // namespace

Comparison compare_images(const BackendChoice& backend, ConstViewU8 a, ConstViewU8 b, const CompareOptions& asked,
                          std::string* kernel) {
    return compare_on(backend, a, b, asked, kernel);
}

Comparison16 compare_images(const BackendChoice& backend, ConstViewU16 a, ConstViewU16 b, const CompareOptions& asked,
                            std::string* kernel) {
    return compare_on(backend, a, b, asked, kernel);
}

}  // namespace imgpar
