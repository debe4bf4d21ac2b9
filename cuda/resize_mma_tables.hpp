// The tensor cores' weight fragments of a resize plan, which the device
// tables carry after the plan's own (cuda/resize_first_pass_mma.cuh,
// cuda/resize_second_pass_mma.cuh): each weight's signed high and unsigned
// low byte in the order of the lanes' m16n8k32 fragments, so a lane loads
// its A (down the columns) or B (along the rows) words of a step directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/resize.hpp"
#include "src/ops/resize.hpp"

namespace imgpar::cuda {

// K of each pass's groups (the smallest multiple of 32 that holds the
// widest group's window: 16 intermediate rows down the columns, 8 pixels
// along the rows; ResizeTilePolicy's mma_max_k, mma_max_kx at most), 0
// where the tensor cores do not take that pass (16-bit plans, area, wider
// windows); how many words each pass's fragments take; the words
// themselves, appended, the rows' (first pass) then the columns'.
ResizeMmaShape resize_mma_shape(const ResizePlan& plan);
std::size_t resize_mma_words(const ResizePlan& plan, const ResizeMmaShape& s, bool rows);
void append_resize_mma_fragments(const ResizePlan& plan, const ResizeMmaShape& s, std::vector<std::int32_t>& out);

}  // namespace imgpar::cuda
