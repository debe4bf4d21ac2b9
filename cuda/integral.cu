// GPU summed-area tables (cuda/integral.hpp): host dispatch -> thin kernels
// -> the strip helpers below. Exact integer arithmetic throughout, so the
// table equals the CPU's byte for byte.
#include <cstdint>
#include <limits>

#include "cuda/check.hpp"
#include "cuda/integral.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kWarps = IntegralPolicy::warps;
constexpr int kThreads = kWarps * 32;
constexpr unsigned kFull = 0xffffffffu;
// Rows of a boundary scan loaded before any is stored, so each thread has
// that many loads in flight.
constexpr int kBatch = 16;

// A tile is one warp wide: each lane holds `pixels` neighbouring pixels of a
// row (16 bytes, 12 for RGB), so a tile row is one 512- or 384-byte load.
__host__ __device__ constexpr int lane_pixels(int channels) { return channels == 3 ? 4 : 16 / channels; }
__host__ __device__ constexpr int tile_width(int channels) { return 32 * lane_pixels(channels); }

template <int C>
struct Strip {
    static constexpr int pixels = lane_pixels(C);
    static constexpr int samples = pixels * C;      // per lane
    static constexpr int words = samples / 4;       // 32-bit words per lane
    static constexpr int width = tile_width(C);     // pixels
    static constexpr int row_samples = 32 * samples;
};

// Local sums (a tile's, or a part of one) stay in 32 bits: the largest, a
// whole tile of squares, is 512 * 64 * 255^2 < 2^31.
static_assert(static_cast<long long>(32 * 16) * IntegralPolicy::tile_rows * 255 * 255 < (1LL << 32), "tile sums must fit in 32 bits");
static_assert(IntegralPolicy::short_tile_rows <= IntegralPolicy::tile_rows, "the tall tiles bound the sums");

std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// Where the scratch arrays live (byte offsets; Acc = the table's sum type):
//   col_totals  u32 [tiles_y][W * C]        each tile's column totals
//   row_totals  u32 [tiles_x][H * C]        each tile's row totals
//   corners     Acc [tiles_y][tiles_x][C]   each tile's S(x0, y0)
//   above       Acc [tiles_y][W * C]        sum of column x over the rows above tile row ty
//   left        Acc [tiles_x][H * C]        sum of row y over the columns left of tile column tx
//   tile_totals u64 [tiles_y][tiles_x][C]   each tile's total
struct Layout {
    int tiles_x, tiles_y;
    std::size_t col_totals, row_totals, corners, above, left, tile_totals, total;
};

Layout layout_of(int width, int height, int channels, std::size_t acc_bytes, int rows) {
    Layout l{};
    l.tiles_x = (width + tile_width(channels) - 1) / tile_width(channels);
    l.tiles_y = (height + rows - 1) / rows;
    const std::size_t C = static_cast<std::size_t>(channels), W = static_cast<std::size_t>(width) * C,
                      H = static_cast<std::size_t>(height) * C;
    const std::size_t tx = static_cast<std::size_t>(l.tiles_x), ty = static_cast<std::size_t>(l.tiles_y);
    l.col_totals = 0;
    l.row_totals = l.col_totals + align_up(ty * W * 4);
    l.corners = l.row_totals + align_up(tx * H * 4);
    l.above = l.corners + align_up(ty * tx * C * acc_bytes);
    l.left = l.above + align_up(ty * W * acc_bytes);
    l.tile_totals = l.left + align_up(tx * H * acc_bytes);
    l.total = l.tile_totals + ty * tx * C * 8;
    return l;
}

struct Grid {
    const std::uint8_t* src;
    std::size_t pitch;
    int width, height, tiles_x, tiles_y;
};

// --- Warp helpers ---------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T warp_exclusive_sum(T v, int lane) {
    T inclusive = v;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const T up = __shfl_up_sync(kFull, inclusive, d);
        if (lane >= d) inclusive += up;
    }
    return inclusive - v;
}

// One lane's part of a tile row as raw words: a vector load where the row
// is aligned and the lane's pixels all lie inside the image, else bytes
// (zero past the right edge).
template <int C, bool Vector>
__device__ __forceinline__ void load_strip(const std::uint8_t* row, int lane, int cols,
                                           std::uint32_t (&w)[Strip<C>::words]) {
    constexpr int P = Strip<C>::pixels, S = Strip<C>::samples;
    const std::uint8_t* p = row + lane * S;
    if (Vector && lane * P + P <= cols) {
        if constexpr (C == 3) {
#pragma unroll
            for (int k = 0; k < 3; ++k) w[k] = __ldg(reinterpret_cast<const std::uint32_t*>(p) + k);
        } else {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(p));
            w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
        }
        return;
    }
#pragma unroll
    for (int k = 0; k < Strip<C>::words; ++k) w[k] = 0;
    const int inside = max(0, min(P, cols - lane * P)) * C;
#pragma unroll
    for (int k = 0; k < S; ++k)  // unrolled: w stays in registers
        if (k < inside) w[k / 4] |= static_cast<std::uint32_t>(p[k]) << (8 * (k % 4));
}

// The words' samples (or their squares), in row order.
template <int C, bool Square>
__device__ __forceinline__ void unpack(const std::uint32_t (&w)[Strip<C>::words], std::uint32_t (&s)[Strip<C>::samples]) {
#pragma unroll
    for (int k = 0; k < Strip<C>::samples; ++k) {
        const std::uint32_t v = (w[k / 4] >> (8 * (k % 4))) & 0xffu;
        s[k] = Square ? v * v : v;
    }
}

// Shared-memory index of sample k of a tile row: one pad word every 32, so
// the lanes' blocked writes and striped reads fall in different banks.
__device__ __forceinline__ int padded(int k) { return k + k / 32; }

// --- Thin kernels -----------------------------------------------------------------

// 1. Each tile's column totals, row totals and total: the image read once.
// One block per tile: warp w loads rows w, w + 8, ... of it, all before
// summing any, so every thread has Rows / 8 loads in flight (a warp walking
// its tile's rows one by one left the memory system idle: 23 us for 4096^2
// gray on an H200, about five times what reading its 16 MiB takes at the
// copy's rate; 9 us this way). The warps' column sums meet in shared memory.
template <int C, bool Square, bool Vector, int Rows>
__global__ void __launch_bounds__(kThreads) tile_totals_kernel(Grid g, std::uint32_t* col_totals,
                                                               std::uint32_t* row_totals, unsigned long long* tile_totals) {
    constexpr int S = Strip<C>::samples, RS = Strip<C>::row_samples, kRowsPerWarp = Rows / kWarps;
    static_assert(Rows % kWarps == 0, "the warps share a tile's rows evenly");
    __shared__ std::uint32_t columns[kWarps][RS + RS / 32];
    __shared__ std::uint32_t totals[kWarps][C];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int tx = static_cast<int>(blockIdx.x) % g.tiles_x, ty = static_cast<int>(blockIdx.x) / g.tiles_x;
    const int x0 = tx * Strip<C>::width, y0 = ty * Rows;
    const int cols = min(Strip<C>::width, g.width - x0), rows = min(Rows, g.height - y0);
    std::uint32_t w[kRowsPerWarp][Strip<C>::words];
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r < rows)
            load_strip<C, Vector>(g.src + static_cast<std::size_t>(y0 + r) * g.pitch + static_cast<std::size_t>(x0) * C,
                                  lane, cols, w[i]);
    }
    std::uint32_t column[S] = {};
    std::uint32_t total[C] = {};
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r >= rows) break;
        std::uint32_t s[S];
        unpack<C, Square>(w[i], s);
        std::uint32_t part[C] = {};
#pragma unroll
        for (int k = 0; k < S; ++k) {
            column[k] += s[k];
            part[k % C] += s[k];
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const std::uint32_t row_total = __reduce_add_sync(kFull, part[c]);
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
    std::uint32_t* out = col_totals + static_cast<std::size_t>(ty) * g.width * C + static_cast<std::size_t>(x0) * C;
    for (int k = threadIdx.x; k < cols * C; k += kThreads) {
        std::uint32_t sum = 0;
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
template <typename Acc>
__global__ void __launch_bounds__(kThreads) boundaries_kernel(const std::uint32_t* col_totals, Acc* above, int tiles_y,
                                                              std::size_t col_items, unsigned col_blocks,
                                                              const std::uint32_t* row_totals, Acc* left, int tiles_x,
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
template <typename Acc, typename Out, int C, bool Square, bool Vector, int Rows>
__global__ void __launch_bounds__(kThreads) tile_table_kernel(Grid g, const Acc* above_all, const Acc* left_all,
                                                            const Acc* corners, unsigned char* table,
                                                            std::size_t table_pitch) {
    constexpr int S = Strip<C>::samples, RS = Strip<C>::row_samples;
    __shared__ std::uint32_t exchange[kWarps][RS + RS / 32];
    __shared__ Acc left_rows[kWarps][Rows * C];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int tile = static_cast<int>(blockIdx.x) * kWarps + warp;
    if (tile >= g.tiles_x * g.tiles_y) return;
    const int tx = tile % g.tiles_x, ty = tile / g.tiles_x;
    const int x0 = tx * Strip<C>::width, y0 = ty * Rows;
    const int cols = min(Strip<C>::width, g.width - x0), rows = min(Rows, g.height - y0);
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
        // Blocked to striped through the 32-bit exchange, a word at a time.
#pragma unroll
        for (int j = 0; j < S; ++j) base[j] = 0;
#pragma unroll
        for (int half = 0; half < static_cast<int>(sizeof(Acc) / 4); ++half) {
#pragma unroll
            for (int k = 0; k < S; ++k) ex[padded(lane * S + k)] = static_cast<std::uint32_t>(static_cast<unsigned long long>(a[k]) >> (32 * half));
            __syncwarp();
#pragma unroll
            for (int j = 0; j < S; ++j) base[j] |= static_cast<Acc>(static_cast<unsigned long long>(ex[padded(lane + 32 * j)]) << (32 * half));
            __syncwarp();
        }
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

    std::uint32_t* row_sums = ex;
    std::uint32_t down[S] = {};  // striped: the tile's own sums down to this row
    Acc run_left[C] = {};
    const std::uint8_t* src = g.src + static_cast<std::size_t>(y0) * g.pitch + static_cast<std::size_t>(x0) * C;
    std::uint32_t next[Strip<C>::words];
    load_strip<C, Vector>(src, lane, cols, next);
    for (int r = 0; r < rows; ++r) {
        std::uint32_t s[S];
        unpack<C, Square>(next, s);
        if (r + 1 < rows) load_strip<C, Vector>(src + static_cast<std::size_t>(r + 1) * g.pitch, lane, cols, next);
        // The row's running sums along the tile, per channel.
#pragma unroll
        for (int k = C; k < S; ++k) s[k] += s[k - C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const std::uint32_t before = warp_exclusive_sum<std::uint32_t>(s[S - C + c], lane);
#pragma unroll
            for (int k = c; k < S; k += C) s[k] += before;
            run_left[c] += left_rows[warp][r * C + c];
        }
#pragma unroll
        for (int k = 0; k < S; ++k) row_sums[padded(lane * S + k)] = s[k];
        __syncwarp();
        Out* out = reinterpret_cast<Out*>(table + static_cast<std::size_t>(y0 + r + 1) * table_pitch) +
                   static_cast<std::size_t>(x0 + 1) * C;
#pragma unroll
        for (int j = 0; j < S; ++j) {
            const int k = lane + 32 * j;
            down[j] += row_sums[padded(k)];
            if (k < samples_in) out[k] = static_cast<Out>(base[j] + pick<Acc, C>(run_left, k % C) + down[j]);
        }
        __syncwarp();
    }
}

// --- Dispatch ---------------------------------------------------------------------

unsigned blocks_for(std::size_t items, int per_block) {
    return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// One plane (sums or squares) of the table: the three launches, with tiles
// of Rows rows.
template <typename Acc, typename Out, int C, bool Square, bool Vector, int Rows>
void table_plane_rows(const ConstDeviceViewU8& src, unsigned char* plane, std::size_t pitch, unsigned char* scratch,
                      cudaStream_t stream) {
    const Layout l = layout_of(src.width, src.height, C, sizeof(Acc), Rows);
    const Grid g{src.data, src.pitch, src.width, src.height, l.tiles_x, l.tiles_y};
    auto* col_totals = reinterpret_cast<std::uint32_t*>(scratch + l.col_totals);
    auto* row_totals = reinterpret_cast<std::uint32_t*>(scratch + l.row_totals);
    auto* corners = reinterpret_cast<Acc*>(scratch + l.corners);
    auto* above = reinterpret_cast<Acc*>(scratch + l.above);
    auto* left = reinterpret_cast<Acc*>(scratch + l.left);
    auto* tile_totals = reinterpret_cast<unsigned long long*>(scratch + l.tile_totals);
    const unsigned tile_blocks = blocks_for(static_cast<std::size_t>(l.tiles_x) * l.tiles_y, kWarps);
    tile_totals_kernel<C, Square, Vector, Rows>
        <<<static_cast<unsigned>(l.tiles_x * l.tiles_y), kThreads, 0, stream>>>(g, col_totals, row_totals, tile_totals);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_totals_kernel");
    const std::size_t col_items = static_cast<std::size_t>(src.width) * C, row_items = static_cast<std::size_t>(src.height) * C;
    const unsigned col_blocks = blocks_for(col_items, 32), row_blocks = blocks_for(row_items, 32);
    boundaries_kernel<Acc><<<col_blocks + row_blocks + 1, kThreads, 0, stream>>>(
        col_totals, above, l.tiles_y, col_items, col_blocks, row_totals, left, l.tiles_x, row_items, row_blocks,
        tile_totals, corners, C);
    IMGPAR_CUDA_CHECK_LAUNCH("boundaries_kernel");
    tile_table_kernel<Acc, Out, C, Square, Vector, Rows>
        <<<tile_blocks, kThreads, 0, stream>>>(g, above, left, corners, plane, pitch);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_table_kernel");
}

template <typename Acc, typename Out, int C, bool Square, bool Vector>
void table_plane(const ConstDeviceViewU8& src, unsigned char* plane, std::size_t pitch, unsigned char* scratch, int rows,
                 cudaStream_t stream) {
    if (rows == IntegralPolicy::short_tile_rows)
        table_plane_rows<Acc, Out, C, Square, Vector, IntegralPolicy::short_tile_rows>(src, plane, pitch, scratch, stream);
    else
        table_plane_rows<Acc, Out, C, Square, Vector, IntegralPolicy::tile_rows>(src, plane, pitch, scratch, stream);
}

template <typename Acc, typename Out, int C, bool Vector>
void table_planes(const ConstDeviceViewU8& src, const SumTableView& t, unsigned char* scratch, int rows,
                  cudaStream_t stream) {
    unsigned char* base = static_cast<unsigned char*>(t.data);
    table_plane<Acc, Out, C, false, Vector>(src, base, t.pitch, scratch, rows, stream);
    if (t.planes == 2)
        table_plane<Acc, Out, C, true, Vector>(src, base + static_cast<std::size_t>(t.height) * t.pitch, t.pitch, scratch,
                                               rows, stream);
}

// Vector loads need 16-byte rows (4-byte for RGB, whose lanes load words).
template <typename Acc, typename Out, int C>
void by_alignment(const ConstDeviceViewU8& src, const SumTableView& t, unsigned char* scratch, int rows,
                  cudaStream_t stream) {
    const std::size_t align = C == 3 ? 4 : 16;
    if (reinterpret_cast<std::uintptr_t>(src.data) % align == 0 && src.pitch % align == 0)
        table_planes<Acc, Out, C, true>(src, t, scratch, rows, stream);
    else
        table_planes<Acc, Out, C, false>(src, t, scratch, rows, stream);
}

template <typename Acc, typename Out>
void by_channels(const ConstDeviceViewU8& src, const SumTableView& t, unsigned char* scratch, int rows,
                 cudaStream_t stream) {
    switch (src.channels) {
        case 1: return by_alignment<Acc, Out, 1>(src, t, scratch, rows, stream);
        case 2: return by_alignment<Acc, Out, 2>(src, t, scratch, rows, stream);
        case 3: return by_alignment<Acc, Out, 3>(src, t, scratch, rows, stream);
        default: return by_alignment<Acc, Out, 4>(src, t, scratch, rows, stream);
    }
}

}  // namespace

int integral_tile_rows(int width, int height, int channels) {
    const long long tall_tiles = static_cast<long long>((width + tile_width(channels) - 1) / tile_width(channels)) *
                                 ((height + IntegralPolicy::tile_rows - 1) / IntegralPolicy::tile_rows);
    return tall_tiles >= IntegralPolicy::min_tall_tiles ? IntegralPolicy::tile_rows : IntegralPolicy::short_tile_rows;
}

namespace {

// The tile height a call builds with: the one asked for when it is one of
// the two, else the image's own (integral_tile_rows).
int tile_rows_for(int width, int height, int channels, int asked) {
    return asked == IntegralPolicy::short_tile_rows || asked == IntegralPolicy::tile_rows
               ? asked
               : integral_tile_rows(width, height, channels);
}

}  // namespace

std::size_t integral_workspace_bytes(int width, int height, int channels, SumType type, int tile_rows) {
    return layout_of(width, height, channels, type == SumType::U32 ? 4 : 8,
                     tile_rows_for(width, height, channels, tile_rows))
        .total;
}

std::string integral_kernel_name(const SumTableView& t) {
    return "2-D tiled scan: " + std::to_string(tile_width(t.channels)) + "x" +
           std::to_string(integral_tile_rows(t.width - 1, t.height - 1, t.channels)) +
           " tiles a warp each, tile totals, boundary scans, one table pass (" + sum_type_name(t.type) + ", " +
           std::to_string(t.channels) + " channel" + (t.channels == 1 ? "" : "s") +
           (t.planes == 2 ? ", sums and squares)" : ")");
}

void integral(const ConstDeviceViewU8& src, const SumTableView& t, IntegralWorkspace& ws, cudaStream_t stream,
              int tile_rows) {
    check_image_shape(src.width, src.height, src.channels);
    if (t.width != src.width + 1 || t.height != src.height + 1 || t.channels != src.channels || t.planes < 1 ||
        t.planes > 2 || t.pitch < t.row_bytes() || t.pitch % sum_type_bytes(t.type) != 0 ||
        reinterpret_cast<std::uintptr_t>(t.data) % sum_type_bytes(t.type) != 0)
        throw usage_error("integral", "the device table's shape or alignment does not match the image's");
    if (t.type == SumType::U32 &&
        integral_bound(src.width, src.height, t.planes == 2) > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this image's sums");
    const int rows = tile_rows_for(src.width, src.height, src.channels, tile_rows);
    auto* scratch = static_cast<unsigned char*>(
        ws.reserve(integral_workspace_bytes(src.width, src.height, src.channels, t.type, rows), stream));
    switch (t.type) {
        case SumType::U32: return by_channels<std::uint32_t, std::uint32_t>(src, t, scratch, rows, stream);
        case SumType::U64: return by_channels<unsigned long long, unsigned long long>(src, t, scratch, rows, stream);
        case SumType::F64: return by_channels<unsigned long long, double>(src, t, scratch, rows, stream);
    }
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void integral(Session& session, ConstDeviceViewU8 src, const SumTableView& table, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::integral(src, table, session.impl().integrals, stream);
    if (kernel) *kernel = cuda::integral_kernel_name(table);
}

}  // namespace imgpar::gpu
