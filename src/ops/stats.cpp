#include "src/ops/stats.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "src/error.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/stats_chunks.hpp"
#include "src/parallel.hpp"

namespace imgpar {

// --- Accumulators ----------------------------------------------------------------

void ChannelSums::add(const ChannelSums& o) {
    // An empty part has no extremes (its 256 / -1 are no values: a 16-bit
    // minimum may be above 256); the first part with samples brings its own.
    if (o.count == 0) return;
    if (count == 0) {
        *this = o;
        return;
    }
    count += o.count;
    sum += o.sum;
    sum_squares += o.sum_squares;
    nonzero += o.nonzero;
    // (value, index) ordered lexicographically: the result is the same
    // whatever order the parts come in.
    if (o.min < min || (o.min == min && o.min_index < min_index)) {
        min = o.min;
        min_index = o.min_index;
    }
    if (o.max > max || (o.max == max && o.max_index < max_index)) {
        max = o.max;
        max_index = o.max_index;
    }
}

bool ChannelSums::operator==(const ChannelSums& o) const {
    return count == o.count && sum == o.sum && sum_squares == o.sum_squares && nonzero == o.nonzero && min == o.min &&
           max == o.max && min_index == o.min_index && max_index == o.max_index;
}

ChannelSums ImageStats::combined(const std::vector<int>& list) const {
    ChannelSums all;
    for (int c : list) {
        if (c < 0 || c >= channels)
            throw usage_error("stats", "channel " + std::to_string(c) + " does not exist (this image has " +
                                           std::to_string(channels) + ")");
        all.add(channel[static_cast<std::size_t>(c)]);
    }
    return all;
}

bool ImageStats::operator==(const ImageStats& o) const {
    if (width != o.width || height != o.height || channels != o.channels || masked != o.masked ||
        type != o.type || selected != o.selected)
        return false;
    for (int c = 0; c < channels; ++c)
        if (channel[static_cast<std::size_t>(c)] != o.channel[static_cast<std::size_t>(c)]) return false;
    return true;
}

std::string stats_difference(const ImageStats& e, const ImageStats& a) {
    const auto field = [](const std::string& name, auto x, auto y) {
        return name + " " + std::to_string(x) + " vs " + std::to_string(y);
    };
    if (e.width != a.width || e.height != a.height || e.channels != a.channels)
        return "shape " + std::to_string(e.width) + "x" + std::to_string(e.height) + "x" + std::to_string(e.channels) +
               " vs " + std::to_string(a.width) + "x" + std::to_string(a.height) + "x" + std::to_string(a.channels);
    if (e.masked != a.masked) return field("masked", e.masked, a.masked);
    if (e.selected != a.selected) return field("selected pixels", e.selected, a.selected);
    for (int c = 0; c < e.channels; ++c) {
        const ChannelSums& x = e.channel[static_cast<std::size_t>(c)];
        const ChannelSums& y = a.channel[static_cast<std::size_t>(c)];
        const std::string name = histogram_plane_name(e.channels, c) + ": ";
        if (x.count != y.count) return field(name + "count", x.count, y.count);
        if (x.sum != y.sum) return field(name + "sum", x.sum, y.sum);
        if (x.sum_squares != y.sum_squares) return field(name + "sum_squares", x.sum_squares, y.sum_squares);
        if (x.nonzero != y.nonzero) return field(name + "nonzero", x.nonzero, y.nonzero);
        if (x.min != y.min) return field(name + "min", x.min, y.min);
        if (x.min_index != y.min_index) return field(name + "min_index", x.min_index, y.min_index);
        if (x.max != y.max) return field(name + "max", x.max, y.max);
        if (x.max_index != y.max_index) return field(name + "max_index", x.max_index, y.max_index);
    }
    return {};
}

ChannelMoments stats_moments(const ChannelSums& s) {
    ChannelMoments m;
    if (s.count == 0) return m;
    m.empty = false;
    // count < 2^53 and sum < 2^61: both convert to double exactly only while
    // below 2^53, which every image imgpar reads is (2^28 pixels by default,
    // 2^35 at most on the GPU: sums below 2^45). One correctly rounded
    // division, the same on every machine.
    m.mean = static_cast<double>(s.sum) / static_cast<double>(s.count);
    // count^2 * variance = count * sum_squares - sum^2, exact and >= 0.
    const unsigned __int128 n = s.count;
    const unsigned __int128 num = n * s.sum_squares - static_cast<unsigned __int128>(s.sum) * s.sum;
    m.stddev = static_cast<double>(std::sqrt(static_cast<long double>(num)) / static_cast<long double>(s.count));
    return m;
}

// --- Masks and channel selections ------------------------------------------------

namespace {

template <typename T>
ImageU8 mask_plane_of(ImageView<const T> mask_image) {
    check_image_shape(mask_image.width, mask_image.height, mask_image.channels);
    ImageU8 plane(mask_image.width, mask_image.height, 1);
    for (int y = 0; y < mask_image.height; ++y) {
        const T* p = mask_image.row(y);
        std::uint8_t* out = plane.row(y);
        for (int x = 0; x < mask_image.width; ++x, p += mask_image.channels) {
            T any = 0;
            for (int c = 0; c < mask_image.channels; ++c) any = static_cast<T>(any | p[c]);
            out[x] = any != 0 ? 1 : 0;
        }
    }
    return plane;
}

}  // namespace

ImageU8 mask_plane(ConstViewU8 mask_image) { return mask_plane_of(mask_image); }
ImageU8 mask_plane(ConstViewU16 mask_image) { return mask_plane_of(mask_image); }

namespace {

// The channels of an image as histo names its planes, without luma.
Histogram channel_names(int channels) {
    Histogram h;
    h.channels = channels;
    h.luma = false;
    return h;
}

}  // namespace

std::vector<int> select_stats_channels(int channels, const std::string& spec) {
    return select_histogram_planes(channel_names(channels), spec);
}

void check_stats_channels(const std::string& spec) {
    if (spec.find_first_not_of(" \t") == std::string::npos)
        throw usage_error("--channel", "is empty (give all, or a comma-separated list of channels)");
    std::size_t start = 0;
    while (start <= spec.size()) {
        const std::size_t comma = spec.find(',', start);
        const std::string token = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool known = false;
        for (int c = 1; c <= kMaxChannels && !known; ++c) {
            try {
                select_stats_channels(c, token);
                known = token.find_first_not_of(" \t") != std::string::npos;
            } catch (const Error&) {
            }
        }
        if (!known)
            throw usage_error("--channel", "'" + token + "' is not a channel (allowed: all, or a comma-separated list of "
                                           "gray, red, green, blue, alpha, r, g, b, a, or a channel index 0 to 3)");
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
}

// --- The CPU reference -----------------------------------------------------------

namespace cpu {
namespace {

// Rows are taken in segments of at most this many pixels: each 32-bit lane
// below then adds at most 4096 squares of 255 (2^28), far from overflow, and
// a segment re-read to find the position of a new minimum is still in cache.
constexpr int kSegmentPixels = 1 << 16;

using Sums = stats_detail::ChunkSums;

// One segment's figures in lanes: lane k takes the samples at offsets k,
// k + L, k + 2L, ... of the segment's bytes, L = 16 pixels of C channels, so
// lane k only ever sees channel k % C. The loops over a block of L bytes
// have a fixed count and no dependence between lanes: the compiler turns
// them into SIMD instructions for any channel count, with no de-interleaving.
template <int C>
struct Lanes {
    static constexpr int L = 16 * C;
    // Runs of at most this many blocks keep their sums in 16 bits and their
    // counts in 8 (255 x 255 < 2^16): twice and four times the lanes per
    // instruction of 32-bit ones (measured: 8192^2 gray 8.4 -> 5.2 ms on
    // two cores).
    static constexpr int kRunBlocks = 255;
    std::uint32_t sum[L] = {};
    std::uint32_t squares[L] = {};
    std::uint32_t nonzero[L] = {};
    std::uint8_t lo[L];
    std::uint8_t hi[L];
    Lanes() {
        std::fill(lo, lo + L, std::uint8_t{255});
        std::fill(hi, hi + L, std::uint8_t{0});
    }

    // `count` blocks of L bytes from p; `keep` (kMasked) holds 0xFF for a
    // sample that counts and 0 for one the mask leaves out: a left-out sample
    // adds 0 and cannot be the minimum (255 | ...) or the maximum (0).
    template <bool kMasked>
    void blocks(const std::uint8_t* p, const std::uint8_t* keep, int count) {
        for (int b0 = 0; b0 < count; b0 += kRunBlocks) {
            const int b1 = std::min(count, b0 + kRunBlocks);
            std::uint16_t run_sum[L] = {};
            std::uint8_t run_nonzero[L] = {};
            for (int b = b0; b < b1; ++b) {
                const std::uint8_t* q = p + static_cast<std::size_t>(b) * L;
                for (int k = 0; k < L; ++k) {
                    const std::uint8_t m = kMasked ? keep[static_cast<std::size_t>(b) * L + k] : std::uint8_t{0xFF};
                    const std::uint8_t kept = q[k] & m;
                    run_sum[k] = static_cast<std::uint16_t>(run_sum[k] + kept);
                    run_nonzero[k] = static_cast<std::uint8_t>(run_nonzero[k] + (kept != 0));
                    squares[k] += static_cast<std::uint16_t>(kept * kept);
                    lo[k] = std::min<std::uint8_t>(lo[k], static_cast<std::uint8_t>(q[k] | static_cast<std::uint8_t>(~m)));
                    hi[k] = std::max<std::uint8_t>(hi[k], kept);
                }
            }
            for (int k = 0; k < L; ++k) {
                sum[k] += run_sum[k];
                nonzero[k] += run_nonzero[k];
            }
        }
    }

    // The last samples of a segment (fewer than L), one at a time.
    void take(int k, std::uint8_t v, std::uint8_t keep) {
        const std::uint32_t kept = v & keep;
        sum[k] += kept;
        squares[k] += kept * kept;
        nonzero[k] += kept != 0;
        lo[k] = std::min<std::uint8_t>(lo[k], static_cast<std::uint8_t>(v | static_cast<std::uint8_t>(~keep)));
        hi[k] = std::max<std::uint8_t>(hi[k], static_cast<std::uint8_t>(kept));
    }
};

#if defined(__SSE2__)
// Gray segments with SSE2, which x86-64 always has: one 16-byte load feeds a
// sum of absolute differences against zero (the sum of 16 bytes in two
// 64-bit lanes), a multiply-add of the widened bytes with themselves (the
// squares, summed in pairs: no channels to keep apart in a gray image), a
// byte compare for the zeros and the byte min and max. Measured on 64 MiB:
// 15 GB/s on one core, against 4.8 GB/s for the lanes above, which the
// compiler cannot turn into these instructions.
struct GrayFigures {
    std::uint64_t sum = 0, squares = 0, nonzero = 0;
    std::uint8_t lo = 255, hi = 0;
};

template <bool kMasked>
GrayFigures gray_blocks_sse2(const std::uint8_t* p, const std::uint8_t* keep, int blocks) {
    const __m128i zero = _mm_setzero_si128();
    __m128i sum = zero, zeros = zero, lo = _mm_set1_epi8(-1), hi = zero;
    GrayFigures f;
    // Runs of 255 blocks: the zero counts stay in bytes, and the squares'
    // 32-bit lanes take at most 255 x 2 x 8 x 255^2 < 2^32 before they are
    // added up.
    for (int b0 = 0; b0 < blocks; b0 += 255) {
        const int b1 = std::min(blocks, b0 + 255);
        __m128i run_zeros = zero, squares = zero;
        for (int b = b0; b < b1; ++b) {
            __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + static_cast<std::size_t>(b) * 16));
            __m128i low = v;
            if constexpr (kMasked) {
                const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keep + static_cast<std::size_t>(b) * 16));
                low = _mm_or_si128(v, _mm_xor_si128(m, _mm_set1_epi8(-1)));
                v = _mm_and_si128(v, m);
            }
            sum = _mm_add_epi64(sum, _mm_sad_epu8(v, zero));
            const __m128i a = _mm_unpacklo_epi8(v, zero), c = _mm_unpackhi_epi8(v, zero);
            squares = _mm_add_epi32(squares, _mm_add_epi32(_mm_madd_epi16(a, a), _mm_madd_epi16(c, c)));
            run_zeros = _mm_sub_epi8(run_zeros, _mm_cmpeq_epi8(v, zero));
            lo = _mm_min_epu8(lo, low);
            hi = _mm_max_epu8(hi, v);
        }
        zeros = _mm_add_epi64(zeros, _mm_sad_epu8(run_zeros, zero));
        alignas(16) std::uint32_t q[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(q), squares);
        f.squares += std::uint64_t{q[0]} + q[1] + q[2] + q[3];
    }
    alignas(16) std::uint64_t s[2], z[2];
    alignas(16) std::uint8_t l[16], h[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(s), sum);
    _mm_store_si128(reinterpret_cast<__m128i*>(z), zeros);
    _mm_store_si128(reinterpret_cast<__m128i*>(l), lo);
    _mm_store_si128(reinterpret_cast<__m128i*>(h), hi);
    f.sum = s[0] + s[1];
    // A sample the mask leaves out was counted as a zero: it is no non-zero sample.
    f.nonzero = static_cast<std::uint64_t>(blocks) * 16 - (z[0] + z[1]);
    for (int i = 0; i < 16; ++i) {
        f.lo = std::min(f.lo, l[i]);
        f.hi = std::max(f.hi, h[i]);
    }
    return f;
}
#endif

// The pixel index of the first pixel of p[0..n) with `value` in channel c
// that the mask keeps.
template <int C>
int first_with(const std::uint8_t* p, const std::uint8_t* keep, int n, int c, int value) {
    for (int x = 0; x < n; ++x)
        if (p[x * C + c] == value && (!keep || keep[x * C + c])) return x;
    return -1;  // not reached: the value came from these samples
}

// Adds the segment p[0..n) (n pixels, the first of index first_index) to
// `out`. `keep` is the mask expanded to one byte per sample (0xFF / 0) or
// null; `selected` is how many of the n pixels count.
template <int C>
void add_segment(const std::uint8_t* p, const std::uint8_t* keep, int n, std::uint64_t first_index,
                 std::uint64_t selected, Sums& out) {
    if (selected == 0) return;
    Lanes<C> lanes;
    constexpr int L = Lanes<C>::L;
    const int blocks = n / 16, tail = (n % 16) * C;
    const std::uint8_t* rest = p + static_cast<std::size_t>(blocks) * L;
    int lanes_from = 0;  // blocks before it went through gray_blocks_sse2
#if defined(__SSE2__)
    GrayFigures gray;
    if constexpr (C == 1) {
        gray = keep ? gray_blocks_sse2<true>(p, keep, blocks) : gray_blocks_sse2<false>(p, nullptr, blocks);
        lanes_from = blocks;
    }
#endif
    const std::size_t from = static_cast<std::size_t>(lanes_from) * L;
    if (keep) {
        lanes.template blocks<true>(p + from, keep + from, blocks - lanes_from);
        for (int k = 0; k < tail; ++k) lanes.take(k, rest[k], keep[static_cast<std::size_t>(blocks) * L + k]);
    } else {
        lanes.template blocks<false>(p + from, nullptr, blocks - lanes_from);
        for (int k = 0; k < tail; ++k) lanes.take(k, rest[k], 0xFF);
    }
    for (int c = 0; c < C; ++c) {
        ChannelSums& s = out[static_cast<std::size_t>(c)];
        int lo = 255, hi = 0;
        for (int k = c; k < L; k += C) {
            s.sum += lanes.sum[k];
            s.sum_squares += lanes.squares[k];
            s.nonzero += lanes.nonzero[k];
            lo = std::min<int>(lo, lanes.lo[k]);
            hi = std::max<int>(hi, lanes.hi[k]);
        }
#if defined(__SSE2__)
        if constexpr (C == 1) {
            s.sum += gray.sum;
            s.sum_squares += gray.squares;
            s.nonzero += gray.nonzero;
            lo = std::min<int>(lo, gray.lo);
            hi = std::max<int>(hi, gray.hi);
        }
#endif
        s.count += selected;
        // Segments come in row-major order: only a strictly better value
        // moves the position, which is then the first pixel with it.
        if (lo < s.min) {
            s.min = lo;
            s.min_index = first_index + static_cast<std::uint64_t>(first_with<C>(p, keep, n, c, lo));
        }
        if (hi > s.max) {
            s.max = hi;
            s.max_index = first_index + static_cast<std::uint64_t>(first_with<C>(p, keep, n, c, hi));
        }
    }
}

// Rows [y0, y1) into `out`.
template <int C>
void add_rows(ConstViewU8 image, const ConstViewU8* mask, int y0, int y1, Sums& out) {
    std::vector<std::uint8_t> keep;
    if (mask) keep.resize(static_cast<std::size_t>(std::min(image.width, kSegmentPixels)) * C);
    for (int y = y0; y < y1; ++y) {
        const std::uint8_t* row = image.row(y);
        for (int x0 = 0; x0 < image.width; x0 += kSegmentPixels) {
            const int n = std::min(kSegmentPixels, image.width - x0);
            const std::uint64_t first = static_cast<std::uint64_t>(y) * static_cast<std::uint64_t>(image.width) +
                                        static_cast<std::uint64_t>(x0);
            const std::uint8_t* p = row + static_cast<std::size_t>(x0) * C;
            if (!mask) {
                add_segment<C>(p, nullptr, n, first, static_cast<std::uint64_t>(n), out);
                continue;
            }
            const std::uint8_t* m = mask->row(y) + x0;
            // Two loops the compiler vectorizes, where one that also counted
            // was not (measured: a masked 8192^2 gray image 25 -> 19 ms).
            std::uint32_t selected = 0;
            for (int x = 0; x < n; ++x) selected += m[x] != 0;
            for (int x = 0; x < n; ++x)
                for (int c = 0; c < C; ++c) keep[static_cast<std::size_t>(x) * C + c] = m[x] != 0 ? 0xFF : 0;
            add_segment<C>(p, keep.data(), n, first, selected, out);
        }
    }
}

}  // namespace

ImageStats stats(ConstViewU8 image, const ConstViewU8* mask) {
    check_image_shape(image.width, image.height, image.channels);
    stats_detail::check_mask(image.width, image.height, mask);
    return stats_detail::sum_row_chunks(image, mask, [&](auto c, int y0, int y1, Sums& local) {
        add_rows<decltype(c)::value>(image, mask, y0, y1, local);
    });
}

std::string stats_kernel_name() {
    return "row chunks summed in SIMD lanes, combined exactly; " + std::to_string(cpu_thread_count()) + " thread" +
           (cpu_thread_count() == 1 ? "" : "s");
}

}  // namespace cpu
}  // namespace imgpar
