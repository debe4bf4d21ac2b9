// Private pieces of the CPU filters (src/ops/filter_cpu*.cpp). Each pass
// filters the first `count` channels of a source in the filter's working
// domain and hands each output row, in that domain, to a sink that turns it
// into output bytes (filter_cpu.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/image.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::cpu::detail {

// The two working domains (see filter.hpp). Narrow: the 8-bit samples of
// images without alpha. Wide: the lanes of src/ops/wide_math.hpp (P = c * a
// per colour, then A = 255 * a where the filter filters alpha), computed from
// the pixel's bytes as they are read, or luma601 of the P lanes (gray edges).
// Both fit 16 bits, so copies (padded rows, Gaussian intermediates) stay as
// small as --max-memory's peaks say. Sum: the box's and custom kernels'
// window sums (the Wide ones need 64 bits).
struct Narrow {
    using Sample = std::uint8_t;
    using Mid = std::uint16_t;  // Gaussian H: 0..2040
    using Sum = int;
};
struct Wide {
    using Sample = std::uint16_t;
    using Mid = std::uint16_t;  // Gaussian H: 0..65025
    using Sum = std::int64_t;
};

template <typename D>
struct Domain {
    ConstViewU8 image;
    int count = 0;                  // channels (lanes) filtered: 0 .. count-1
    Border border;
    std::array<int, kMaxWideLanes> outside{};  // per channel, read outside the image (constant border)
    bool luma = false;              // Wide: one lane, luma601 of the P lanes
};

// Channel (lane) c of the pixel at `px`.
inline int sample_of(const Domain<Narrow>&, const std::uint8_t* px, int c) { return px[c]; }
inline int sample_of(const Domain<Wide>& d, const std::uint8_t* px, int c) {
    const int colours = d.image.channels - 1, a = px[colours];
    if (d.luma) return luma601(px[0] * a, px[1] * a, px[2] * a);
    return wide_lane(c, colours, px[c < colours ? c : 0], a);
}

// Receives each output row's values in the domain (x * count + c), once.
using RowSink = std::function<void(int y, const int* values)>;

// Custom kernels: how every lane's sum becomes a value (custom_value): the
// plan's offset and 255 in the narrow domain, both scaled to the wide one's
// lanes there (wide_offset, kWideTop).
struct CustomRounding {
    double denominator = 1.0;
    double offset = 0.0;
    int top = 255;
};

// Rows per parallel chunk so each chunk carries enough work to be worth a thread.
int row_grain(int width, int channels);

// The Gaussian of images with alpha, each output row's lanes to `out`.
void gaussian_pass(const Domain<Wide>& in, const std::vector<std::int32_t>& taps, const RowSink& out);
// The 8-bit Gaussian written straight into the output bytes (a plain blur,
// or unsharp: unsharp_output(src, blur)), without a RowSink's 32-bit values.
struct NarrowBytes {
    ViewU8 dst;
    ConstViewU8 src;  // unsharp's x
    bool unsharp = false;
    int amount_q8 = 0, threshold_level = 0;
};
void gaussian_pass_bytes(const Domain<Narrow>& in, const std::vector<std::int32_t>& taps, const NarrowBytes& bytes);
template <typename D>
void box_pass(const Domain<D>& in, int radius, const RowSink& out);
template <typename D>
void custom_pass(const Domain<D>& in, const FilterPlan& plan, const CustomRounding& rounding, const RowSink& out);
template <typename D>
void edges_pass(const Domain<D>& in, EdgeOperator op, const RowSink& out);

}  // namespace imgpar::cpu::detail
