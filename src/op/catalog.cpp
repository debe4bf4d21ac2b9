// The one list of operations: a declaration each, in the order
// `imgpar --help` lists them.
#include "src/op/operation.hpp"
#include "src/ops/colour_ops.hpp"
#include "src/ops/filter_ops.hpp"
#include "src/ops/geometry_ops.hpp"
#include "src/ops/histogram_ops.hpp"
#include "src/ops/integral_ops.hpp"
#include "src/ops/resize_ops.hpp"
#include "src/ops/stats_ops.hpp"

namespace imgpar {

const std::vector<Operation>& operations() {
    static const std::vector<Operation> list = {
        blur_operation(),  box_operation(),   sharpen_operation(),  edges_operation(),
        convolve_operation(), histo_operation(), stats_operation(), equalize_operation(), threshold_operation(),
        integral_operation(), resize_operation(), thumbnail_operation(),
        crop_operation(), flip_operation(), flop_operation(), transpose_operation(), rotate_operation(),
        pad_operation(), grayscale_operation(), extract_channel_operation(), flatten_operation(),
        add_alpha_operation(),
    };
    return list;
}

}  // namespace imgpar
