// Box (mean) filter in one pass, for radii up to 128: no image-sized
// intermediate, so the image is read about once and written once. Gray and
// RGB filter their bytes (a column's window sums fit 16 bits); gray+alpha and
// RGBA the wide premultiplied lanes of src/ops/wide_math.hpp (32 bits).
//
// A block owns a tile of byte columns (its outputs plus a halo of R pixels
// each side, rounded to whole chunks) and a strip of rows; each thread owns a
// chunk of consecutive bytes of the tile (whole words and pixels: ByteLanes,
// WideLanes). Down the strip:
//   1. each thread slides its columns' (2R+1)-row window sums, two 16-bit
//      lanes a register (the rows entering and leaving are fetched a row
//      ahead, so their latency hides behind the row being finished);
//   2. the column sums become prefix sums along the row, per channel: in the
//      thread's registers, then across the warp with shuffles; each thread
//      stores its chunk's prefixes in shared memory and lane 31 the warp's
//      totals (one __syncthreads a row, two buffers alternating);
//   3. each output is the difference of two prefixes R pixels either side of
//      it, plus the totals of the warps between them.
// All integer, so the window sum S is exact; out = box_output(S, (2R+1)^2)
// (box_output_wide and the unpremultiply for alpha images). Larger radii run
// cuda/filter_box.cu (gray, RGB) and cuda/filter_wide.cu (alpha).

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cuda/check.hpp"
#include "cuda/filter_kernels_common.cuh"
#include "cuda/filter_launch.hpp"
#include "src/ops/wide_math.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

struct FusedArgs {
    SrcArg src;
    DstArg dst;
    BorderArg border;
    int radius;
    int count;               // (2R+1)^2
    std::uint32_t half_count;  // count / 2
    std::uint32_t magic;     // floor(2^32 / count) + 1, box_quotient's multiplier
    int halo;         // bytes of the tile left of its outputs (>= C*(R+1), whole chunks)
    int out_bytes;    // output bytes a tile writes (whole chunks)
    int strip_rows;   // rows a block slides down
    int src_words;    // rows readable as aligned 32-bit words
    int dst_words;    // rows writable as aligned 32-bit words
};

// round(s / n) as box_output and box_output_wide compute it, (s + n/2) / n,
// without a division: x * m / 2^32 with m = floor(2^32 / n) + 1 is q or q + 1
// for every x < 2^32 (its error is below x / 2^32 < 1), and one product
// check corrects it. s + n/2 < 2^32 for the sums here.
__device__ __forceinline__ int box_quotient(std::uint32_t s, const FusedArgs& a) {
    const std::uint32_t x = s + a.half_count;
    std::uint32_t q = __umulhi(x, a.magic);
    if (static_cast<unsigned long long>(q) * static_cast<std::uint32_t>(a.count) > x) --q;
    return static_cast<int>(q);
}

// The even and odd bytes of a word as two 16-bit lanes each.
__device__ __forceinline__ std::uint32_t even_bytes(std::uint32_t w) { return __byte_perm(w, 0u, 0x4240); }
__device__ __forceinline__ std::uint32_t odd_bytes(std::uint32_t w) { return __byte_perm(w, 0u, 0x4341); }

// What a thread's chunk holds, and how its column sums and outputs are made.
// Every chunk is whole words and whole pixels, so it starts word-aligned on
// channel 0, and its lanes repeat with a period of kChannels.
//
// Gray and RGB: a lane per byte; window sums of a column fit 16 bits
// (R <= 128), so two lanes share a register and one instruction adds both.
template <int C>
struct ByteLanes {
    static constexpr int kChannels = C;
    static constexpr int kBytes = C == 3 ? 12 : 8;
    static constexpr int kWords = kBytes / 4;
    static constexpr int kLanes = kBytes;
    // Threads resident on an SM, for ptxas's register budget: RGB takes 120
    // registers, gray 70 (ptxas -v, sm_90; RGB spilled under 96).
    static constexpr int kResidentThreads = C == 3 ? 512 : 768;
    std::uint32_t even[kWords], odd[kWords];

    __device__ __forceinline__ void clear() {
#pragma unroll
        for (int k = 0; k < kWords; ++k) even[k] = odd[k] = 0;
    }
    __device__ __forceinline__ void add(const std::uint32_t (&w)[kWords]) {
#pragma unroll
        for (int k = 0; k < kWords; ++k) {
            even[k] = __vadd2(even[k], even_bytes(w[k]));
            odd[k] = __vadd2(odd[k], odd_bytes(w[k]));
        }
    }
    // Lanes wrap modulo 2^16 in between; the result is below 2^16 again.
    __device__ __forceinline__ void slide(const std::uint32_t (&in)[kWords], const std::uint32_t (&out)[kWords]) {
#pragma unroll
        for (int k = 0; k < kWords; ++k) {
            even[k] = __vsub2(__vadd2(even[k], even_bytes(in[k])), even_bytes(out[k]));
            odd[k] = __vsub2(__vadd2(odd[k], odd_bytes(in[k])), odd_bytes(out[k]));
        }
    }
    __device__ __forceinline__ void sums(std::uint32_t (&v)[kLanes]) const {
#pragma unroll
        for (int k = 0; k < kWords; ++k) {
            v[4 * k + 0] = even[k] & 0xFFFFu;
            v[4 * k + 1] = odd[k] & 0xFFFFu;
            v[4 * k + 2] = even[k] >> 16;
            v[4 * k + 3] = odd[k] >> 16;
        }
    }
    // The chunk's output bytes from its lanes' window sums.
    static __device__ __forceinline__ void emit(const std::uint32_t (&s)[kLanes], const FusedArgs& a,
                                                std::uint32_t (&out)[kWords]) {
#pragma unroll
        for (int k = 0; k < kWords; ++k)
            out[k] = pack4(box_quotient(s[4 * k], a), box_quotient(s[4 * k + 1], a), box_quotient(s[4 * k + 2], a),
                           box_quotient(s[4 * k + 3], a));
    }
};

// Gray+alpha and RGBA: the wide premultiplied lanes of src/ops/wide_math.hpp
// (P = c * a, A = 255 * a, up to 65025), 4 pixels a chunk. Window sums reach
// 65025 * 257^2 < 2^32 at R = 128: a lane a register, exact in uint32.
template <int C>
struct WideLanes {
    static constexpr int kChannels = C;
    static constexpr int kBytes = 4 * C;
    static constexpr int kWords = C;
    static constexpr int kLanes = kBytes;
    // RGBA takes 117 registers, gray+alpha 72 (ptxas -v, sm_90): budgets of
    // 128 and 80, so 4 and 6 blocks of 128 threads fit an SM.
    static constexpr int kResidentThreads = C == 4 ? 512 : 768;
    std::uint32_t sum[kLanes];

    static __device__ __forceinline__ void lanes(const std::uint32_t (&w)[kWords], std::uint32_t (&v)[kLanes]) {
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const int b = p * C;  // the pixel's first byte in the chunk
            const int alpha = byte_of(w[(b + C - 1) / 4], (b + C - 1) % 4);
#pragma unroll
            for (int l = 0; l < C; ++l)
                v[b + l] = static_cast<std::uint32_t>(wide_lane(l, C - 1, byte_of(w[(b + l) / 4], (b + l) % 4), alpha));
        }
    }
    __device__ __forceinline__ void clear() {
#pragma unroll
        for (int l = 0; l < kLanes; ++l) sum[l] = 0;
    }
    __device__ __forceinline__ void add(const std::uint32_t (&w)[kWords]) {
        std::uint32_t v[kLanes];
        lanes(w, v);
#pragma unroll
        for (int l = 0; l < kLanes; ++l) sum[l] += v[l];
    }
    __device__ __forceinline__ void slide(const std::uint32_t (&in)[kWords], const std::uint32_t (&out)[kWords]) {
        std::uint32_t vi[kLanes], vo[kLanes];
        lanes(in, vi);
        lanes(out, vo);
#pragma unroll
        for (int l = 0; l < kLanes; ++l) sum[l] += vi[l] - vo[l];
    }
    __device__ __forceinline__ void sums(std::uint32_t (&v)[kLanes]) const {
#pragma unroll
        for (int l = 0; l < kLanes; ++l) v[l] = sum[l];
    }
    static __device__ __forceinline__ void emit(const std::uint32_t (&s)[kLanes], const FusedArgs& a,
                                                std::uint32_t (&out)[kWords]) {
        int b[kBytes];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            const int first = p * C;
            const int alpha = box_quotient(s[first + C - 1], a);
#pragma unroll
            for (int l = 0; l < C - 1; ++l) b[first + l] = unpremultiply_filtered(box_quotient(s[first + l], a), alpha);
            b[first + C - 1] = alpha_byte(alpha);
        }
#pragma unroll
        for (int k = 0; k < kWords; ++k) out[k] = pack4(b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]);
    }
};

// Word k of a chunk that does not lie whole inside the row (or of an
// unaligned image), byte by byte through the border rule (-1: the constant).
// Kept out of line: inlined into the row loop's loads it made the kernel
// several times larger, for the few chunks at the image's sides. It returns
// the word by value: an array passed to it would live in local memory, and
// every chunk's loads would go through it.
template <int C>
__device__ __noinline__ std::uint32_t load_word_bytes(const std::uint8_t* row, int x0, int k, const FusedArgs& a) {
    std::uint32_t v = 0;
    for (int e = 0; e < 4; ++e) {
        const int b = 4 * k + e;  // byte b of the chunk: channel b % C of pixel x0 + b / C
        const int xx = row == nullptr ? -1 : border_index(x0 + b / C, a.src.width, a.border.mode);
        const std::uint32_t s =
            xx < 0 ? static_cast<std::uint32_t>(a.border.constant[b % C]) : __ldg(row + xx * C + b % C);
        v |= s << (8 * e);
    }
    return v;
}

// Where a thread's chunk reads its bytes in any row: aligned words where the
// whole chunk lies inside the row, else load_word_bytes.
template <int C, int kBytes>
struct ChunkColumns {
    static constexpr int kWords = kBytes / 4;
    int first;   // the chunk's first byte in the row (may be outside it)
    int x0;      // its first pixel (first is a multiple of C)
    bool words;  // read as aligned words

    __device__ __forceinline__ void init(const FusedArgs& a, int first_byte) {
        first = first_byte;
        x0 = first >= 0 ? first / C : -((-first + C - 1) / C);
        words = a.src_words && first >= 0 && first + kBytes <= a.src.width * C;
    }

    // The chunk's words in a row (nullptr: a constant border row).
    __device__ __forceinline__ void load(const std::uint8_t* row, const FusedArgs& a, std::uint32_t (&w)[kWords]) const {
        if (row != nullptr && words) {
#pragma unroll
            for (int k = 0; k < kWords; ++k) w[k] = __ldg(reinterpret_cast<const std::uint32_t*>(row + first) + k);
        } else {
#pragma unroll
            for (int k = 0; k < kWords; ++k) w[k] = load_word_bytes<C>(row, x0, k, a);
        }
    }
};

// Row y of the source through the border rule (nullptr: the constant).
__device__ __forceinline__ const std::uint8_t* source_row(const FusedArgs& a, int y) {
    const int yy = border_index(y, a.src.height, a.border.mode);
    return yy < 0 ? nullptr : row_ptr(a.src, yy);
}

template <typename Lanes, int kThreads>
__global__ void __launch_bounds__(kThreads, Lanes::kResidentThreads / kThreads) box_fused(const __grid_constant__ FusedArgs a) {
    constexpr int C = Lanes::kChannels;
    constexpr int kBytes = Lanes::kBytes;
    constexpr int kWords = Lanes::kWords;
    constexpr int kLanes = Lanes::kLanes;
    constexpr int kStride = kLanes + 1;  // odd: a warp's chunks fall in distinct banks
    constexpr int kWarps = kThreads / 32;
    __shared__ std::uint32_t prefix[2][kThreads * kStride];
    __shared__ std::uint32_t warp_total[2][kWarps][C];

    const int t = threadIdx.x;
    const int lane = t & 31;
    const int warp = t >> 5;
    const int R = a.radius;
    const int rb = a.src.width * C;
    const int tile_first = static_cast<int>(blockIdx.x) * a.out_bytes - a.halo;
    ChunkColumns<C, kBytes> cols;
    cols.init(a, tile_first + t * kBytes);
    const bool writes = t * kBytes >= a.halo && t * kBytes < a.halo + a.out_bytes && cols.first < rb;
    // The prefixes an output reads: R pixels right of it (inclusive), R + 1
    // left; for lane e of the chunk they lie in chunk *_chunk (+1 from lane
    // *_split on), at shared-memory index *_at + e (+1 from there: the pad).
    const int ahead = t * kLanes + C * R;
    const int behind = max(t * kLanes - C * (R + 1), 0);  // (threads that write)
    const int ahead_chunk = ahead / kLanes;
    const int behind_chunk = behind / kLanes;
    const int ahead_split = kLanes - (ahead - ahead_chunk * kLanes);
    const int behind_split = kLanes - (behind - behind_chunk * kLanes);
    const int ahead_at = ahead_chunk * kStride + (ahead - ahead_chunk * kLanes);
    const int behind_at = behind_chunk * kStride + (behind - behind_chunk * kLanes);
    const bool dst_words = a.dst_words != 0;

    for (int y0 = static_cast<int>(blockIdx.y) * a.strip_rows; y0 < a.src.height;
         y0 += static_cast<int>(gridDim.y) * a.strip_rows) {
        const int y1 = min(y0 + a.strip_rows, a.src.height);
        Lanes column;
        column.clear();
#pragma unroll 2
        for (int j = -R; j <= R; ++j) {
            std::uint32_t w[kWords];
            cols.load(source_row(a, y0 + j), a, w);
            column.add(w);
        }
        // The words entering and leaving the window of the next row.
        std::uint32_t in[kWords], out[kWords];
        auto fetch = [&](int y) {
            cols.load(source_row(a, y + R), a, in);
            cols.load(source_row(a, y - R - 1), a, out);
        };
        if (y0 + 1 < y1) fetch(y0 + 1);

        for (int y = y0; y < y1; ++y) {
            const int buf = (y - y0) & 1;
            // Column sums of row y, then the next row's window.
            std::uint32_t v[kLanes];
            column.sums(v);
            if (y + 1 < y1) {
                column.slide(in, out);
                if (y + 2 < y1) fetch(y + 2);
            }
            // Prefix sums per channel: the chunk's, then the warp's.
#pragma unroll
            for (int e = C; e < kLanes; ++e) v[e] += v[e - C];
            std::uint32_t before[C];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const std::uint32_t total = v[kLanes - C + c];
                std::uint32_t inclusive = total;
#pragma unroll
                for (int d = 1; d < 32; d <<= 1) {
                    const std::uint32_t up = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
                    if (lane >= d) inclusive += up;
                }
                before[c] = inclusive - total;
                if (lane == 31) warp_total[buf][warp][c] = inclusive;
            }
            std::uint32_t* mine = prefix[buf] + t * kStride;
#pragma unroll
            for (int e = 0; e < kLanes; ++e) mine[e] = before[e % C] + v[e];
            __syncthreads();

            if (writes) {
                const std::uint32_t* p = prefix[buf];
                std::uint32_t s[kLanes];
#pragma unroll
                for (int e = 0; e < kLanes; ++e) {
                    const int wrap_a = e >= ahead_split ? 1 : 0;
                    const int wrap_b = e >= behind_split ? 1 : 0;
                    s[e] = p[ahead_at + e + wrap_a] - p[behind_at + e + wrap_b];
                    for (int w = (behind_chunk + wrap_b) >> 5; w < (ahead_chunk + wrap_a) >> 5; ++w)
                        s[e] += warp_total[buf][w][e % C];
                }
                std::uint32_t word_out[kWords];
                Lanes::emit(s, a, word_out);
                std::uint8_t* drow = row_ptr(a.dst, y);
#pragma unroll
                for (int k = 0; k < kWords; ++k) {
                    const int g = cols.first + 4 * k;
                    if (dst_words && g + 4 <= rb) {
                        *reinterpret_cast<std::uint32_t*>(drow + g) = word_out[k];
                    } else {
#pragma unroll
                        for (int e = 0; e < 4; ++e)
                            if (g + e < rb) drow[g + e] = static_cast<std::uint8_t>(byte_of(word_out[k], e));
                    }
                }
            }
        }
    }
}

// Launch policy (bench/TUNING.md, "Box filter in one pass"): 128 threads a
// block while the halo leaves three quarters of the tile to outputs, else
// 256; strips of 32 rows, the fastest of 16, 32, 64 and the grid-filling
// choice of 64-128 rows at radius 15 and 50 on an H100 (starting a strip's
// window costs 2R+1 row reads, but the shorter the strip the more blocks
// hide each other's waits). IMGPAR_BOX_STRIP_ROWS sets it, for tuning runs.
struct FusedPolicy {
    static constexpr int kStripRows = 32;
};

int strip_rows_override() {
    static const int rows = [] {
        const char* v = std::getenv("IMGPAR_BOX_STRIP_ROWS");
        return v != nullptr ? std::max(0, std::atoi(v)) : 0;
    }();
    return rows;
}

template <typename Lanes>
int halo_bytes(int radius) {
    return static_cast<int>(round_up(static_cast<std::size_t>(Lanes::kChannels) * (radius + 1), Lanes::kBytes));
}

template <typename Lanes, int kThreads>
void launch_fused(FusedArgs a, cudaStream_t stream) {
    const int rb = a.src.width * Lanes::kChannels;
    a.halo = halo_bytes<Lanes>(a.radius);
    a.out_bytes = kThreads * Lanes::kBytes - 2 * a.halo;
    const int tiles = ceil_div(rb, a.out_bytes);
    const int strip = strip_rows_override() > 0 ? strip_rows_override() : FusedPolicy::kStripRows;
    a.strip_rows = strip;
    const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(std::min(ceil_div(a.src.height, strip), 65535)));
    box_fused<Lanes, kThreads><<<grid, kThreads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("box_fused");
}

template <typename Lanes>
void launch_lanes(const FusedArgs& a, cudaStream_t stream) {
    if (4 * 2 * halo_bytes<Lanes>(a.radius) <= 128 * Lanes::kBytes)
        launch_fused<Lanes, 128>(a, stream);
    else
        launch_fused<Lanes, 256>(a, stream);
}

// The plans the kernel can run (the sums' widths bound the radius).
bool fused_takes(int radius, int channels) {
    return channels >= 1 && channels <= 4 && radius >= 1 && radius <= kBoxFusedMaxRadius;
}

}  // namespace

bool box_runs_fused(int radius, int channels) {
    if (!fused_takes(radius, channels)) return false;
    static const int forced = [] {
        const char* v = std::getenv("IMGPAR_BOX_ONE_PASS");
        return v == nullptr || *v == '\0' ? -1 : (std::atoi(v) != 0 ? 1 : 0);
    }();
    if (forced >= 0) return forced == 1;
    return has_alpha(channels);
}

void launch_box_fused(const FilterCall& call) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    if (!fused_takes(plan.radius, src.channels))
        throw std::logic_error("launch_box_fused: radius " + std::to_string(plan.radius) + " with " +
                               std::to_string(src.channels) + " channels is not the fused box's");
    FusedArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.radius = plan.radius;
    a.count = (2 * plan.radius + 1) * (2 * plan.radius + 1);
    a.half_count = static_cast<std::uint32_t>(a.count / 2);
    a.magic = static_cast<std::uint32_t>((std::uint64_t{1} << 32) / static_cast<std::uint64_t>(a.count) + 1);
    a.src_words = rows_aligned(src.data, src.pitch, 4) ? 1 : 0;
    a.dst_words = rows_aligned(call.dst.data, call.dst.pitch, 4) ? 1 : 0;
    switch (src.channels) {
        case 1: launch_lanes<ByteLanes<1>>(a, call.stream); break;
        case 2: launch_lanes<WideLanes<2>>(a, call.stream); break;
        case 3: launch_lanes<ByteLanes<3>>(a, call.stream); break;
        default: launch_lanes<WideLanes<4>>(a, call.stream); break;
    }
}

}  // namespace imgpar::cuda::filter_detail
