// The CPU reference of comparing two 16-bit images (src/ops/compare.hpp,
// 16-BIT CONTRACT): exact sums per channel, the u16 difference image, SSIM
// with L = 65535 (src/ops/ssim.cpp).
#include <mutex>

#include "src/error.hpp"
#include "src/ops/compare.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace cpu {
namespace {

DifferenceSums sum_rows16(ConstViewU16 a, ConstViewU16 b, const ViewU16* diff, int y0, int y1) {
    DifferenceSums s;
    const int ch = a.channels;
    for (int y = y0; y < y1; ++y) {
        const std::uint16_t* ra = a.row(y);
        const std::uint16_t* rb = b.row(y);
        std::uint16_t* rd = diff ? diff->row(y) : nullptr;
        for (int x = 0; x < a.width; ++x) {
            bool any = false;
            for (int c = 0; c < ch; ++c) {
                const std::size_t i = static_cast<std::size_t>(x) * ch + c;
                const int d = ra[i] > rb[i] ? ra[i] - rb[i] : rb[i] - ra[i];
                ChannelDifference& cd = s.channel[c];
                if (d > cd.max_abs) cd.max_abs = d;
                cd.differ += d != 0;
                cd.sum_abs += static_cast<std::uint64_t>(d);
                cd.sum_sq += static_cast<std::uint64_t>(d) * static_cast<std::uint64_t>(d);  // up to 2^32
                any = any || d != 0;
                if (rd) rd[i] = static_cast<std::uint16_t>(d);
            }
            s.pixels_differ += any;
        }
    }
    return s;
}

}  // namespace

DifferenceSums difference_sums(ConstViewU16 a, ConstViewU16 b, const ViewU16* diff) {
    if (!same_shape(a, b)) throw usage_error("compare", "the two images differ in size or channel count");
    if (diff && !same_shape(a, *diff)) throw usage_error("compare", "the difference image's shape differs");
    DifferenceSums total;
    total.channels = a.channels;
    total.data_range = 65535;
    total.pixels = static_cast<std::uint64_t>(a.width) * static_cast<std::uint64_t>(a.height);
    std::mutex mutex;
    parallel_for(a.height, 64, [&](int y0, int y1) {
        const DifferenceSums part = sum_rows16(a, b, diff, y0, y1);
        std::lock_guard<std::mutex> lock(mutex);
        total.pixels_differ += part.pixels_differ;
        for (int c = 0; c < a.channels; ++c) {  // integers: the order of the parts does not matter
            ChannelDifference& t = total.channel[c];
            const ChannelDifference& p = part.channel[c];
            if (p.max_abs > t.max_abs) t.max_abs = p.max_abs;
            t.differ += p.differ;
            t.sum_abs += p.sum_abs;
            t.sum_sq += p.sum_sq;
        }
    });
    return total;
}

Comparison16 compare(ConstViewU16 a, ConstViewU16 b, const CompareOptions& options) {
    Comparison16 r;
    if (options.diff) r.diff = ImageU16(a.width, a.height, a.channels);
    const ViewU16 diff_view = r.diff.view();
    r.sums = difference_sums(a, b, options.diff ? &diff_view : nullptr);
    const SsimPlan plan = ssim_plan(options, a.width, a.height);
    if (options.ssim_map && !plan.fits)
        throw usage_error("--ssim-map", std::to_string(a.width) + "x" + std::to_string(a.height) + " " + plan.shortfall());
    if ((options.ssim || options.ssim_map) && plan.fits) {
        if (options.ssim_map) r.ssim_map = ImageU8(plan.width, plan.height, a.channels);
        const ViewU8 map_view = r.ssim_map.view();
        r.ssim = ssim(a, b, options.ssim_map ? &map_view : nullptr, plan.downsample);
    }
    return r;
}

}  // namespace cpu
}  // namespace imgpar
