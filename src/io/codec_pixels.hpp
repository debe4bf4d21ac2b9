// Pixel layouts the codecs of formats without gray (WebP; AVIF's RGB
// conversion) are handed: gray as R = G = B.
#pragma once

#include "src/image.hpp"

namespace imgpar {

// Gray (1 channel) as RGB, gray+alpha (2) as RGBA; `image` must be one of the two.
ImageU8 gray_as_rgb(ConstViewU8 image);

}  // namespace imgpar
