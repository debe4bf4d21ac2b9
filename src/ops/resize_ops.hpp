// resize as an operation (src/op/operation.hpp): how its options and its
// geometry argument say the output's size, and the declaration. The
// resampling is src/ops/resize.hpp's.
#pragma once

#include <string>

#include "src/op/operation.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/resize.hpp"

namespace imgpar {

// The output size of a resize, from the input's:
//   Width / Height  that side, the other keeping the aspect ratio
//   Exact           both sides as given (--width and --height, or WxH!)
//   Scale           each side times its factor (--scale S or SxT, N%)
//   Fit             the largest size inside the box keeping the aspect ratio (WxH)
//   Cover           the smallest size covering the box, keeping it (WxH^)
//   Fill            Cover, then cropped to the box by gravity (--fill WxH)
// `only` (WxH> and WxH<): leave an image alone unless it is larger than the
// box (shrink) or smaller (enlarge). Sides are rounded half up, at least 1.
struct ResizeSpec {
    enum class Mode { Width, Height, Exact, Scale, Fit, Cover, Fill };
    enum class Only { Any, Shrink, Enlarge };
    Mode mode = Mode::Scale;
    int width = 0, height = 0;
    double scale_x = 1, scale_y = 1;
    Only only = Only::Any;
    Gravity gravity = Gravity::Center;
    ResizeFilter filter = ResizeFilter::Auto;
    // A thumbnail's: a JPEG may be decoded smaller (ImageJob::load_shrink).
    bool shrink_on_load = false;
};

// ImageMagick's geometry: N% or N%xM%, WxH (fit), WxH! (exact), WxH^ (cover),
// WxH> (shrink only), WxH< (enlarge only), W or Wx (width), xH (height).
// Throws imgpar::Error (usage) naming `text`.
ResizeSpec parse_resize_geometry(const std::string& text);

// What the spec makes of a width x height image. Throws imgpar::Error
// (usage) for a side beyond 2^24.
ResizeGeometry resize_geometry(const ResizeSpec& spec, int width, int height);

Operation resize_operation();
// thumbnail: resize to fit a box (or fill it, --crop), with shrink-on-load,
// upright, keeping only the ICC profile: vipsthumbnail's job.
Operation thumbnail_operation();

}  // namespace imgpar
