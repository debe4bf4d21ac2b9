// Private pieces of the 16-bit CPU filters (src/ops/filter_cpu_u16*.cpp):
// the two working domains of src/ops/filter_u16_math.hpp and how a row of a
// source becomes a row of lanes in them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/image.hpp"
#include "src/ops/border.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_u16_math.hpp"

namespace imgpar::cpu::u16 {

// Deep: images without alpha, lanes are the samples (or their luma). H of
// the Gaussian fits 16 bits and its sums uint32. DeepWide: images with
// alpha, lanes P = c * a and A = 65535 * a in uint32, sums in uint64.
struct Deep {
    using Lane = std::uint16_t;
    using Acc = std::uint32_t;
    using Signed = std::int32_t;  // edge gradients
    static std::uint32_t round(Acc s) { return gaussian_round16(s); }
};
struct DeepWide {
    using Lane = std::uint32_t;
    using Acc = std::uint64_t;
    using Signed = std::int64_t;
    static std::uint32_t round(Acc s) { return gaussian_round_wide16(s); }
};

using LaneKind = LaneKind16;

template <typename D>
struct Source {
    using Lane = typename D::Lane;
    ConstViewU16 image;
    LaneKind kind = LaneKind::Samples;
    int count = 0;  // lanes per pixel
    BorderMode mode = BorderMode::Replicate;
    std::array<Lane, 4> outside{};  // lanes of a constant-border pixel

    // The lanes of the pixel at px (image.channels samples).
    void lanes(const std::uint16_t* px, Lane* out) const { lanes_of(px, image.channels, out); }
    void lanes_of(const std::uint16_t* px, int channels, Lane* out) const {
        for (int l = 0; l < count; ++l) out[l] = static_cast<Lane>(lane16(kind, px, channels, l));
    }
    // Sets `outside` from the border's V: a pixel whose every channel is 257 V.
    void set_outside(int v8) {
        const std::uint16_t v = static_cast<std::uint16_t>(level16(v8));
        const std::uint16_t px[4] = {v, v, v, v};
        lanes_of(px, image.channels, outside.data());
    }
    // Row y (in the image) as lanes, x * count + l.
    void row(int y, Lane* out) const {
        const std::uint16_t* s = image.row(y);
        const int C = image.channels;
        if (kind == LaneKind::Samples) {  // the samples themselves: a copy
            const std::size_t n = static_cast<std::size_t>(image.width) * C;
            for (std::size_t t = 0; t < n; ++t) out[t] = static_cast<Lane>(s[t]);
            return;
        }
        for (int x = 0; x < image.width; ++x)
            lanes(s + static_cast<std::size_t>(x) * C, out + static_cast<std::size_t>(x) * count);
    }
    // Row y (any integer; the border rule names it) extended by `left` and
    // `right` pixels by the border rule: out[(x + left) * count + l].
    void padded_row(int y, int left, int right, std::vector<Lane>& scratch, Lane* out) const {
        const int w = image.width, K = count;
        const int m = border_index(y, image.height, mode);
        const std::size_t n = static_cast<std::size_t>(w + left + right) * K;
        if (m < 0) {
            for (std::size_t t = 0; t < n; ++t) out[t] = outside[t % static_cast<std::size_t>(K)];
            return;
        }
        scratch.resize(static_cast<std::size_t>(w) * K);
        row(m, scratch.data());
        for (int px = 0; px < w + left + right; ++px) {
            const int mx = border_index(px - left, w, mode);
            Lane* o = out + static_cast<std::size_t>(px) * K;
            for (int l = 0; l < K; ++l)
                o[l] = mx < 0 ? outside[static_cast<std::size_t>(l)] : scratch[static_cast<std::size_t>(mx) * K + l];
        }
    }
};

// Receives each output row's lane values (x * count + l), once per row.
using RowSink16 = std::function<void(int y, const std::uint64_t* values)>;

template <typename D>
void gaussian16(const Source<D>& in, const std::vector<std::int32_t>& taps, const RowSink16& out);
template <typename D>
void box16(const Source<D>& in, int radius, const RowSink16& out);
// Custom: offset on the lanes' scale, top the lanes' full scale.
template <typename D>
void custom16(const Source<D>& in, const FilterPlan& plan, double offset, std::uint64_t top, const RowSink16& out);
template <typename D>
void edges16(const Source<D>& in, EdgeOperator op, const RowSink16& out);

}  // namespace imgpar::cpu::u16
