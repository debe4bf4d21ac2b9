// Area resize at whole factors on the CPU: every output pixel the mean of
// an fx x fy block (fx, fy whole, blocks side by side), which is what
// `resize 50%` and other integer shrinks with area are. Sums of at most 256
// bytes fit 16-bit lanes, twice as many per vector as the general path's
// 32-bit sums, and the division is a multiply: the same bytes as
// cpu::resize's general path (the unit suite compares them).
#pragma once

#include "src/image.hpp"
#include "src/ops/resize.hpp"

namespace imgpar::cpu {

// Whether the plan is whole blocks this path takes: both axes area (or a
// copy) with whole factors and fx * fy <= 256, and no alpha (premultiplied
// colour takes the general path).
bool resize_takes_blocks(const ResizePlan& plan, int channels);

// dst: plan.x.count x plan.y.count. Multithreaded. Requires
// resize_takes_blocks.
void resize_blocks(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst);

}  // namespace imgpar::cpu
