// The SSIM of Wang et al.'s reference implementation (their ssim.m), which
// first shrinks both images by f = max(1, round(min(W, H) / 256)): an f x f
// mean (edges mirrored, MATLAB's 'symmetric') sampled every f pixels, then
// SSIM with the 11 x 11 Gaussian window (sigma 1.5) over the windows that fit
// ('valid'). NPP's nppiSSIM reports this quantity (to about 5e-6), so the
// benchmark prints it beside NPP's values: on 7680x4320 it averages the SSIM
// of 452 x 254 pixels, where imgpar (and scikit-image) average it over every
// pixel of the full image. Double precision, one channel at a time; a
// benchmark check, not imgpar's arithmetic.
#pragma once

#include <vector>

#include "src/image.hpp"

namespace imgpar::bench {

struct WangSsim {
    int factor = 1;                 // the f both images were shrunk by
    std::vector<double> channel;    // the mean SSIM of each channel
};

WangSsim wang_reference_ssim(const ImageU8& a, const ImageU8& b);

}  // namespace imgpar::bench
