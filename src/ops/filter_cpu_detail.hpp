// Private pieces of the CPU filters (src/ops/filter_cpu*.cpp). Each pass
// filters the first `count` channels of a source in the filter's working
// domain (premultiplied colour when the image has alpha, see filter.hpp) and
// writes them, one channel for one, to the first `count` channels of `out`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/image.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::cpu::detail {

struct Domain {
    ConstViewU8 image;
    int count = 0;                  // channels filtered: 0 .. count-1
    Border border;
    std::array<int, kMaxChannels> outside{};  // per channel, read outside the image (constant border)
};

// Rows per parallel chunk so each chunk carries enough work to be worth a thread.
int row_grain(int width, int channels);

void gaussian_pass(const Domain& in, const std::vector<std::int32_t>& taps, ViewU8 out);
void box_pass(const Domain& in, int radius, ViewU8 out);
void custom_pass(const Domain& in, const FilterPlan& plan, ViewU8 out);
void edges_pass(const Domain& in, EdgeOperator op, ViewU8 out);

}  // namespace imgpar::cpu::detail
