// The 16-bit statistics (src/ops/stats.hpp, 16-BIT CONTRACT): the same
// accumulators as 8 bits, of samples 0..65535.
#include <algorithm>
#include <mutex>
#include <vector>

#include "src/error.hpp"
#include "src/ops/stats.hpp"
#include "src/ops/stats_chunks.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace cpu {
namespace {

// Rows in segments of at most this many pixels: a segment re-read to find
// the position of a new extreme is still in cache.
constexpr int kSegmentPixels16 = 1 << 14;

using Sums16 = stats_detail::ChunkSums;

// The first pixel of p[0..n) that the mask keeps with `value` in channel c.
template <int C>
int first_with16(const std::uint16_t* p, const std::uint8_t* m, int n, int c, int value) {
    for (int x = 0; x < n; ++x)
        if (p[x * C + c] == value && (!m || m[x])) return x;
    return -1;  // not reached: the value came from these samples
}

// A segment of n pixels, the first of index first_index. Per channel: the
// sum in 64 bits, the squares (each below 2^32) in 64 bits; no lane
// overflows (a segment holds 2^14 samples of a channel).
template <int C, bool kMasked>
void add_segment16(const std::uint16_t* p, const std::uint8_t* m, int n, std::uint64_t first_index, Sums16& out) {
    std::uint64_t sum[C] = {}, squares[C] = {}, nonzero[C] = {};
    int lo[C], hi[C];
    std::uint64_t selected = 0;
    for (int c = 0; c < C; ++c) {
        lo[c] = 65535;
        hi[c] = 0;
    }
    for (int x = 0; x < n; ++x) {
        if (kMasked && m[x] == 0) continue;
        ++selected;
        for (int c = 0; c < C; ++c) {
            const std::uint32_t v = p[x * C + c];
            sum[c] += v;
            squares[c] += v * v;
            nonzero[c] += v != 0;
            lo[c] = std::min<int>(lo[c], static_cast<int>(v));
            hi[c] = std::max<int>(hi[c], static_cast<int>(v));
        }
    }
    if (selected == 0) return;
    for (int c = 0; c < C; ++c) {
        ChannelSums& s = out[static_cast<std::size_t>(c)];
        const bool first = s.count == 0;
        s.count += selected;
        s.sum += sum[c];
        s.sum_squares += squares[c];
        s.nonzero += nonzero[c];
        // Segments come in row-major order: only a strictly better value
        // (or the first) moves the position.
        if (first || lo[c] < s.min) {
            s.min = lo[c];
            s.min_index = first_index + static_cast<std::uint64_t>(first_with16<C>(p, m, n, c, lo[c]));
        }
        if (first || hi[c] > s.max) {
            s.max = hi[c];
            s.max_index = first_index + static_cast<std::uint64_t>(first_with16<C>(p, m, n, c, hi[c]));
        }
    }
}

template <int C>
void add_rows16(ConstViewU16 image, const ConstViewU8* mask, int y0, int y1, Sums16& out) {
    for (int y = y0; y < y1; ++y) {
        for (int x0 = 0; x0 < image.width; x0 += kSegmentPixels16) {
            const int n = std::min(kSegmentPixels16, image.width - x0);
            const std::uint64_t first = static_cast<std::uint64_t>(y) * static_cast<std::uint64_t>(image.width) +
                                        static_cast<std::uint64_t>(x0);
            const std::uint16_t* p = image.row(y) + static_cast<std::size_t>(x0) * C;
            if (mask)
                add_segment16<C, true>(p, mask->row(y) + x0, n, first, out);
            else
                add_segment16<C, false>(p, nullptr, n, first, out);
        }
    }
}

}  // namespace

ImageStats stats(ConstViewU16 image, const ConstViewU8* mask) {
    check_image_shape(image.width, image.height, image.channels);
    stats_detail::check_mask(image.width, image.height, mask);
    if (static_cast<std::uint64_t>(image.width) * static_cast<std::uint64_t>(image.height) > (std::uint64_t{1} << 32))
        throw input_error("stats", "a 16-bit image of more than 2^32 pixels: its sums of squares would pass 64 bits");
    ImageStats st = stats_detail::sum_row_chunks(image, mask, [&](auto c, int y0, int y1, Sums16& local) {
        add_rows16<decltype(c)::value>(image, mask, y0, y1, local);
    });
    st.type = SampleType::U16;
    return st;
}

}  // namespace cpu
}  // namespace imgpar
