// GPU summed-area tables (cuda/integral.hpp): host dispatch -> thin kernels
// -> the tile scan helpers below. Exact integer arithmetic throughout, so
// the table equals the CPU's byte for byte.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/integral.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kTile = IntegralPolicy::tile;
constexpr int kThreads = IntegralPolicy::threads;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
// Rows of the boundary scan down the tiles loaded before any is stored, so
// each thread has that many loads in flight.
constexpr int kDownBatch = 8;

// Where the scratch arrays live, in elements of the sum type Acc:
//   col_totals  [tiles_y][W * C]        each tile row's column totals
//   row_totals  [tiles_x][H * C]        each tile column's row totals
//   top         [tiles_y][(W + 1) * C]  S(X, ty * 32) for every X
//   left        [tiles_x][(H + 1) * C]  S(tx * 32, Y) for every Y
struct Layout {
    int width, height, channels, tiles_x, tiles_y;
    std::size_t col_totals, row_totals, top, left, total;  // offsets, and the element count
};

Layout layout_of(int width, int height, int channels) {
    Layout l{width, height, channels, (width + kTile - 1) / kTile, (height + kTile - 1) / kTile, 0, 0, 0, 0, 0};
    const std::size_t C = static_cast<std::size_t>(channels);
    l.col_totals = 0;
    l.row_totals = l.col_totals + static_cast<std::size_t>(l.tiles_y) * width * C;
    l.top = l.row_totals + static_cast<std::size_t>(l.tiles_x) * height * C;
    l.left = l.top + static_cast<std::size_t>(l.tiles_y) * (width + 1) * C;
    l.total = l.left + static_cast<std::size_t>(l.tiles_x) * (height + 1) * C;
    return l;
}

// --- Block and warp helpers ---------------------------------------------------

template <typename Acc>
__device__ __forceinline__ Acc warp_inclusive_sum(Acc v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const Acc up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// The tile's pixels (values, or their squares) scanned in shared memory:
// afterwards tile[r * stride + px * C + c] is the sum over the tile's pixels
// (px' <= px, r' <= r) of channel c. Pixels outside the image count 0. Rows
// are scanned by warps (lane = pixel), then columns (lane = row).
template <typename Acc, int C, bool Square>
__device__ void scan_tile(const std::uint8_t* src, std::size_t pitch, int width, int height, int x0, int y0, Acc* tile) {
    constexpr int kStride = kTile * C + 1;  // +1: columns of a row fall in different banks
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x = x0 + lane;
    for (int r = warp; r < kTile; r += kWarps) {
        const int y = y0 + r;
        const bool inside = x < width && y < height;
        const std::uint8_t* p = src + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const Acc v = inside ? static_cast<Acc>(p[c]) : Acc(0);
            tile[r * kStride + lane * C + c] = warp_inclusive_sum<Acc>(Square ? v * v : v, lane);
        }
    }
    __syncthreads();
    for (int s = warp; s < kTile * C; s += kWarps) {
        const Acc v = tile[lane * kStride + s];
        tile[lane * kStride + s] = warp_inclusive_sum<Acc>(v, lane);
    }
    __syncthreads();
}

struct TileGrid {
    int width, height, tiles_x;
    __device__ int tx() const { return static_cast<int>(blockIdx.x % static_cast<unsigned>(tiles_x)); }
    __device__ int ty() const { return static_cast<int>(blockIdx.x / static_cast<unsigned>(tiles_x)); }
};

// --- Thin kernels -------------------------------------------------------------

// 1. Each tile's row totals and column totals, from its scan: the last
// column and the last row of a 2-D scan hold running totals, so a row's
// total is the difference of two neighbours there (and a column's likewise).
template <typename Acc, int C, bool Square>
__global__ void __launch_bounds__(kThreads) tile_totals_kernel(const std::uint8_t* src, std::size_t pitch, TileGrid g,
                                                             Acc* col_totals, Acc* row_totals) {
    constexpr int kStride = kTile * C + 1;
    __shared__ Acc tile[kTile * kStride];
    const int tx = g.tx(), ty = g.ty(), x0 = tx * kTile, y0 = ty * kTile;
    scan_tile<Acc, C, Square>(src, pitch, g.width, g.height, x0, y0, tile);
    const Acc* last_row = tile + (kTile - 1) * kStride;
    for (int i = threadIdx.x; i < kTile * C; i += kThreads) {
        // i as a sample column (px, c) for the column totals ...
        if (x0 + i / C < g.width)
            col_totals[static_cast<std::size_t>(ty) * g.width * C + static_cast<std::size_t>(x0) * C + i] =
                last_row[i] - (i >= C ? last_row[i - C] : Acc(0));
        // ... and as (row, c) for the row totals.
        const int r = i / C, c = i % C;
        const Acc* last_column = tile + (kTile - 1) * C + c;
        if (y0 + r < g.height)
            row_totals[static_cast<std::size_t>(tx) * g.height * C + static_cast<std::size_t>(y0 + r) * C + c] =
                last_column[r * kStride] - (r > 0 ? last_column[(r - 1) * kStride] : Acc(0));
    }
}

// 2a. Exclusive prefix down the rows of a rows x cols array, in place: one
// thread per column, kDownBatch rows loaded before they are stored.
template <typename Acc>
__global__ void __launch_bounds__(kThreads) exclusive_down_kernel(Acc* a, int rows, std::size_t cols) {
    const std::size_t j = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    if (j >= cols) return;
    Acc run = 0;
    for (int r0 = 0; r0 < rows; r0 += kDownBatch) {
        Acc v[kDownBatch];
#pragma unroll
        for (int k = 0; k < kDownBatch; ++k) v[k] = r0 + k < rows ? a[static_cast<std::size_t>(r0 + k) * cols + j] : Acc(0);
#pragma unroll
        for (int k = 0; k < kDownBatch; ++k) {
            if (r0 + k < rows) a[static_cast<std::size_t>(r0 + k) * cols + j] = run;
            run += v[k];
        }
    }
}

// 2b. Inclusive scan along each row of `in` (rows of n pixels of C
// channels), written after a leading zero pixel: out row = (n + 1) * C. One
// block per row, kThreads pixels a step, a carry between steps.
template <typename Acc, int C>
__global__ void __launch_bounds__(kThreads) scan_rows_kernel(const Acc* in, Acc* out, std::size_t n) {
    __shared__ Acc warp_sums[kWarps][C];
    __shared__ Acc carry[C];
    const Acc* row_in = in + static_cast<std::size_t>(blockIdx.x) * n * C;
    Acc* row_out = out + static_cast<std::size_t>(blockIdx.x) * (n + 1) * C;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x < C) {
        carry[threadIdx.x] = 0;
        row_out[threadIdx.x] = 0;
    }
    for (std::size_t base = 0; base < n; base += kThreads) {
        const std::size_t k = base + threadIdx.x;
        Acc v[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            v[c] = warp_inclusive_sum<Acc>(k < n ? row_in[k * C + c] : Acc(0), lane);
            if (lane == 31) warp_sums[warp][c] = v[c];
        }
        __syncthreads();
#pragma unroll
        for (int c = 0; c < C; ++c) {
            Acc before = carry[c];
            for (int w = 0; w < warp; ++w) before += warp_sums[w][c];
            if (k < n) row_out[(k + 1) * C + c] = before + v[c];
        }
        __syncthreads();
        if (threadIdx.x < C) {
            Acc step = 0;
            for (int w = 0; w < kWarps; ++w) step += warp_sums[w][threadIdx.x];
            carry[threadIdx.x] += step;
        }
        __syncthreads();
    }
}

// 3. Each tile's part of the table: S(X, Y) = top(X) + left(Y) - top(x0) +
// the tile's own scan, X = x0 + px + 1, Y = y0 + r + 1; the tiles on the top
// and left edges also write the zero row and column.
template <typename Acc, typename Out, int C, bool Square>
__global__ void __launch_bounds__(kThreads) tile_table_kernel(const std::uint8_t* src, std::size_t pitch, TileGrid g,
                                                            const Acc* top_all, const Acc* left_all,
                                                            unsigned char* table, std::size_t table_pitch) {
    constexpr int kStride = kTile * C + 1;
    __shared__ Acc tile[kTile * kStride];
    const int tx = g.tx(), ty = g.ty(), x0 = tx * kTile, y0 = ty * kTile;
    scan_tile<Acc, C, Square>(src, pitch, g.width, g.height, x0, y0, tile);
    const Acc* top = top_all + static_cast<std::size_t>(ty) * (g.width + 1) * C;
    const Acc* left = left_all + static_cast<std::size_t>(tx) * (g.height + 1) * C;
    const int cols = min(kTile, g.width - x0), rows = min(kTile, g.height - y0);
    for (int i = threadIdx.x; i < kTile * kTile * C; i += kThreads) {
        const int r = i / (kTile * C), s = i % (kTile * C), px = s / C, c = s % C;
        if (px >= cols || r >= rows) continue;
        const std::size_t X = static_cast<std::size_t>(x0 + px + 1), Y = static_cast<std::size_t>(y0 + r + 1);
        const Acc v = top[X * C + c] + left[Y * C + c] - top[static_cast<std::size_t>(x0) * C + c] + tile[r * kStride + s];
        reinterpret_cast<Out*>(table + Y * table_pitch)[X * C + c] = static_cast<Out>(v);
    }
    if (ty == 0)  // the zero row under this tile's columns (and the corner)
        for (int s = threadIdx.x; s < (cols + (tx == 0 ? 1 : 0)) * C; s += kThreads)
            reinterpret_cast<Out*>(table)[static_cast<std::size_t>(tx == 0 ? 0 : x0 + 1) * C + s] = Out(0);
    if (tx == 0)  // the zero column beside this tile's rows
        for (int i = threadIdx.x; i < rows * C; i += kThreads)
            reinterpret_cast<Out*>(table + static_cast<std::size_t>(y0 + 1 + i / C) * table_pitch)[i % C] = Out(0);
}

// --- Dispatch -----------------------------------------------------------------

unsigned blocks_for(std::size_t items, int per_block) {
    return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// One plane (sums or squares) of the table: the three steps.
template <typename Acc, typename Out, int C, bool Square>
void table_plane(const ConstDeviceViewU8& src, unsigned char* plane, std::size_t pitch, Acc* scratch, cudaStream_t stream) {
    const Layout l = layout_of(src.width, src.height, C);
    const TileGrid g{src.width, src.height, l.tiles_x};
    const unsigned tiles = static_cast<unsigned>(l.tiles_x) * static_cast<unsigned>(l.tiles_y);
    tile_totals_kernel<Acc, C, Square>
        <<<tiles, kThreads, 0, stream>>>(src.data, src.pitch, g, scratch + l.col_totals, scratch + l.row_totals);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_totals_kernel");
    const std::size_t col_items = static_cast<std::size_t>(src.width) * C, row_items = static_cast<std::size_t>(src.height) * C;
    exclusive_down_kernel<Acc><<<blocks_for(col_items, kThreads), kThreads, 0, stream>>>(scratch + l.col_totals, l.tiles_y, col_items);
    IMGPAR_CUDA_CHECK_LAUNCH("exclusive_down_kernel (columns)");
    exclusive_down_kernel<Acc><<<blocks_for(row_items, kThreads), kThreads, 0, stream>>>(scratch + l.row_totals, l.tiles_x, row_items);
    IMGPAR_CUDA_CHECK_LAUNCH("exclusive_down_kernel (rows)");
    scan_rows_kernel<Acc, C><<<l.tiles_y, kThreads, 0, stream>>>(scratch + l.col_totals, scratch + l.top, src.width);
    IMGPAR_CUDA_CHECK_LAUNCH("scan_rows_kernel (top)");
    scan_rows_kernel<Acc, C><<<l.tiles_x, kThreads, 0, stream>>>(scratch + l.row_totals, scratch + l.left, src.height);
    IMGPAR_CUDA_CHECK_LAUNCH("scan_rows_kernel (left)");
    tile_table_kernel<Acc, Out, C, Square>
        <<<tiles, kThreads, 0, stream>>>(src.data, src.pitch, g, scratch + l.top, scratch + l.left, plane, pitch);
    IMGPAR_CUDA_CHECK_LAUNCH("tile_table_kernel");
}

template <typename Acc, typename Out, int C>
void table_planes(const ConstDeviceViewU8& src, const SumTableView& t, void* scratch, cudaStream_t stream) {
    unsigned char* base = static_cast<unsigned char*>(t.data);
    table_plane<Acc, Out, C, false>(src, base, t.pitch, static_cast<Acc*>(scratch), stream);
    if (t.planes == 2)
        table_plane<Acc, Out, C, true>(src, base + static_cast<std::size_t>(t.height) * t.pitch, t.pitch,
                                       static_cast<Acc*>(scratch), stream);
}

template <typename Acc, typename Out>
void by_channels(const ConstDeviceViewU8& src, const SumTableView& t, void* scratch, cudaStream_t stream) {
    switch (src.channels) {
        case 1: return table_planes<Acc, Out, 1>(src, t, scratch, stream);
        case 2: return table_planes<Acc, Out, 2>(src, t, scratch, stream);
        case 3: return table_planes<Acc, Out, 3>(src, t, scratch, stream);
        default: return table_planes<Acc, Out, 4>(src, t, scratch, stream);
    }
}

}  // namespace

std::size_t integral_workspace_bytes(int width, int height, int channels, SumType type) {
    return layout_of(width, height, channels).total * (type == SumType::U32 ? 4 : 8);
}

std::string integral_kernel_name(const SumTableView& t) {
    return std::string("2-D tiled scan: 32x32 tile totals, boundary scans, one table pass (") + sum_type_name(t.type) +
           ", " + std::to_string(t.channels) + " channel" + (t.channels == 1 ? "" : "s") +
           (t.planes == 2 ? ", sums and squares)" : ")");
}

void integral(const ConstDeviceViewU8& src, const SumTableView& t, IntegralWorkspace& ws, cudaStream_t stream) {
    check_image_shape(src.width, src.height, src.channels);
    if (t.width != src.width + 1 || t.height != src.height + 1 || t.channels != src.channels || t.planes < 1 ||
        t.planes > 2 || t.pitch < t.row_bytes() || t.pitch % sum_type_bytes(t.type) != 0 ||
        reinterpret_cast<std::uintptr_t>(t.data) % sum_type_bytes(t.type) != 0)
        throw usage_error("integral", "the device table's shape or alignment does not match the image's");
    if (t.type == SumType::U32 &&
        integral_bound(src.width, src.height, t.planes == 2) > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this image's sums");
    void* scratch = ws.reserve(integral_workspace_bytes(src.width, src.height, src.channels, t.type), stream);
    switch (t.type) {
        case SumType::U32: return by_channels<std::uint32_t, std::uint32_t>(src, t, scratch, stream);
        case SumType::U64: return by_channels<unsigned long long, unsigned long long>(src, t, scratch, stream);
        case SumType::F64: return by_channels<unsigned long long, double>(src, t, scratch, stream);
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
