// What the 8- and 16-bit CPU filters (filter_cpu.cpp, filter_cpu_u16.cpp)
// share at their entry: the plan and shape checks, and a copy of an input
// that shares memory with its output (the passes read the input after they
// have written output rows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/error.hpp"
#include "src/image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::cpu::filter_entry {

template <typename T>
void check_shapes(const FilterPlan& plan, ImageView<const T> src, ImageView<T> dst) {
    check_image_shape(src.width, src.height, src.channels);
    if (!src.data || src.stride < src.row_bytes()) throw usage_error("filter", "the source image view is invalid");
    const int want = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != want || !dst.data ||
        dst.stride < dst.row_bytes())
        throw usage_error("filter", std::string("the output must be ") + std::to_string(src.width) + "x" +
                                        std::to_string(src.height) + " with " + std::to_string(want) +
                                        " channel(s) for a " + channel_layout_name(src.channels) + " input; got " +
                                        std::to_string(dst.width) + "x" + std::to_string(dst.height) + " with " +
                                        std::to_string(dst.channels));
}

template <typename T>
bool overlaps(ImageView<const T> a, ImageView<const T> b) {
    const auto lo = [](ImageView<const T> v) { return reinterpret_cast<std::uintptr_t>(v.data); };
    const auto hi = [](ImageView<const T> v) {
        return reinterpret_cast<std::uintptr_t>(v.data) + (static_cast<std::size_t>(v.height) - 1) * v.stride +
               v.row_bytes();
    };
    return lo(a) < hi(b) && lo(b) < hi(a);
}

// Checks the plan and the shapes, then run(src, dst), src a copy where it
// shares memory with dst.
template <typename T, typename Run>
void apply_checked(const FilterPlan& plan, ImageView<const T> src, ImageView<T> dst, const Run& run) {
    check_plan(plan);
    check_shapes<T>(plan, src, dst);
    Image<T> src_copy;
    if (overlaps<T>(src, dst)) {
        src_copy = Image<T>::copy_of(src);
        src = src_copy.view();
    }
    run(src, dst);
}

}  // namespace imgpar::cpu::filter_entry
