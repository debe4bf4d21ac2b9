// The CPU reference of comparing two 16-bit images (src/ops/compare.hpp,
// 16-BIT CONTRACT): the sums and the u16 difference image (difference_sums,
// src/ops/compare.cpp, shared with 8 bits), SSIM with L = 65535
// (src/ops/ssim.cpp).
#include "src/error.hpp"
#include "src/ops/compare.hpp"

namespace imgpar {
namespace cpu {

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
