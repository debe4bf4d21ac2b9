// Custom (non-separable) kernels on the FP16 tensor cores.
//
// Correlation with a kw x kh kernel is a sum over kernel rows j of 1-D
// correlations of input row y + j - ay with kernel row j, and each 1-D
// correlation is a product with a banded (Toeplitz) matrix. Per warp and
// kernel row, with mma.m16n8k16 (f16 x f16 -> f32):
//   D[16 output rows x 8 output columns] += A[16 x 16] * B_t[16 x 8]
// where A is a 16 x 16 block of the input plane (rows shifted down by j,
// columns 16t to the right) and B_t[k][n] = coefficient(j, 16t + k - n - s)
// (0 outside the kernel). KB blocks t cover 8 outputs plus the kernel width.
//
// Exactness: samples (0..255) and the plan's fixed-point coefficients are
// integers; this path only takes plans whose every coefficient is an exact
// f16 value (custom_half_supported). Products are exact in f32, and every
// partial sum is an integer of magnitude at most 255 * sum |c| <= 255 * 65535
// < 2^24, so the f32 accumulation is exact and S is the contract's integer.
//
// Layout of one block: 2 x (tile_h / 16) warps, each owning 16 rows x 64
// columns (8 n-blocks) of the output tile, 128 columns wide. The block loads
// its tile plus the kernel footprint into f16 planes once (channels split,
// border rule applied), keeps the coefficient pairs
// the B fragments need in shared memory, and computes every channel from
// there. A warp loads each 16 x 8 column chunk of the plane once per kernel
// row (ldmatrix) and uses it in up to KB MMAs of neighbouring n-blocks.
// Each S becomes its output level through the plan's CustomLevels
// (src/ops/custom_levels.hpp: a float estimate settled by 255 exact bounds)
// rather than an IEEE double division per sample. Results go through an
// interleaved output tile, so the stores are coalesced 16-byte vectors.
// Gray and RGB images (images with alpha run cuda/filter_wide.cu).

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cuda/block/convert.cuh"
#include "cuda/block/group_fill.cuh"
#include "cuda/block/toeplitz.cuh"
#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_mma.cuh"
#include "src/error.hpp"
#include "src/ops/custom_levels.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// Launch policy (reasoning; imgpar_bench --only custom measures it):
//  - 128 output columns per block (2 warps of 64): the column halo of a 15x15
//    kernel is then 14 / 128, and a warp's 8 n-blocks share their column
//    chunks (7 + 2 KB chunk loads for 8 KB MMAs per kernel row);
//  - tile_h = 64 rows (8 warps) where the shared tile fits in ~110 KB (two
//    blocks per SM), else 32 or 16 rows, else the tallest the device fits;
//  - __launch_bounds__(256, 2), or 3 for gray, whose tiles are small enough
//    for three blocks per SM (left alone, the compiler squeezes to 80
//    registers and spills for colour).
struct CustomHalfPolicy {
    static constexpr int kTileW = 128;
    static constexpr int kWarpCols = 64;
    static constexpr int kMaxTileH = 64;
    static constexpr int kMaxKb = 5;  // 8 + 62 + 3 <= 80: kernels up to 63 wide
    static constexpr std::size_t kSmemBudget = 110 * 1024;
};
constexpr int kTileW = CustomHalfPolicy::kTileW;
constexpr int kNBlocks = CustomHalfPolicy::kWarpCols / 8;  // n-blocks per warp
constexpr int kMaxKb = CustomHalfPolicy::kMaxKb;
// Coefficient pairs per kernel row: index m + kPairLead holds
// (coefficient(m), coefficient(m + 1)) for m = 16t + 2(l % 4) - l / 4 - s.
constexpr int kPairLead = 10;  // 7 + max s (3)
constexpr int pair_row(int kb) { return 16 * kb + 12; }  // >= 16 kb + 9, a multiple of 4
constexpr int kMaxPairRow = pair_row(kMaxKb);

// Read-only tables of a call, copied to shared memory by every block.
struct CustomHalfTables {
    std::int32_t bound[257];  // CustomLevels::bound of the plan
    std::uint32_t pairs[kMaxKernelSide * kMaxPairRow];
};
constexpr int kBoundWords = 260;  // 257, padded to keep 16-byte alignment

struct CustomHalfArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int kh;          // kernel rows
    int ay;          // anchor row
    int lead;        // plane column 0 is image column X - lead (lead = anchor_x rounded up to 4)
    int shift;       // s = lead - anchor_x (0..3)
    int pair_row;    // u32 per kernel row of coefficient pairs
    int tile_h;      // output rows per block: 16, 32 or 64
    int plane_cols;  // f16 per plane row: 8 * (kTileW / 8 - 1) + 16 KB, an odd number of 16-byte units
    int plane_rows;  // tile_h + kh - 1
    int src_vec;     // source rows can be read as aligned 16-byte vectors
    int dst_vec;     // destination rows can be written as aligned 16-byte vectors
    bool level_negate;   // CustomLevels of the plan (the bounds are in the tables)
    float level_inverse;
    float level_offset;
};

// Bytes per row of the interleaved output tile: 16 more than the tile's
// pixels, so the 8 rows an MMA result spans start 4 banks apart.
__host__ __device__ constexpr int out_tile_row(int channels) { return kTileW * channels + 16; }

// Shared memory of a block: C planes, the level bounds, the coefficient
// pairs, the output tile.
struct CustomHalfShape {
    int kb = 0;
    int tile_h = 0;  // 0: does not fit this device
    int plane_cols = 0;
    std::size_t smem = 0;
};

std::size_t custom_half_smem(int channels, int kh, int kb, int tile_h) {
    const std::size_t plane_cols = 8 * (kTileW / 8 - 1) + 16 * static_cast<std::size_t>(kb);
    return static_cast<std::size_t>(channels) * static_cast<std::size_t>(tile_h + kh - 1) * plane_cols * 2 +
           (kBoundWords + static_cast<std::size_t>(kh) * pair_row(kb)) * 4 +
           static_cast<std::size_t>(tile_h) * out_tile_row(channels);
}

int lead_of(const FilterPlan& plan) { return (plan.anchor_x + 3) / 4 * 4; }

CustomHalfShape custom_half_shape(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    CustomHalfShape s;
    const int shift = lead_of(plan) - plan.anchor_x;
    s.kb = (8 + plan.kernel_width - 1 + shift + 15) / 16;
    s.plane_cols = 8 * (kTileW / 8 - 1) + 16 * s.kb;
    const std::size_t optin = static_cast<std::size_t>(dev.max_smem_optin);
    for (std::size_t budget : {std::min(CustomHalfPolicy::kSmemBudget, optin), optin}) {
        for (int h = CustomHalfPolicy::kMaxTileH; h >= 16; h /= 2) {
            const std::size_t bytes = custom_half_smem(channels, plan.kernel_height, s.kb, h);
            if (bytes <= budget) {
                s.tile_h = h;
                s.smem = bytes;
                return s;
            }
        }
    }
    return s;
}

// Whether an integer is exactly representable in IEEE binary16.
bool exact_in_f16(std::int32_t v) {
    std::uint32_t a = v < 0 ? static_cast<std::uint32_t>(-static_cast<std::int64_t>(v)) : static_cast<std::uint32_t>(v);
    if (a > 65504u) return false;
    while (a != 0 && (a & 1u) == 0) a >>= 1;
    return a < 2048u;
}

// The planes are filled in aligned groups of 16 pixels (subgroup_words in
// cuda/block/group_fill.cuh): many bytes in flight per load, as the
// fill is latency-bound otherwise. A group is written as 4 sub-groups of 4
// pixels (one 8-byte f16 store per channel); sub-groups outside the planes'
// columns are skipped.
// Groups a thread loads before converting any: two keep 32 C bytes in flight.
constexpr int kLoadBatch = 2;

template <int C>
__device__ __forceinline__ void load_planes(const CustomHalfArgs& a, __half* planes, int plane, int X, int Y) {
    const int lead16 = (a.lead + kGroupPx - 1) / kGroupPx * kGroupPx;
    const int col_first = a.lead - lead16;  // plane column of group 0: -12..0, a multiple of 4
    const int groups = (a.plane_cols - col_first + kGroupPx - 1) / kGroupPx;
    const int total = a.plane_rows * groups;
    const int n = static_cast<int>(blockDim.x);
    for (int i0 = static_cast<int>(threadIdx.x); i0 < total; i0 += kLoadBatch * n) {
        bool vec[kLoadBatch];
        uint4 u[kLoadBatch][C];
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int i = ::min(i0 + b * n, total - 1);  // a repeated last group is harmless
            const int r = i / groups;
            vec[b] = load_group<C>(a.src, a.border.mode, a.src_vec, X - lead16 + kGroupPx * (i - r * groups),
                                   Y - a.ay + r, u[b]);
        }
#pragma unroll
        for (int b = 0; b < kLoadBatch; ++b) {
            const int i = i0 + b * n;
            if (i >= total) break;
            const int r = i / groups;
            const int gi = i - r * groups;
            const int x = X - lead16 + kGroupPx * gi;
#pragma unroll
            for (int k = 0; k < kGroupPx / 4; ++k) {
                const int col = col_first + kGroupPx * gi + 4 * k;
                if (col < 0 || col >= a.plane_cols) continue;
                std::uint32_t w[4];
                subgroup_words<C>(a.src, a.border, vec[b], u[b], k, x, Y - a.ay + r, w);
                __half* dst = planes + r * a.plane_cols + col;
#pragma unroll
                for (int c = 0; c < C; ++c)
                    *reinterpret_cast<uint2*>(dst + c * plane) =
                        make_uint2(exact_half2_lo(w[c]), exact_half2_hi(w[c]));
            }
        }
    }
}

template <int C, int KB>
__global__ void __launch_bounds__(256, C == 1 ? 3 : 2) custom_half_kernel(const __grid_constant__ CustomHalfArgs a,
                                                          const __grid_constant__ CustomHalfTables tables) {
    extern __shared__ __align__(16) unsigned char smem[];
    const int plane = a.plane_rows * a.plane_cols;  // f16 per plane, a multiple of 8
    auto* planes = reinterpret_cast<__half*>(smem);
    auto* bound = reinterpret_cast<std::int32_t*>(smem + static_cast<std::size_t>(C) * plane * 2);
    auto* tab = reinterpret_cast<std::uint32_t*>(bound + kBoundWords);
    auto* out = reinterpret_cast<std::uint8_t*>(tab + a.kh * a.pair_row);
    constexpr int kOutRow = out_tile_row(C);
    const int X = static_cast<int>(blockIdx.x) * kTileW;
    const int Y = static_cast<int>(blockIdx.y) * a.tile_h;
    const int nthreads = static_cast<int>(blockDim.x);
    const int tid = static_cast<int>(threadIdx.x);

    for (int i = tid; i < 257; i += nthreads) bound[i] = tables.bound[i];
    for (int i = tid; i < a.kh * a.pair_row; i += nthreads) tab[i] = tables.pairs[i];
    load_planes<C>(a, planes, plane, X, Y);
    __syncthreads();

    const int warp = tid / 32;
    const int lane = tid % 32;
    const int g = lane / 4;
    const int tq = lane % 4;
    const int row0 = 16 * (warp / 2);              // first output row of this warp in the tile
    const int col0 = CustomHalfPolicy::kWarpCols * (warp % 2);  // first output column
    // ldmatrix: lane l gives the address of row (l % 8) + 8 ((l / 8) % 2) of
    // chunk (l / 16) of a pair of chunks, so the four matrices are
    // (chunk u rows 0-7, rows 8-15, chunk u+1 rows 0-7, rows 8-15): the A
    // fragment of a 16 x 16 block whose left half is chunk u.
    const int lrow = (lane & 7) + 8 * ((lane >> 3) & 1);
    const int lcol = 8 * (lane >> 4);
    constexpr int kChunks = kNBlocks + 2 * KB - 1;  // 8-column chunks a warp reads per kernel row

    for (int c = 0; c < C; ++c) {
        float acc[kNBlocks][4];
#pragma unroll
        for (int q = 0; q < kNBlocks; ++q) acc[q][0] = acc[q][1] = acc[q][2] = acc[q][3] = 0.0f;
        const __half* base = planes + c * plane + (row0 + lrow) * a.plane_cols + col0 + lcol;
        const std::uint32_t* pr = tab + kPairLead + 2 * tq - g - a.shift;
        for (int j = 0; j < a.kh; ++j) {
            std::uint32_t ch[kChunks + 1][2];
            const __half* rowp = base + j * a.plane_cols;
#pragma unroll
            for (int u = 0; u + 1 < kChunks; u += 2) {
                std::uint32_t r4[4];
                ldmatrix_x4(r4, rowp + 8 * u);
                ch[u][0] = r4[0];
                ch[u][1] = r4[1];
                ch[u + 1][0] = r4[2];
                ch[u + 1][1] = r4[3];
            }
            if constexpr (kChunks % 2 == 1) {
                std::uint32_t r2[2];
                ldmatrix_x2(r2, rowp + 8 * (kChunks - 1));
                ch[kChunks - 1][0] = r2[0];
                ch[kChunks - 1][1] = r2[1];
            }
            std::uint32_t b[KB][2];
            const std::uint32_t* prj = pr + j * a.pair_row;
#pragma unroll
            for (int t = 0; t < KB; ++t) {
                b[t][0] = prj[16 * t];
                b[t][1] = prj[16 * t + 8];
            }
#pragma unroll
            for (int q = 0; q < kNBlocks; ++q) {
#pragma unroll
                for (int t = 0; t < KB; ++t) {
                    const int u = q + 2 * t;
                    const std::uint32_t av[4] = {ch[u][0], ch[u][1], ch[u + 1][0], ch[u + 1][1]};
                    mma_f16_m16n8k16(acc[q], av, b[t][0], b[t][1]);
                }
            }
        }
#pragma unroll
        for (int q = 0; q < kNBlocks; ++q) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int row = row0 + g + 8 * (e >> 1);
                const int col = col0 + 8 * q + 2 * tq + (e & 1);
                // acc is an exact integer below 2^24 in magnitude.
                out[row * kOutRow + col * C + c] = static_cast<std::uint8_t>(custom_level(
                    static_cast<int>(acc[q][e]), bound, a.level_negate, a.level_inverse, a.level_offset));
            }
        }
    }
    __syncthreads();

    // Copy out: 16-byte pieces of the interleaved tile rows.
    const int valid = ::min(kTileW, a.src.width - X) * C;  // bytes of each tile row inside the image
    constexpr int kPieces = kTileW * C / 16;
    for (int i = tid; i < a.tile_h * kPieces; i += nthreads) {
        const int r = i / kPieces;
        const int b0 = 16 * (i - r * kPieces);
        const int y = Y + r;
        if (y >= a.src.height || b0 >= valid) continue;
        const uint4 v = *reinterpret_cast<const uint4*>(out + r * kOutRow + b0);
        std::uint8_t* d = row_ptr(a.dst, y) + static_cast<std::size_t>(X) * C + b0;
        if (a.dst_vec && b0 + 16 <= valid) {
            *reinterpret_cast<uint4*>(d) = v;
        } else {
            const std::uint32_t words[4] = {v.x, v.y, v.z, v.w};
            const int n = ::min(16, valid - b0);
#pragma unroll
            for (int k = 0; k < 16; ++k)
                if (k < n) d[k] = static_cast<std::uint8_t>(byte_of(words[k / 4], k % 4));
        }
    }
}

template <int C, int KB>
void launch_typed(const CustomHalfArgs& a, const CustomHalfTables& tables, const CustomHalfShape& shape,
                  cudaStream_t stream) {
    allow_dynamic_smem(reinterpret_cast<const void*>(&custom_half_kernel<C, KB>), shape.smem);
    const int threads = 2 * 32 * (shape.tile_h / 16);
    const dim3 grid(static_cast<unsigned>(ceil_div(a.src.width, kTileW)),
                    static_cast<unsigned>(ceil_div(a.src.height, shape.tile_h)));
    if (grid.y > 65535u) throw usage_error("custom filter", "the image is too tall for this GPU kernel");
    custom_half_kernel<C, KB><<<grid, threads, shape.smem, stream>>>(a, tables);
    IMGPAR_CUDA_CHECK_LAUNCH("custom_half_kernel");
}

template <int C>
void launch_channels(const CustomHalfArgs& a, const CustomHalfTables& tables, const CustomHalfShape& shape,
                     cudaStream_t stream) {
    switch (shape.kb) {
        case 1: launch_typed<C, 1>(a, tables, shape, stream); break;
        case 2: launch_typed<C, 2>(a, tables, shape, stream); break;
        case 3: launch_typed<C, 3>(a, tables, shape, stream); break;
        case 4: launch_typed<C, 4>(a, tables, shape, stream); break;
        default: launch_typed<C, 5>(a, tables, shape, stream); break;
    }
}


}  // namespace

bool custom_half_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || plan.kind != FilterKind::Custom) return false;
    for (std::int32_t c : plan.coeffs)
        if (!exact_in_f16(c)) return false;
    const CustomHalfShape shape = custom_half_shape(plan, channels, dev);
    return shape.tile_h > 0 && shape.kb <= kMaxKb;
}

void launch_custom_half(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    const CustomHalfShape shape = custom_half_shape(plan, src.channels, dev);
    CustomHalfArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.kh = plan.kernel_height;
    a.ay = plan.anchor_y;
    a.lead = lead_of(plan);
    a.shift = a.lead - plan.anchor_x;
    a.pair_row = pair_row(shape.kb);
    a.tile_h = shape.tile_h;
    a.plane_cols = shape.plane_cols;
    a.plane_rows = shape.tile_h + plan.kernel_height - 1;
    a.src_vec = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_vec = rows_aligned(call.dst.data, call.dst.pitch, 16) ? 1 : 0;
    const CustomLevels levels = make_custom_levels(plan.scale * std::ldexp(1.0, plan.frac_bits), plan.offset);
    a.level_negate = levels.negate;
    a.level_inverse = levels.inverse;
    a.level_offset = levels.offset;

    // Pair m + kPairLead of row j: (coefficient(j, m), coefficient(j, m + 1)),
    // zero outside the kernel; every coefficient is an exact f16 (checked).
    auto coeff = [&](int j, int i) -> float {
        if (i < 0 || i >= plan.kernel_width) return 0.0f;
        return static_cast<float>(plan.coeffs[static_cast<std::size_t>(j) * plan.kernel_width + i]);
    };
    CustomHalfTables tables{};
    std::memcpy(tables.bound, levels.bound, sizeof tables.bound);
    for (int j = 0; j < a.kh; ++j)
        fill_half_pairs(&tables.pairs[j * a.pair_row], a.pair_row, kPairLead, [&](int i) { return coeff(j, i); });

    switch (src.channels) {
        case 1: launch_channels<1>(a, tables, shape, call.stream); break;
        case 3: launch_channels<3>(a, tables, shape, call.stream); break;
        default: throw_not_gray_or_rgb("custom filter", src.channels);
    }
}

}  // namespace imgpar::cuda::filter_detail
