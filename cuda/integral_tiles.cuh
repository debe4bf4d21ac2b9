// The tiled 2-D scan of cuda/integral.cu, for 8- and 16-bit samples (T):
// the three launches of one plane (sums or squares) of a summed-area table,
// and the warp and strip helpers they share. Included by cuda/integral.cu
// only.
//
// A tile is one warp wide: each lane holds `pixels` neighbouring pixels of a
// row (16 bytes; 12 for 8-bit RGB, 24 for 16-bit RGB), so a tile row is one
// 384- to 768-byte load. A tile's own sums (column, row and tile totals, the
// running sums inside it) are Local: 32 bits, which hold a whole tile of
// 8-bit squares or of 16-bit samples, else (16-bit squares: 65535^2 is
// already past 2^32) 64 bits. The table's sums are Acc: the table's own
// integer width.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/integral.hpp"

namespace imgpar::cuda::integral_detail {

constexpr int kWarps = IntegralPolicy::warps;
constexpr int kThreads = kWarps * 32;
constexpr unsigned kFull = 0xffffffffu;
// Rows of a boundary scan loaded before any is stored, so each thread has
// that many loads in flight.
constexpr int kBatch = 16;

__host__ __device__ constexpr int lane_pixels(int channels, int sample_bytes) {
    return channels == 3 ? 4 : 16 / (channels * sample_bytes);
}
__host__ __device__ constexpr int tile_width(int channels, int sample_bytes) {
    return 32 * lane_pixels(channels, sample_bytes);
}

template <int C, typename T>
struct Strip {
    static constexpr int pixels = lane_pixels(C, static_cast<int>(sizeof(T)));
    static constexpr int samples = pixels * C;                           // per lane
    static constexpr int bytes = samples * static_cast<int>(sizeof(T));  // per lane: 16, or 12 / 24 (RGB)
    static constexpr int words = bytes / 4;                              // 32-bit words per lane
    static constexpr int per_word = 4 / static_cast<int>(sizeof(T));     // samples per word
    static constexpr int width = 32 * pixels;                            // pixels
    static constexpr int row_samples = 32 * samples;
};

// A tile's own sums: 32 bits where they fit, else 64.
template <typename T, bool Square>
using LocalOf = std::conditional_t<sizeof(T) == 2 && Square, unsigned long long, std::uint32_t>;

// The largest of a tile's own sums (its total of one channel) fits Local.
template <int C, typename T, bool Square, int Rows>
constexpr bool tile_sums_fit() {
    const unsigned long long top = sizeof(T) == 1 ? 255ull : 65535ull;
    const unsigned long long sample = Square ? top * top : top;
    const unsigned long long local_max = sizeof(LocalOf<T, Square>) == 4 ? 0xffffffffull : ~0ull;
    return static_cast<unsigned long long>(Strip<C, T>::width) * Rows <= local_max / sample;
}

// Where the scratch arrays live (byte offsets):
//   col_totals  Local [tiles_y][W * C]        each tile's column totals
//   row_totals  Local [tiles_x][H * C]        each tile's row totals
//   corners     Acc [tiles_y][tiles_x][C]     each tile's S(x0, y0)
//   above       Acc [tiles_y][W * C]          sum of column x over the rows above tile row ty
//   left        Acc [tiles_x][H * C]          sum of row y over the columns left of tile column tx
//   tile_totals u64 [tiles_y][tiles_x][C]     each tile's total
struct Layout {
    int tiles_x, tiles_y;
    std::size_t col_totals, row_totals, corners, above, left, tile_totals, total;
};

inline std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

inline Layout layout_of(int width, int height, int channels, int sample_bytes, std::size_t acc_bytes,
                        std::size_t local_bytes, int rows) {
    Layout l{};
    const int tw = tile_width(channels, sample_bytes);
    l.tiles_x = (width + tw - 1) / tw;
    l.tiles_y = (height + rows - 1) / rows;
    const std::size_t C = static_cast<std::size_t>(channels), W = static_cast<std::size_t>(width) * C,
                      H = static_cast<std::size_t>(height) * C;
    const std::size_t tx = static_cast<std::size_t>(l.tiles_x), ty = static_cast<std::size_t>(l.tiles_y);
    l.col_totals = 0;
    l.row_totals = l.col_totals + align_up(ty * W * local_bytes);
    l.corners = l.row_totals + align_up(tx * H * local_bytes);
    l.above = l.corners + align_up(ty * tx * C * acc_bytes);
    l.left = l.above + align_up(ty * W * acc_bytes);
    l.tile_totals = l.left + align_up(tx * H * acc_bytes);
    l.total = l.tile_totals + ty * tx * C * 8;
    return l;
}

struct Grid {
    const std::uint8_t* src;  // the image's first byte
    std::size_t pitch;        // bytes
    int width, height, tiles_x, tiles_y;
};

// --- Warp helpers ---------------------------------------------------------------

template <typename V>
__device__ __forceinline__ V warp_exclusive_sum(V v, int lane) {
    V inclusive = v;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const V up = __shfl_up_sync(kFull, inclusive, d);
        if (lane >= d) inclusive += up;
    }
    return inclusive - v;
}

template <typename V>
__device__ __forceinline__ V warp_total(V v) {
    if constexpr (sizeof(V) == 4) {
        return __reduce_add_sync(kFull, v);
    } else {
#pragma unroll
        for (int d = 16; d >= 1; d >>= 1) v += __shfl_xor_sync(kFull, v, d);
        return v;
    }
}

// One lane's part of a tile row as raw words: a vector load where the row
// is aligned and the lane's pixels all lie inside the image, else sample by
// sample (zero past the right edge).
template <int C, typename T, bool Vector>
__device__ __forceinline__ void load_strip(const std::uint8_t* row, int lane, int cols,
                                           std::uint32_t (&w)[Strip<C, T>::words]) {
    using St = Strip<C, T>;
    const std::uint8_t* p = row + lane * St::bytes;
    if (Vector && lane * St::pixels + St::pixels <= cols) {
        if constexpr (St::bytes == 16) {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
            w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
        } else {
#pragma unroll
            for (int k = 0; k < St::words; ++k) w[k] = __ldg(reinterpret_cast<const std::uint32_t*>(p) + k);
        }
        return;
    }
#pragma unroll
    for (int k = 0; k < St::words; ++k) w[k] = 0;
    const T* q = reinterpret_cast<const T*>(p);
    const int inside = max(0, min(St::pixels, cols - lane * St::pixels)) * C;
#pragma unroll
    for (int k = 0; k < St::samples; ++k)  // unrolled: w stays in registers
        if (k < inside)
            w[k / St::per_word] |= static_cast<std::uint32_t>(q[k]) << (8 * sizeof(T) * (k % St::per_word));
}

// The words' samples (or their squares), in row order.
template <int C, typename T, bool Square, typename Local>
__device__ __forceinline__ void unpack(const std::uint32_t (&w)[Strip<C, T>::words], Local (&s)[Strip<C, T>::samples]) {
    using St = Strip<C, T>;
    constexpr std::uint32_t mask = sizeof(T) == 1 ? 0xffu : 0xffffu;
#pragma unroll
    for (int k = 0; k < St::samples; ++k) {
        const Local v = (w[k / St::per_word] >> (8 * sizeof(T) * (k % St::per_word))) & mask;
        s[k] = Square ? v * v : v;
    }
}

// Shared-memory index of sample k of a tile row: one pad word every 32, so
// the lanes' blocked writes and striped reads fall in different banks.
__device__ __forceinline__ int padded(int k) { return k + k / 32; }

// A lane's S blocked values (samples lane * S ... lane * S + S - 1 of the
// tile row) to striped ones (samples lane, lane + 32, ...), through the
// warp's 32-bit exchange a word of each value at a time.
template <int S, typename V>
__device__ __forceinline__ void blocked_to_striped(const V (&blocked)[S], V (&striped)[S], std::uint32_t* ex, int lane) {
#pragma unroll
    for (int j = 0; j < S; ++j) striped[j] = 0;
#pragma unroll
    for (int half = 0; half < static_cast<int>(sizeof(V) / 4); ++half) {
#pragma unroll
        for (int k = 0; k < S; ++k)
            ex[padded(lane * S + k)] = static_cast<std::uint32_t>(static_cast<unsigned long long>(blocked[k]) >> (32 * half));
        __syncwarp();
#pragma unroll
        for (int j = 0; j < S; ++j)
            striped[j] |= static_cast<V>(static_cast<unsigned long long>(ex[padded(lane + 32 * j)]) << (32 * half));
        __syncwarp();
    }
}

// acc[j] += the striped value j of `blocked` (as blocked_to_striped); 32-bit
// values are added as they are read, without a striped copy in registers.
template <int S, typename V>
__device__ __forceinline__ void add_striped(const V (&blocked)[S], V (&acc)[S], std::uint32_t* ex, int lane) {
    if constexpr (sizeof(V) == 4) {
#pragma unroll
        for (int k = 0; k < S; ++k) ex[padded(lane * S + k)] = blocked[k];
        __syncwarp();
#pragma unroll
        for (int j = 0; j < S; ++j) acc[j] += ex[padded(lane + 32 * j)];
        __syncwarp();
    } else {
        V striped[S];
        blocked_to_striped<S>(blocked, striped, ex, lane);
#pragma unroll
        for (int j = 0; j < S; ++j) acc[j] += striped[j];
    }
}

// --- Thin kernels -----------------------------------------------------------------

// 1. Each tile's column totals, row totals and total: the image read once.
// One block per tile: warp w loads rows w, w + 8, ... of it, all before
// summing any, so every thread has Rows / 8 loads in flight (a warp walking
// its tile's rows one by one left the memory system idle: 23 us for 4096^2
// gray on an H200, about five times what reading its 16 MiB takes at the
// copy's rate; 9 us this way). The warps' column sums meet in shared memory.
template <int C, typename T, bool Square, bool Vector, int Rows>
__global__ void __launch_bounds__(kThreads) tile_totals_kernel(Grid g, LocalOf<T, Square>* col_totals,
                                                               LocalOf<T, Square>* row_totals,
                                                               unsigned long long* tile_totals) {
    using St = Strip<C, T>;
    using Local = LocalOf<T, Square>;
    constexpr int S = St::samples, RS = St::row_samples, kRowsPerWarp = Rows / kWarps;
    static_assert(Rows % kWarps == 0, "the warps share a tile's rows evenly");
    static_assert(tile_sums_fit<C, T, Square, Rows>(), "a tile's sums fit its Local type");
    __shared__ Local columns[kWarps][RS + RS / 32];
    __shared__ Local totals[kWarps][C];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int tx = static_cast<int>(blockIdx.x) % g.tiles_x, ty = static_cast<int>(blockIdx.x) / g.tiles_x;
    const int x0 = tx * St::width, y0 = ty * Rows;
    const int cols = min(St::width, g.width - x0), rows = min(Rows, g.height - y0);
    std::uint32_t w[kRowsPerWarp][St::words];
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r < rows)
            load_strip<C, T, Vector>(
                g.src + static_cast<std::size_t>(y0 + r) * g.pitch + static_cast<std::size_t>(x0) * C * sizeof(T), lane,
                cols, w[i]);
    }
    Local column[S] = {};
    Local total[C] = {};
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r >= rows) break;
        Local s[S];
        unpack<C, T, Square>(w[i], s);
        Local part[C] = {};
#pragma unroll
        for (int k = 0; k < S; ++k) {
            column[k] += s[k];
            part[k % C] += s[k];
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const Local row_total = warp_total(part[c]);
            total[c] += row_total;
            if (lane == c)
                row_totals[static_cast<std::size_t>(tx) * g.height * C + static_cast<std::size_t>(y0 + r) * C + c] = row_total;
        }
    }
#pragma unroll
    for (int k = 0; k < S; ++k) columns[warp][padded(lane * S + k)] = column[k];
#pragma unroll
    for (int c = 0; c < C; ++c)
        if (lane == c) totals[warp][c] = total[c];
    __syncthreads();
    Local* out = col_totals + static_cast<std::size_t>(ty) * g.width * C + static_cast<std::size_t>(x0) * C;
    for (int k = threadIdx.x; k < cols * C; k += kThreads) {
        Local sum = 0;
#pragma unroll
        for (int v = 0; v < kWarps; ++v) sum += columns[v][padded(k)];
        out[k] = sum;
    }
    if (threadIdx.x < C) {
        unsigned long long sum = 0;
#pragma unroll
        for (int v = 0; v < kWarps; ++v) sum += totals[v][threadIdx.x];
        tile_totals[(static_cast<std::size_t>(ty) * g.tiles_x + tx) * C + threadIdx.x] = sum;
    }
}

// Exclusive prefix over n entries `stride` apart, from `in` into `out` (which
// may be `in`), starting from `run`: kBatch entries loaded before any is
// stored, so a thread has that many loads in flight.
template <typename In, typename Acc>
__device__ void exclusive_strided(const In* in, Acc* out, int n, std::size_t stride, Acc run) {
    for (int i0 = 0; i0 < n; i0 += kBatch) {
        Acc v[kBatch];
#pragma unroll
        for (int k = 0; k < kBatch; ++k) v[k] = i0 + k < n ? static_cast<Acc>(in[static_cast<std::size_t>(i0 + k) * stride]) : Acc(0);
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            if (i0 + k < n) out[static_cast<std::size_t>(i0 + k) * stride] = run;
            run += v[k];
        }
    }
}

// The block's 32 scans at once (lane l: the scan whose first entry is
// in[0] / out[0] of that lane; inactive lanes take no part but the
// barriers): each of the eight warps takes an eighth of every scan's
// entries, sums it, and, after the chunks' sums meet in shared memory, scans
// it from the sum of the chunks before it. One round trip of loads instead
// of n / kBatch dependent ones (128 tile rows: 8). Called by the whole block.
template <typename In, typename Acc>
__device__ void block_exclusive(const In* in, Acc* out, int n, std::size_t stride, bool active,
                                Acc (&chunk_sums)[kWarps][32]) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int len = (n + kWarps - 1) / kWarps, k0 = min(n, warp * len), k1 = min(n, k0 + len);
    Acc sum = 0;
    if (active)
        for (int i0 = k0; i0 < k1; i0 += kBatch) {
            Acc v[kBatch];
#pragma unroll
            for (int k = 0; k < kBatch; ++k) v[k] = i0 + k < k1 ? static_cast<Acc>(in[static_cast<std::size_t>(i0 + k) * stride]) : Acc(0);
#pragma unroll
            for (int k = 0; k < kBatch; ++k) sum += v[k];
        }
    chunk_sums[warp][lane] = sum;
    __syncthreads();
    Acc run = 0;
    for (int w = 0; w < warp; ++w) run += chunk_sums[w][lane];
    if (active) exclusive_strided(in + static_cast<std::size_t>(k0) * stride, out + static_cast<std::size_t>(k0) * stride, k1 - k0, stride, run);
    __syncthreads();  // chunk_sums is reused, and a later scan may read `out`
}

// 2. The boundaries, in one launch, 32 scans a block: the column totals
// scanned down the tile rows (above), the row totals across the tile columns
// (left), and, in the last block, the tile totals into each tile's corner
// S(x0, y0): along every row of tiles, then down every column.
template <typename Local, typename Acc>
__global__ void __launch_bounds__(kThreads) boundaries_kernel(const Local* col_totals, Acc* above, int tiles_y,
                                                              std::size_t col_items, unsigned col_blocks,
                                                              const Local* row_totals, Acc* left, int tiles_x,
                                                              std::size_t row_items, unsigned row_blocks,
                                                              const unsigned long long* tile_totals, Acc* corners, int C) {
    __shared__ Acc chunk_sums[kWarps][32];
    const int lane = threadIdx.x & 31;
    if (blockIdx.x < col_blocks) {
        const std::size_t j = static_cast<std::size_t>(blockIdx.x) * 32 + lane;
        block_exclusive(col_totals + j, above + j, tiles_y, col_items, j < col_items, chunk_sums);
    } else if (blockIdx.x < col_blocks + row_blocks) {
        const std::size_t j = static_cast<std::size_t>(blockIdx.x - col_blocks) * 32 + lane;
        block_exclusive(row_totals + j, left + j, tiles_x, row_items, j < row_items, chunk_sums);
    } else {
        const std::size_t row = static_cast<std::size_t>(tiles_x) * C;
        // Rows of tiles are short (4096^2 gray: 8 tiles): a thread each.
        for (int i = threadIdx.x; i < tiles_y * C; i += kThreads) {
            const std::size_t first = static_cast<std::size_t>(i / C) * row + i % C;
            exclusive_strided(tile_totals + first, corners + first, tiles_x, static_cast<std::size_t>(C), Acc(0));
        }
        __syncthreads();
        for (int i0 = 0; i0 < tiles_x * C; i0 += 32) {
            const int i = i0 + lane;
            block_exclusive(corners + i, corners + i, tiles_y, row, i < tiles_x * C, chunk_sums);
        }
    }
}

// The value of Acc registers indexed by a channel known only at run time,
// without sending the array to local memory.
template <typename Acc, int C>
__device__ __forceinline__ Acc pick(const Acc (&v)[C], int c) {
    Acc r = v[0];
#pragma unroll
    for (int i = 1; i < C; ++i)
        if (c == i) r = v[i];
    return r;
}

// 3. Each tile's part of the table, every entry written once:
//   S(X, Y) = S(x0, y0) + above-part(X) + left-part(Y) + the tile's own sums,
// X = x + 1, Y = y + 1. Each lane scans its own pixels of a row in registers,
// the warp adds the lanes' totals (one shuffle scan per row), and the row's
// sums go through shared memory so that lane k stores entries k, k + 32, ...:
// every store instruction writes 32 neighbouring entries.
template <typename Acc, typename Out, int C, typename T, bool Square, bool Vector, int Rows>
__global__ void __launch_bounds__(kThreads) tile_table_kernel(Grid g, const Acc* above_all, const Acc* left_all,
                                                            const Acc* corners, unsigned char* table,
                                                            std::size_t table_pitch) {
    using St = Strip<C, T>;
    using Local = LocalOf<T, Square>;
    constexpr int S = St::samples, RS = St::row_samples;
    __shared__ std::uint32_t exchange[kWarps][RS + RS / 32];
    __shared__ Acc left_rows[kWarps][Rows * C];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int tile = static_cast<int>(blockIdx.x) * kWarps + warp;
    if (tile >= g.tiles_x * g.tiles_y) return;
    const int tx = tile % g.tiles_x, ty = tile / g.tiles_x;
    const int x0 = tx * St::width, y0 = ty * Rows;
    const int cols = min(St::width, g.width - x0), rows = min(Rows, g.height - y0);
    const int samples_in = cols * C;
    std::uint32_t* ex = exchange[warp];

    // The corner plus the part above the tile: a scan along the tile's
    // columns of `above`, per channel, held striped in `base`.
    Acc base[S];
    {
        const Acc* above = above_all + static_cast<std::size_t>(ty) * g.width * C + static_cast<std::size_t>(x0) * C;
        Acc a[S];
#pragma unroll
        for (int k = 0; k < S; ++k) a[k] = lane * S + k < samples_in ? above[lane * S + k] : Acc(0);
#pragma unroll
        for (int k = C; k < S; ++k) a[k] += a[k - C];
        Acc corner[C], before[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            corner[c] = corners[(static_cast<std::size_t>(ty) * g.tiles_x + tx) * C + c];
            before[c] = warp_exclusive_sum<Acc>(a[S - C + c], lane);
        }
#pragma unroll
        for (int k = 0; k < S; ++k) a[k] += before[k % C] + corner[k % C];
        blocked_to_striped<S>(a, base, ex, lane);
        const Acc* left = left_all + static_cast<std::size_t>(tx) * g.height * C + static_cast<std::size_t>(y0) * C;
        for (int i = lane; i < rows * C; i += 32) left_rows[warp][i] = left[i];
        __syncwarp();
    }

    // The zero row and column of the table, where this tile borders them.
    if (ty == 0) {
        Out* zero = reinterpret_cast<Out*>(table);
        for (int i = lane; i < samples_in + (tx == 0 ? C : 0); i += 32)
            zero[(tx == 0 ? 0 : (x0 + 1) * C) + i] = Out(0);
    }
    if (tx == 0)
        for (int i = lane; i < rows * C; i += 32)
            reinterpret_cast<Out*>(table + static_cast<std::size_t>(y0 + 1 + i / C) * table_pitch)[i % C] = Out(0);

    Local down[S] = {};  // striped: the tile's own sums down to this row
    Acc run_left[C] = {};
    const std::uint8_t* src = g.src + static_cast<std::size_t>(y0) * g.pitch + static_cast<std::size_t>(x0) * C * sizeof(T);
    std::uint32_t next[St::words];
    load_strip<C, T, Vector>(src, lane, cols, next);
    for (int r = 0; r < rows; ++r) {
        Local s[S];
        unpack<C, T, Square>(next, s);
        if (r + 1 < rows) load_strip<C, T, Vector>(src + static_cast<std::size_t>(r + 1) * g.pitch, lane, cols, next);
        // The row's running sums along the tile, per channel.
#pragma unroll
        for (int k = C; k < S; ++k) s[k] += s[k - C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const Local before = warp_exclusive_sum<Local>(s[S - C + c], lane);
#pragma unroll
            for (int k = c; k < S; k += C) s[k] += before;
            run_left[c] += left_rows[warp][r * C + c];
        }
        add_striped<S>(s, down, ex, lane);
        Out* out = reinterpret_cast<Out*>(table + static_cast<std::size_t>(y0 + r + 1) * table_pitch) +
                   static_cast<std::size_t>(x0 + 1) * C;
#pragma unroll
        for (int j = 0; j < S; ++j) {
            const int k = lane + 32 * j;
            if (k < samples_in) out[k] = static_cast<Out>(base[j] + pick<Acc, C>(run_left, k % C) + static_cast<Acc>(down[j]));
        }
    }
}

// --- One plane's launches -----------------------------------------------------------

inline unsigned blocks_for(std::size_t items, int per_block) {
    return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// One plane (sums or squares) of the table: the three launches, with tiles
// of Rows rows. src: the image's first byte; pitch in bytes.
template <typename Acc, typename Out, int C, typename T, bool Square, bool Vector, int Rows>
void table_plane_rows(const std::uint8_t* src, std::size_t src_pitch, int width, int height, unsigned char* plane,
                      std::size_t pitch, unsigned char* scratch, cudaStream_t stream) {
    using Local = LocalOf<T, Square>;
    const Layout l = layout_of(width, height, C, static_cast<int>(sizeof(T)), sizeof(Acc), sizeof(Local), Rows);
    const Grid g{src, src_pitch, width, height, l.tiles_x, l.tiles_y};
    auto* col_totals = reinterpret_cast<Local*>(scratch + l.col_totals);
    auto* row_totals = reinterpret_cast<Local*>(scratch + l.row_totals);
    auto* corners = reinterpret_cast<Acc*>(scratch + l.corners);
    auto* above = reinterpret_cast<Acc*>(scratch + l.above);
    auto* left = reinterpret_cast<Acc*>(scratch + l.left);
    auto* tile_totals = reinterpret_cast<unsigned long long*>(scratch + l.tile_totals);
    const unsigned tile_blocks = blocks_for(static_cast<std::size_t>(l.tiles_x) * l.tiles_y, kWarps);
    tile_totals_kernel<C, T, Square, Vector, Rows>
        <<<static_cast<unsigned>(l.tiles_x * l.tiles_y), kThreads, 0, stream>>>(g, col_totals, row_totals, tile_totals);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_totals_kernel");
    const std::size_t col_items = static_cast<std::size_t>(width) * C, row_items = static_cast<std::size_t>(height) * C;
    const unsigned col_blocks = blocks_for(col_items, 32), row_blocks = blocks_for(row_items, 32);
    boundaries_kernel<Local, Acc><<<col_blocks + row_blocks + 1, kThreads, 0, stream>>>(
        col_totals, above, l.tiles_y, col_items, col_blocks, row_totals, left, l.tiles_x, row_items, row_blocks,
        tile_totals, corners, C);
    IMGPAR_CUDA_CHECK_LAUNCH("boundaries_kernel");
    tile_table_kernel<Acc, Out, C, T, Square, Vector, Rows>
        <<<tile_blocks, kThreads, 0, stream>>>(g, above, left, corners, plane, pitch);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_table_kernel");
}

}  // namespace imgpar::cuda::integral_detail
