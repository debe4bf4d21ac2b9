// The statistics kernel (cuda/stats.hpp says the plan): a thread's walk over
// its tiles, the per-tile arithmetic on 32-bit words, and the block and grid
// combine. Included by cuda/stats.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/stats.hpp"

namespace imgpar::cuda::stats_detail {

constexpr unsigned long long kNoKey = ~0ull;
constexpr int kIndexBits = 56;  // pixel indices below 2^56 (the walk's tiles fit 31 bits)
constexpr int kFields = StatsPolicy::fields;

// Pixels per tile: 64 bytes at most, so gray and gray+alpha threads have as
// many bytes in flight as colour ones (four 16-byte loads).
template <int C>
constexpr int tile_pixels() {
    return C <= 2 ? 64 / C : 16;
}
// The most tiles a thread walks (the launch sizes the grid so): its sums
// stay in 32-bit registers, 512 tiles x 64 samples x 255^2 < 2^32, and
// 64-bit ones appear only when the block combines. (With the positions
// found before those exist, and only the image's channels combined, gray
// needs 40 registers a thread instead of 80: twice the resident warps.)
constexpr unsigned kMaxTilesPerThread = 512;

struct Args {
    const std::uint8_t* data;
    std::size_t pitch;
    const std::uint8_t* mask;  // null: every pixel counts
    std::size_t mask_pitch;
    int width;
    unsigned tiles_per_row;
    unsigned full_tiles_per_row;  // tiles wholly inside a row
    unsigned total;               // tiles_per_row * height, below 2^31
    unsigned long long* accum;   // kFields running totals, identities between launches
    unsigned long long* result;
    unsigned* counter;
};

// --- Word arithmetic ------------------------------------------------------------
// Byte b of word i of a tile is sample 4i + b, channel (4i + b) % C. Words
// whose bytes have the same channels form a class: one for 1, 2 and 4
// channels, three (i % 3) for RGB.

template <int C>
constexpr int word_classes() {
    return C == 3 ? 3 : 1;
}

// The dp4a weights that pick channel c's bytes of a word of class k (1 per
// byte of c, 0 elsewhere).
__host__ __device__ constexpr unsigned channel_weights(int C, int k, int c) {
    unsigned w = 0;
    for (int b = 0; b < 4; ++b)
        if ((4 * k + b) % C == c) w |= 1u << (8 * b);
    return w;
}

// 0x80 in each byte of x that is not zero, 0 elsewhere: the low seven bits
// plus 0x7F carry into bit 7 exactly when any is set, and never past it.
__device__ __forceinline__ unsigned nonzero_bytes(unsigned x) {
    return (((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x) & 0x80808080u;
}

// __byte_perm selector that spreads a tile's mask (one 0x00/0xFF byte per
// pixel, words kb[j]) over word i of the samples: byte b takes pixel
// (4i + b) / C, from kb[first] (selector 0-3) or kb[first + 1] (4-7), first
// being the word of the word's first pixel.
__host__ __device__ constexpr unsigned mask_selector(int C, int i) {
    const int first = (4 * i / C) / 4;
    unsigned s = 0;
    for (int b = 0; b < 4; ++b) {
        const int pixel = (4 * i + b) / C;
        s |= static_cast<unsigned>((pixel / 4 - first) * 4 + pixel % 4) << (4 * b);
    }
    return s;
}

// --- A thread's totals --------------------------------------------------------------

template <int C>
struct Running {
    unsigned sum[C], squares[C], nonzero[C];  // at most kMaxTilesPerThread tiles' worth
    unsigned selected;
    int min[C], max[C];                 // the best so far: 256 / -1 until a sample counts
    unsigned min_tile[C], max_tile[C];  // the first of this thread's tiles that has it

    __device__ void init() {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            sum[c] = squares[c] = nonzero[c] = 0;
            min[c] = 256;
            max[c] = -1;
            min_tile[c] = max_tile[c] = 0;
        }
        selected = 0;
    }
    // A tile's extremes of channel c. Tiles come in increasing order: only a
    // strictly better value moves the tile.
    __device__ __forceinline__ void extremes(int c, int lo, int hi, unsigned tile) {
        if (lo < min[c]) {
            min[c] = lo;
            min_tile[c] = tile;
        }
        if (hi > max[c]) {
            max[c] = hi;
            max_tile[c] = tile;
        }
    }
};

// N words (a multiple of 4) from 16-byte loads at p (16-byte aligned).
template <int N>
__device__ __forceinline__ void load_words(const std::uint8_t* p, unsigned (&w)[N]) {
    static_assert(N % 4 == 0, "whole 16-byte loads");
#pragma unroll
    for (int v = 0; v < N / 4; ++v) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(p) + v);
        w[4 * v] = q.x;
        w[4 * v + 1] = q.y;
        w[4 * v + 2] = q.z;
        w[4 * v + 3] = q.w;
    }
}

// 0xFF in each byte of sample word i whose pixel counts, from the mask's
// per-pixel bytes kb (0xFF or 0) of a tile of P pixels of C channels.
template <int C, int P>
__device__ __forceinline__ unsigned sample_keep(const unsigned (&kb)[P / 4], int i) {
    const int first = (4 * i / C) / 4;
    const int second = first + 1 < P / 4 ? first + 1 : first;
    return __byte_perm(kb[first], kb[second], mask_selector(C, i));
}

// A whole tile from 16-byte loads (the rows and the mask 16-byte aligned).
template <int C, bool kMasked>
__device__ __forceinline__ void add_tile_vector(const std::uint8_t* p, const std::uint8_t* m, unsigned tile,
                                                Running<C>& r) {
    constexpr int P = tile_pixels<C>();
    constexpr int W = P * C / 4;  // words
    constexpr int K = word_classes<C>();
    unsigned w[W];
    load_words(p, w);
    unsigned keep[W];  // 0xFF per sample that counts
    int selected = P;
    if constexpr (kMasked) {
        unsigned kb[P / 4];
        load_words(m, kb);
        selected = 0;
#pragma unroll
        for (int j = 0; j < P / 4; ++j) {
            const unsigned flags = nonzero_bytes(kb[j]);
            selected += __popc(flags);
            kb[j] = (flags >> 7) * 0xFFu;
        }
#pragma unroll
        for (int i = 0; i < W; ++i) {
            keep[i] = sample_keep<C, P>(kb, i);
        }
        r.selected += static_cast<unsigned>(selected);
    }
    // Sums, squares and non-zero counts of the samples that count.
    unsigned nz[K];
    unsigned lo_even[K], lo_odd[K], hi_even[K], hi_odd[K];  // 16-bit pairs: bytes 0, 2 and 1, 3 of the words
#pragma unroll
    for (int k = 0; k < K; ++k) {
        nz[k] = 0;
        lo_even[k] = lo_odd[k] = 0x00FF00FFu;
        hi_even[k] = hi_odd[k] = 0;
    }
#pragma unroll
    for (int i = 0; i < W; ++i) {
        const int k = i % K;
        const unsigned kept = kMasked ? (w[i] & keep[i]) : w[i];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const unsigned weights = channel_weights(C, k, c);
            if (weights == 0) continue;
            r.sum[c] = __dp4a(kept, weights, r.sum[c]);
            const unsigned own = weights == 0x01010101u ? kept : kept & (weights * 0xFFu);
            r.squares[c] = __dp4a(own, kept, r.squares[c]);
        }
        nz[k] += nonzero_bytes(kept) >> 7;
        // A left-out sample is 255 for the minimum and 0 for the maximum.
        const unsigned low = kMasked ? (w[i] | ~keep[i]) : w[i];
        lo_even[k] = __vminu2(lo_even[k], low & 0x00FF00FFu);
        lo_odd[k] = __vminu2(lo_odd[k], (low >> 8) & 0x00FF00FFu);
        hi_even[k] = __vmaxu2(hi_even[k], kept & 0x00FF00FFu);
        hi_odd[k] = __vmaxu2(hi_odd[k], (kept >> 8) & 0x00FF00FFu);
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
        int lo = 255, hi = 0;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const unsigned weights = channel_weights(C, k, c);
            if (weights != 0) r.nonzero[c] = __dp4a(nz[k], weights, r.nonzero[c]);
            // Byte b of class k is half b / 2 of the even (b = 0, 2) or odd (1, 3) pair.
#pragma unroll
            for (int b = 0; b < 4; ++b) {
                if ((4 * k + b) % C != c) continue;
                const unsigned lo_pair = b % 2 ? lo_odd[k] : lo_even[k];
                const unsigned hi_pair = b % 2 ? hi_odd[k] : hi_even[k];
                lo = min(lo, static_cast<int>(b < 2 ? lo_pair & 0xFFFFu : lo_pair >> 16));
                hi = max(hi, static_cast<int>(b < 2 ? hi_pair & 0xFFFFu : hi_pair >> 16));
            }
        }
        if (!kMasked || selected > 0) r.extremes(c, lo, hi, tile);
    }
}

// The first n pixels of a tile, one byte at a time (the end of a row, or an
// image whose rows are not 16-byte aligned).
template <int C, bool kMasked>
__device__ __forceinline__ void add_tile_bytes(const std::uint8_t* p, const std::uint8_t* m, int n, unsigned tile,
                                               Running<C>& r) {
    int lo[C], hi[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        lo[c] = 255;
        hi[c] = 0;
    }
    int selected = 0;
    for (int x = 0; x < n; ++x) {
        if (kMasked && m[x] == 0) continue;
        ++selected;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const unsigned v = p[x * C + c];
            r.sum[c] += v;
            r.squares[c] += v * v;
            r.nonzero[c] += v != 0;
            lo[c] = min(lo[c], static_cast<int>(v));
            hi[c] = max(hi[c], static_cast<int>(v));
        }
    }
    if (kMasked) r.selected += static_cast<unsigned>(selected);
    if (selected == 0) return;
#pragma unroll
    for (int c = 0; c < C; ++c) r.extremes(c, lo[c], hi[c], tile);
}

// --- Combining --------------------------------------------------------------------

// Totals as the block combines them: sums add, keys take the minimum (tile
// keys in the block's combine, pixel keys after). Only the image's C channels
// travel through the shuffles; store() writes all kFields values, unused
// channels as identities.
template <int C>
struct Totals {
    unsigned long long sum[C], squares[C], nonzero[C], min_key[C], max_key[C];
    unsigned long long selected;

    __device__ void clear() {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            sum[c] = squares[c] = nonzero[c] = 0;
            min_key[c] = max_key[c] = kNoKey;
        }
        selected = 0;
    }
    __device__ void store(unsigned long long* out) const {
#pragma unroll
        for (int c = 0; c < kMaxChannels; ++c) {
            const bool used = c < C;
            const int k = used ? c : 0;
            out[0 * kMaxChannels + c] = used ? sum[k] : 0;
            out[1 * kMaxChannels + c] = used ? squares[k] : 0;
            out[2 * kMaxChannels + c] = used ? nonzero[k] : 0;
            out[3 * kMaxChannels + c] = used ? min_key[k] : kNoKey;
            out[4 * kMaxChannels + c] = used ? max_key[k] : kNoKey;
        }
        out[5 * kMaxChannels] = selected;
    }
    __device__ void warp_combine() {
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                sum[c] += __shfl_xor_sync(0xFFFFFFFFu, sum[c], offset);
                squares[c] += __shfl_xor_sync(0xFFFFFFFFu, squares[c], offset);
                nonzero[c] += __shfl_xor_sync(0xFFFFFFFFu, nonzero[c], offset);
                min_key[c] = ::min(min_key[c], __shfl_xor_sync(0xFFFFFFFFu, min_key[c], offset));
                max_key[c] = ::min(max_key[c], __shfl_xor_sync(0xFFFFFFFFu, max_key[c], offset));
            }
            selected += __shfl_xor_sync(0xFFFFFFFFu, selected, offset);
        }
    }
};

// Fields (Totals::store's layout) the grid adds up: the image's channels'
// sums, squares, non-zero counts and keys, and the selected count.
__device__ __forceinline__ bool field_used(int f, int C) { return f == 5 * kMaxChannels || f % kMaxChannels < C; }
__device__ __forceinline__ bool is_key_field(int f) { return f >= 3 * kMaxChannels && f < 5 * kMaxChannels; }

// The block's totals, in thread 0 (every thread of the block calls it).
template <int C>
__device__ void block_combine(Totals<C>& t) {
    __shared__ Totals<C> warps[StatsPolicy::threads / 32];
    t.warp_combine();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warps[warp] = t;
    __syncthreads();
    if (warp == 0) {
        if (lane < StatsPolicy::threads / 32)
            t = warps[lane];
        else
            t.clear();
        t.warp_combine();
    }
    __syncthreads();  // `warps` may be used again
}

// The first pixel of a whole tile (16-byte loads) that counts and has
// `value` in channel c, or -1: the tile's words again, searched in registers
// (a byte loop would wait for each load in turn: measured, that search
// took as long as the image's walk on 8192^2 gray).
template <int C, bool kMasked>
__device__ __forceinline__ int first_in_tile(const std::uint8_t* p, const std::uint8_t* m, int c, int value) {
    constexpr int P = tile_pixels<C>();
    constexpr int W = P * C / 4;
    constexpr int K = word_classes<C>();
    unsigned w[W];
    load_words(p, w);
    unsigned kb[P / 4];
    if constexpr (kMasked) {
        load_words(m, kb);
#pragma unroll
        for (int j = 0; j < P / 4; ++j) kb[j] = (nonzero_bytes(kb[j]) >> 7) * 0xFFu;
    }
    const unsigned pattern = static_cast<unsigned>(value) * 0x01010101u;
    int found = -1;
#pragma unroll
    for (int i = W - 1; i >= 0; --i) {  // backwards: the last match written is the first
        unsigned equal = ~nonzero_bytes(w[i] ^ pattern) & 0x80808080u & (channel_weights(C, i % K, c) * 0x80u);
        if constexpr (kMasked) {
            equal &= sample_keep<C, P>(kb, i);
        }
        if (equal) found = (4 * i + (__ffs(static_cast<int>(equal)) - 1) / 8) / C;
    }
    return found;
}

// The key of the first pixel of tile `tile` that counts and has `value` in
// channel c (kNoKey for no value): the tile is read again, once per thread.
template <int C, bool kMasked, bool kVector>
__device__ unsigned long long first_key(const Args& a, unsigned tile, int c, int value, bool maximum) {
    if (value < 0 || value > 255) return kNoKey;
    const unsigned y = tile / a.tiles_per_row;
    const unsigned tx = tile - y * a.tiles_per_row;
    const int x0 = static_cast<int>(tx) * tile_pixels<C>();
    const int n = min(tile_pixels<C>(), a.width - x0);
    const std::uint8_t* p = a.data + y * a.pitch + static_cast<std::size_t>(x0) * C;
    const std::uint8_t* m = kMasked ? a.mask + y * a.mask_pitch + x0 : nullptr;
    int x = -1;
    if (kVector && tx < a.full_tiles_per_row) {
        x = first_in_tile<C, kMasked>(p, m, c, value);
    } else {
        for (int i = 0; i < n && x < 0; ++i)
            if ((!kMasked || m[i] != 0) && p[i * C + c] == value) x = i;
    }
    if (x < 0) return kNoKey;  // not reached: the value came from this tile
    const unsigned long long index =
        static_cast<unsigned long long>(y) * static_cast<unsigned>(a.width) + static_cast<unsigned>(x0 + x);
    const unsigned long long v = static_cast<unsigned>(maximum ? 255 - value : value);
    return (v << kIndexBits) | index;
}

// A tile's key for the block's combine: v (0-255, 256 for no sample) above
// the tile's number (below 2^31).
__device__ __forceinline__ unsigned long long tile_key(int v, unsigned tile) {
    return static_cast<unsigned long long>(static_cast<unsigned>(v)) << 32 | tile;
}

// The kernel: every thread walks its tiles, then the block combines them and
// adds them into the accumulators, and the last block to finish hands the
// totals over.
template <int C, bool kMasked, bool kVector>
__global__ void __launch_bounds__(StatsPolicy::threads, StatsPolicy::min_blocks_per_sm) stats_kernel(Args a) {
    constexpr int P = tile_pixels<C>();
    Running<C> r;
    r.init();
    const unsigned stride = gridDim.x * blockDim.x;
    unsigned tile = blockIdx.x * blockDim.x + threadIdx.x;
    // The tile's row and column, stepped without a division per tile.
    unsigned y = tile / a.tiles_per_row, tx = tile - y * a.tiles_per_row;
    const unsigned step_y = stride / a.tiles_per_row, step_x = stride - step_y * a.tiles_per_row;
    while (tile < a.total) {
        const int x0 = static_cast<int>(tx) * P;
        const std::uint8_t* p = a.data + y * a.pitch + static_cast<std::size_t>(x0) * C;
        const std::uint8_t* m = kMasked ? a.mask + y * a.mask_pitch + x0 : nullptr;
        if (kVector && tx < a.full_tiles_per_row)
            add_tile_vector<C, kMasked>(p, m, tile, r);
        else
            add_tile_bytes<C, kMasked>(p, m, min(P, a.width - x0), tile, r);
        tile += stride;
        tx += step_x;
        y += step_y;
        if (tx >= a.tiles_per_row) {
            tx -= a.tiles_per_row;
            ++y;
        }
    }

    // Extremes travel as tile keys (value << 32 | tile; 255 - value for
    // maxima) through the block's combine: the smallest is the block's
    // extreme in its first tile, since each thread's tile is its own first
    // with its extreme and tiles are numbered in row-major order.
    Totals<C> t;
#pragma unroll
    for (int c = 0; c < C; ++c) {
        t.sum[c] = r.sum[c];
        t.squares[c] = r.squares[c];
        t.nonzero[c] = r.nonzero[c];
        t.min_key[c] = tile_key(r.min[c], r.min_tile[c]);
        t.max_key[c] = tile_key(255 - r.max[c], r.max_tile[c]);
    }
    t.selected = r.selected;
    block_combine(t);
    // Then one thread per channel and extreme reads the winning tile again
    // for the first pixel with it: 2C tiles a block (per thread, as before,
    // these reads came to 0.5-0.8x the image's bytes).
    __shared__ unsigned long long keys[2 * C];
    if (threadIdx.x == 0)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            keys[2 * c] = t.min_key[c];
            keys[2 * c + 1] = t.max_key[c];
        }
    __syncthreads();
    if (threadIdx.x < 2 * C) {
        const int c = static_cast<int>(threadIdx.x) / 2;
        const bool maximum = threadIdx.x % 2 != 0;
        const unsigned long long key = keys[threadIdx.x];
        const int v = static_cast<int>(key >> 32);  // 256: no sample counted
        keys[threadIdx.x] = first_key<C, kMasked, kVector>(a, static_cast<unsigned>(key), c, maximum ? 255 - v : v, maximum);
    }
    __syncthreads();
    if (threadIdx.x == 0)
#pragma unroll
        for (int c = 0; c < C; ++c) {
            t.min_key[c] = keys[2 * c];
            t.max_key[c] = keys[2 * c + 1];
        }

    // The grid's combine: each block adds its totals into the workspace's
    // accumulators with 64-bit atomics (integer sums and minimum keys: the
    // same result in any order), one thread per field. The last block to
    // finish hands the totals over to the result and resets the
    // accumulators for the next launch.
    __shared__ unsigned long long fields[kFields];
    if (threadIdx.x == 0) t.store(fields);
    __syncthreads();
    if (threadIdx.x < kFields && field_used(static_cast<int>(threadIdx.x), C)) {
        const unsigned long long v = fields[threadIdx.x];
        if (is_key_field(static_cast<int>(threadIdx.x))) {
            if (v != kNoKey) atomicMin(a.accum + threadIdx.x, v);
        } else if (v != 0) {
            atomicAdd(a.accum + threadIdx.x, v);
        }
    }
    __threadfence();  // the atomics before the count that announces them
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) last = atomicAdd(a.counter, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (threadIdx.x < kFields) {
        const int f = static_cast<int>(threadIdx.x);
        a.result[f] = atomicExch(a.accum + f, is_key_field(f) ? kNoKey : 0ull);
    }
    if (threadIdx.x == 0) *a.counter = 0;  // ready for the next launch
}

}  // namespace imgpar::cuda::stats_detail
