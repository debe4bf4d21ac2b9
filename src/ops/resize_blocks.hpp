// Area resize at whole factors on the CPU: every output pixel the mean of
// an fx x fy block (fx, fy whole, blocks side by side), which is what
// `resize 50%` and other integer shrinks with area are. A block's sums take
// lanes twice the sample's width (16 bits for bytes, 32 for 16-bit
// samples), twice as many per vector as the general path's sums, and the
// division is a multiply: the same samples as cpu::resize's general path
// (the unit suite compares them).
//
// Why the same, at 16 bits too: at a whole factor f an axis's area table
// gives each output pixel f taps of weight 1 summing to sum = f (n = f m, so
// gcd(n, m) = m and the overlaps, m each, are kept divided by m); a copy has
// one tap of weight 1 and sum 1. The first pass keeps area's exact sums (no
// rounding: first_pass_value16 rounds a filter's only), the second adds fx
// of them exactly, and the output is that block sum S divided by the plan's
// divisor fy fx, rounded half up (resize_output; a mean never exceeds the
// sample's maximum, so the clamp does nothing): round(S / (fx fy)), the
// rounded exact mean. The block means compute that very quotient
// (simd::BlockDividerOf). Alpha is left to the general path, whose colour is
// round(P / A) of premultiplied sums, unless both axes copy.
#pragma once

#include "src/image.hpp"
#include "src/ops/resize.hpp"

namespace imgpar::cpu {

// Whether the plan is whole blocks this path takes: both axes area (or a
// copy) with whole factors, and no alpha (premultiplied colour takes the
// general path) unless both axes copy. 8-bit plans: fx * fy <= 256 (sums in
// 16-bit lanes); 16-bit plans: any factors (sums in 32-bit lanes up to fx fy
// = 65536, beyond it 64-bit sums and an exact divider).
bool resize_takes_blocks(const ResizePlan& plan, int channels);

// dst: plan.x.count x plan.y.count. Multithreaded. Requires
// resize_takes_blocks.
void resize_blocks(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst);
void resize_blocks(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst);

}  // namespace imgpar::cpu
