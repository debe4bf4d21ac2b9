// NPP's image-quality functions as benchmark peers of imgpar compare: MSE
// (nppiMSE, the peer of the difference pass, which also finds the largest
// difference, the differing samples and MAE) and SSIM (nppiSSIM). Compiled
// only where the toolkit has NPP (IMGPAR_HAVE_NPP) and these functions (NPP
// 12 and later); elsewhere the peer reports itself unavailable. Gray and RGB
// only, as NPP has them.
#pragma once

#include <string>

#include "bench/bench.hpp"

namespace imgpar::bench {

struct NppCompareRun {
    bool available = false;
    std::string name;  // "NPP SSIM_8u_C3R"
    Timing timing;
    std::string note;  // why it did not run, or the value it gave
};

// `ssim` false: nppiMSE_8u_C{1,3}R_Ctx; true: nppiSSIM_8u_C{1,3}R_Ctx. On
// ctx's stream; the scratch buffer is allocated outside the timed region.
NppCompareRun time_npp_compare(Context& ctx, const DeviceViewU8& a, const DeviceViewU8& b, bool ssim);

// nppiSSIM computes the SSIM of Wang et al.'s reference code, which first
// shrinks images by round(min(W, H) / 256) (src/ops/ssim.hpp, DOWNSAMPLING:
// imgpar --ssim-downsample auto computes the same quantity). This peer
// makes it compute imgpar's quantity, the mean SSIM of every 11 x 11 window
// of the full image: nppiSSIM over tiles at most kNppSsimTile on a side
// (shrunk by 1, so not at all), which overlap by 10 pixels so that each
// window lies in exactly one, all calls timed together; their values weighted
// by their windows. `mean` receives the channels' mean.
NppCompareRun time_npp_ssim_full_resolution(Context& ctx, const DeviceViewU8& a, const DeviceViewU8& b, double& mean);

}  // namespace imgpar::bench
