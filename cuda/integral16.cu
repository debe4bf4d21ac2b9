// GPU summed-area tables of 16-bit images: cpu::integral(ConstViewU16)
// (src/ops/integral.hpp, 16-BIT CONTRACT), byte for byte. The 8-bit tiled
// scan (cuda/integral.cu) keeps a tile's sums in 32 bits, which a tile of
// 16-bit squares overflows at its first sample; this path works in 64-bit
// integers throughout, in two scans:
//   1. rows: a block per row (grid-stride), 256 pixels a step, one pixel a
//      thread (its C samples read as neighbours read theirs: coalesced), a
//      block-wide exclusive scan per channel (warp shuffles, then the eight
//      warps' totals), the row's running sums written to table row y + 1
//      (C neighbouring entries a thread: coalesced), the carry kept across
//      steps;
//   2. columns, in chunks of kChunkRows rows: each chunk's column totals
//      (a thread per column: neighbouring columns, coalesced), their
//      exclusive scan down the chunks, then each chunk's entries plus the
//      chunks above, written in place.
// Every entry is an exact 64-bit integer before it is stored in the table's
// type (integral_type allows only types that hold the bound), and a double
// table's entries, below 2^53, read back as the same integers.
// Cost: about 34 bytes of traffic a sample of a u64 table (the image's 2,
// the row pass's 8 written, the chunk totals' 8 read, the column pass's 8
// read and 8 written) against the 10 the operation needs, so expect some
// 3x a copy, not yet measured. The next step: the chunk totals as the row
// prefix of the image's chunk column sums (2 bytes a sample read, not 8),
// and then the 8-bit path's tiled scan with 64-bit tile sums.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/integral.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

constexpr int kRowThreads = 256;
constexpr int kRowWarps = kRowThreads / 32;
constexpr int kColumnThreads = 256;
constexpr int kChunkRows = 32;

template <typename Out>
__device__ __forceinline__ unsigned long long as_integer(Out v) {
    return static_cast<unsigned long long>(v);
}

// 1. Row scans: table row y + 1 = the running sums along image row y (its
// zero column included).
template <typename Out, int C, bool Square>
__global__ void __launch_bounds__(kRowThreads) row_scan16_kernel(const unsigned char* src, std::size_t pitch, int width,
                                                                 int height, unsigned char* table, std::size_t table_pitch) {
    __shared__ unsigned long long warp_totals[kRowWarps][C];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int y = blockIdx.x; y < height; y += gridDim.x) {
        const std::uint16_t* row = reinterpret_cast<const std::uint16_t*>(src + static_cast<std::size_t>(y) * pitch);
        Out* out = reinterpret_cast<Out*>(table + static_cast<std::size_t>(y + 1) * table_pitch);
        if (threadIdx.x < C) out[threadIdx.x] = Out(0);
        unsigned long long carry[C] = {};
        for (int x0 = 0; x0 < width; x0 += kRowThreads) {
            const int x = x0 + static_cast<int>(threadIdx.x);
            unsigned long long v[C];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const unsigned long long s = x < width ? __ldg(row + static_cast<std::size_t>(x) * C + c) : 0u;
                v[c] = Square ? s * s : s;
            }
            // Inclusive scan of the warp, per channel.
            unsigned long long inc[C];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                inc[c] = v[c];
#pragma unroll
                for (int d = 1; d < 32; d <<= 1) {
                    const unsigned long long up = __shfl_up_sync(0xffffffffu, inc[c], d);
                    if (lane >= d) inc[c] += up;
                }
            }
            if (lane == 31)
#pragma unroll
                for (int c = 0; c < C; ++c) warp_totals[warp][c] = inc[c];
            __syncthreads();
#pragma unroll
            for (int c = 0; c < C; ++c) {
                unsigned long long before = carry[c], step = 0;
#pragma unroll
                for (int w = 0; w < kRowWarps; ++w) {
                    const unsigned long long t = warp_totals[w][c];
                    if (w < warp) before += t;
                    step += t;
                }
                if (x < width) out[static_cast<std::size_t>(x + 1) * C + c] = static_cast<Out>(before + inc[c]);
                carry[c] += step;
            }
            __syncthreads();  // warp_totals is written again
        }
    }
}

// 2a. Each chunk's column totals: totals[chunk][j] = sum of table entries
// (j) in the chunk's rows (table rows 1 + chunk * kChunkRows ...).
template <typename Out>
__global__ void __launch_bounds__(kColumnThreads) chunk_totals16_kernel(const unsigned char* table, std::size_t pitch,
                                                                        int rows, std::size_t columns,
                                                                        unsigned long long* totals) {
    const std::size_t j = static_cast<std::size_t>(blockIdx.x) * kColumnThreads + threadIdx.x;
    const int chunk = static_cast<int>(blockIdx.y);
    if (j >= columns) return;
    const int r0 = 1 + chunk * kChunkRows, r1 = min(rows, r0 + kChunkRows);
    unsigned long long sum = 0;
    for (int r = r0; r < r1; ++r) sum += as_integer(reinterpret_cast<const Out*>(table + static_cast<std::size_t>(r) * pitch)[j]);
    totals[static_cast<std::size_t>(chunk) * columns + j] = sum;
}

// 2b. The totals scanned down the chunks (exclusive, in place): what each
// chunk adds to its entries.
__global__ void __launch_bounds__(kColumnThreads) chunk_scan16_kernel(unsigned long long* totals, int chunks,
                                                                      std::size_t columns) {
    const std::size_t j = static_cast<std::size_t>(blockIdx.x) * kColumnThreads + threadIdx.x;
    if (j >= columns) return;
    unsigned long long run = 0;
    for (int k = 0; k < chunks; ++k) {
        const unsigned long long t = totals[static_cast<std::size_t>(k) * columns + j];
        totals[static_cast<std::size_t>(k) * columns + j] = run;
        run += t;
    }
}

// 2c. Each chunk's entries: the chunks above plus the running sum down the
// chunk, in place.
template <typename Out>
__global__ void __launch_bounds__(kColumnThreads) column_scan16_kernel(unsigned char* table, std::size_t pitch, int rows,
                                                                       std::size_t columns,
                                                                       const unsigned long long* offsets) {
    const std::size_t j = static_cast<std::size_t>(blockIdx.x) * kColumnThreads + threadIdx.x;
    const int chunk = static_cast<int>(blockIdx.y);
    if (j >= columns) return;
    const int r0 = 1 + chunk * kChunkRows, r1 = min(rows, r0 + kChunkRows);
    unsigned long long run = offsets[static_cast<std::size_t>(chunk) * columns + j];
    // Loads first, so a thread has its chunk's reads in flight.
    unsigned long long v[kChunkRows];
#pragma unroll
    for (int i = 0; i < kChunkRows; ++i)
        v[i] = r0 + i < r1 ? as_integer(reinterpret_cast<const Out*>(table + static_cast<std::size_t>(r0 + i) * pitch)[j]) : 0ull;
#pragma unroll
    for (int i = 0; i < kChunkRows; ++i) {
        run += v[i];
        if (r0 + i < r1) reinterpret_cast<Out*>(table + static_cast<std::size_t>(r0 + i) * pitch)[j] = static_cast<Out>(run);
    }
}

int row_blocks16(int height) {
    int device = 0, sms = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return std::min(height, std::max(1, sms) * 8);
}

std::size_t chunks_of(int height) { return (static_cast<std::size_t>(height) + kChunkRows - 1) / kChunkRows; }

template <typename Out, int C>
void plane16(const ConstDeviceViewU16& src, unsigned char* plane, std::size_t pitch, bool square,
             unsigned long long* scratch, cudaStream_t stream) {
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(plane, 0, static_cast<std::size_t>(src.width + 1) * C * sizeof(Out), stream));
    const unsigned rb = static_cast<unsigned>(row_blocks16(src.height));
    const auto* data = reinterpret_cast<const unsigned char*>(src.data);
    if (square)
        row_scan16_kernel<Out, C, true><<<rb, kRowThreads, 0, stream>>>(data, src.pitch, src.width, src.height, plane, pitch);
    else
        row_scan16_kernel<Out, C, false><<<rb, kRowThreads, 0, stream>>>(data, src.pitch, src.width, src.height, plane, pitch);
    IMGPAR_CUDA_CHECK_LAUNCH("row_scan16_kernel");
    const std::size_t columns = static_cast<std::size_t>(src.width + 1) * C;
    const std::size_t chunks = chunks_of(src.height);
    const dim3 grid(static_cast<unsigned>((columns + kColumnThreads - 1) / kColumnThreads), static_cast<unsigned>(chunks));
    if (chunks > 1) {
        chunk_totals16_kernel<Out><<<grid, kColumnThreads, 0, stream>>>(plane, pitch, src.height + 1, columns, scratch);
        IMGPAR_CUDA_CHECK_LAUNCH("chunk_totals16_kernel");
        chunk_scan16_kernel<<<grid.x, kColumnThreads, 0, stream>>>(scratch, static_cast<int>(chunks), columns);
        IMGPAR_CUDA_CHECK_LAUNCH("chunk_scan16_kernel");
    } else {
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(scratch, 0, columns * sizeof(unsigned long long), stream));
    }
    column_scan16_kernel<Out><<<grid, kColumnThreads, 0, stream>>>(plane, pitch, src.height + 1, columns, scratch);
    IMGPAR_CUDA_CHECK_LAUNCH("column_scan16_kernel");
}

template <typename Out>
void planes16(const ConstDeviceViewU16& src, const SumTableView& t, unsigned long long* scratch, cudaStream_t stream) {
    auto* base = static_cast<unsigned char*>(t.data);
    for (int p = 0; p < t.planes; ++p) {
        unsigned char* plane = base + static_cast<std::size_t>(p) * t.height * t.pitch;
        switch (src.channels) {
            case 1: plane16<Out, 1>(src, plane, t.pitch, p == 1, scratch, stream); break;
            case 2: plane16<Out, 2>(src, plane, t.pitch, p == 1, scratch, stream); break;
            case 3: plane16<Out, 3>(src, plane, t.pitch, p == 1, scratch, stream); break;
            default: plane16<Out, 4>(src, plane, t.pitch, p == 1, scratch, stream); break;
        }
    }
}

}  // namespace

std::size_t integral16_workspace_bytes(int width, int height, int channels) {
    return chunks_of(height) * (static_cast<std::size_t>(width) + 1) * static_cast<std::size_t>(channels) *
           sizeof(unsigned long long);
}

std::string integral16_kernel_name(const SumTableView& t) {
    return std::string("16-bit row scans (a block a row, 64-bit sums), then column scans in chunks of ") +
           std::to_string(kChunkRows) + " rows (" + sum_type_name(t.type) + ", " + std::to_string(t.channels) +
           " channel" + (t.channels == 1 ? "" : "s") + (t.planes == 2 ? ", sums and squares)" : ")");
}

void integral(const ConstDeviceViewU16& src, const SumTableView& t, IntegralWorkspace& ws, cudaStream_t stream) {
    check_device_view16(src, "integral");
    if (t.width != src.width + 1 || t.height != src.height + 1 || t.channels != src.channels || t.planes < 1 ||
        t.planes > 2 || t.pitch < t.row_bytes() || t.pitch % sum_type_bytes(t.type) != 0 ||
        reinterpret_cast<std::uintptr_t>(t.data) % sum_type_bytes(t.type) != 0)
        throw usage_error("integral", "the device table's shape or alignment does not match the image's");
    const std::uint64_t bound = integral_bound(src.width, src.height, t.planes == 2, 65535);
    if (t.type == SumType::U32 && bound > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this 16-bit image's sums");
    if (t.type == SumType::F64 && bound > (std::uint64_t{1} << 53))
        throw usage_error("integral", "an f64 table cannot hold this 16-bit image's sums exactly");
    if (chunks_of(src.height) > 65535)
        throw usage_error("integral", "16-bit images taller than " + std::to_string(65535 * kChunkRows) +
                                          " rows are not supported on the GPU");
    auto* scratch = static_cast<unsigned long long*>(
        ws.reserve(integral16_workspace_bytes(src.width, src.height, src.channels), stream));
    switch (t.type) {
        case SumType::U32: return planes16<std::uint32_t>(src, t, scratch, stream);
        case SumType::U64: return planes16<unsigned long long>(src, t, scratch, stream);
        case SumType::F64: return planes16<double>(src, t, scratch, stream);
    }
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void integral(Session& session, ConstDeviceViewU16 src, const SumTableView& table, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::integral(src, table, session.impl().integrals, stream);
    if (kernel) *kernel = cuda::integral16_kernel_name(table);
}

}  // namespace imgpar::gpu
