// GPU crop, flip, flop, transpose, rotations by multiples of 90 and pad:
// dispatch -> two thin kernels -> chunk helpers (cuda/geometry_block.cuh).
// Every kernel only moves bytes (the contract is src/ops/geometry.hpp), so
// the bytes equal the CPU's by construction; what matters is that each moves
// them at the speed of a copy. The kernels see pixels of C bytes: an 8-bit
// image's channel count, twice that for 16-bit samples (a 16-bit pixel
// moves as one 2-, 4-, 6- or 8-byte unit; its samples are never split), so
// 16-bit images take the same 16-byte loads and stores:
//   remap_kernel      16 output bytes per thread and step (a warp: 512
//                     contiguous bytes, whatever the channel count), 16-byte
//                     stores; the source read with aligned 16-byte loads and
//                     funnel shifts at any byte offset (crop, pad), a short
//                     window reversed pixel by pixel in registers (flop,
//                     rotate 180), rows in any order (flip). Crop, flip,
//                     flop, rotate 180/0 and pad.
//   turn_tile_kernel  64x64-pixel tiles through shared memory (rows padded to an
//                     odd number of words against bank conflicts): rows of the
//                     source in with 16-byte loads, rows of the output out with
//                     16-byte stores. Transpose, rotate 90 and 270.
#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/geometry_block.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "src/ops/border.hpp"
#include "src/ops/geometry.hpp"

namespace imgpar::cuda {
namespace {

// Launch shapes: streaming passes of 256 threads over co-resident blocks (as
// the histogram family's apply passes), and 256 threads per 64x64 tile.
struct GeometryPolicy {
    int block_threads = 256;
};
constexpr int kTile = 64;

// --- remap: output rows from source rows -------------------------------------

enum class RemapMode {
    Shift,    // source column col0 + x of row row0 + row_step * y (crop, flip, copy)
    Reverse,  // source column src_w - 1 - x of that row (flop, rotate 180)
    Border,   // Shift through the border rule (pad)
};

// The output is walked in chunks of 16 bytes (the last of a row may be
// shorter): a warp's 32 chunks are 512 contiguous bytes of a row whatever the
// channel count, so loads and stores coalesce.
struct RemapArgs {
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    int src_w = 0, src_h = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int dst_row_bytes = 0;
    unsigned chunks_per_row = 0;
    unsigned total = 0;  // below 2^31
    bool vec = false;    // both images' rows 16-byte aligned
    int row0 = 0, row_step = 1, col0 = 0;
    BorderMode border = BorderMode::Constant;
    // The background pixel, its byte c in byte c (up to 8: 16-bit RGBA): read
    // with a shift, as an array indexed by a run-time channel made every
    // thread copy the whole argument block to local memory (80 bytes a
    // thread, a fifth of an RGB image's traffic again).
    std::uint64_t fill = 0;
};

__device__ __forceinline__ int fill_byte(const RemapArgs& a, int c) {
    return static_cast<int>((a.fill >> (8 * c)) & 0xffu);
}

// Output byte b (of a row) is byte b % C of pixel b / C.
template <int C, RemapMode kMode>
__device__ __forceinline__ int remap_byte(const RemapArgs& a, const std::uint8_t* row, int b) {
    const int x = b / C, c = b % C;
    int sx;
    if constexpr (kMode == RemapMode::Reverse) {
        sx = a.src_w - 1 - x;
    } else {
        sx = a.col0 + x;
        if constexpr (kMode == RemapMode::Border) sx = border_index(sx, a.src_w, a.border);
    }
    if (sx < 0) return fill_byte(a, c);
    return row[static_cast<std::size_t>(sx) * C + c];
}

// The 16 output bytes at b0 of a row whose pixels are reversed (a full chunk).
template <int C>
__device__ __forceinline__ void reverse_chunk(const RemapArgs& a, const std::uint8_t* row, int b0, std::uint32_t (&w)[4]) {
    constexpr int Q = geo::span_pixels<C>();
    const int first = a.src_w - b0 / C - Q;  // the lowest source pixel of the span
    std::uint32_t window[6];
    geo::load_window(row, static_cast<std::size_t>(first) * C, Q * C, window);
    geo::reverse16<C>(window, b0 % C, w);
}

template <int C, RemapMode kMode>
__global__ void __launch_bounds__(256) remap_kernel(RemapArgs a) {
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.total; k += stride) {
        const unsigned yu = k / a.chunks_per_row;
        const int y = static_cast<int>(yu);
        const int b0 = static_cast<int>((k - yu * a.chunks_per_row) * 16);
        const int n = min(16, a.dst_row_bytes - b0);
        int sy = a.row0 + a.row_step * y;
        if constexpr (kMode == RemapMode::Border) sy = border_index(sy, a.src_h, a.border);
        const std::uint8_t* row = sy < 0 ? nullptr : a.src + static_cast<std::size_t>(sy) * a.src_pitch;
        std::uint32_t w[4] = {0, 0, 0, 0};
        bool done = false;
        if (a.vec && n == 16 && sy >= 0) {
            if constexpr (kMode == RemapMode::Reverse) {
                // 6-byte pixels: the window's fourth pixel may lie before
                // the row where the chunk ends the output row (bytes then).
                if (C != 6 || a.src_w - b0 / C - geo::span_pixels<C>() >= 0) {
                    reverse_chunk<C>(a, row, b0, w);
                    done = true;
                }
            } else {
                // Contiguous in the source unless a border rule intervenes.
                const int x0 = b0 / C, x1 = (b0 + 15) / C;
                if (kMode == RemapMode::Shift || (a.col0 + x0 >= 0 && a.col0 + x1 < a.src_w)) {
                    geo::load16_shifted(row, static_cast<std::size_t>(a.col0) * C + b0, w);
                    done = true;
                }
            }
        }
        if (!done) {
#pragma unroll
            for (int j = 0; j < 16; ++j)
                if (j < n) {
                    const int v = row ? remap_byte<C, kMode>(a, row, b0 + j) : fill_byte(a, (b0 + j) % C);
                    w[j >> 2] |= static_cast<std::uint32_t>(v) << (8 * (j & 3));
                }
        }
        std::uint8_t* d = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + b0;
        if (a.vec && n == 16) {
            *reinterpret_cast<uint4*>(d) = make_uint4(w[0], w[1], w[2], w[3]);
        } else {
#pragma unroll
            for (int j = 0; j < 16; ++j)
                if (j < n) d[j] = static_cast<std::uint8_t>(w[j >> 2] >> (8 * (j & 3)));
        }
    }
}

// --- turn: transposing tiles ------------------------------------------------------

struct TileArgs {
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    int src_w = 0, src_h = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int tiles_x = 0;
    unsigned tiles = 0;
    bool vec = false;
};

// RGB output rows staged in shared memory: 200 bytes apart (50 words), so the
// 4x4 blocks' word stores below meet no bank conflicts (8-byte aligned rows:
// they go out as two 8-byte reads a 16-byte chunk).
constexpr int kStagedRow = 200;

// The RGB tile turned into staged output rows: thread (pb, jb) takes output
// pixels 4 pb .. 4 pb + 3 (tile rows p, or 63 - p for rotate 90) of output
// rows 4 jb .. 4 jb + 3 (tile columns). It reads each tile row's four pixels
// as three words (twelve bytes at a word boundary) and assembles each output
// row's twelve bytes by byte permutes: pixel d of a row's group is bytes
// 3d .. 3d + 2 of its three words. Lanes: pb = lane % 8 (+ 8), jb = lane / 8
// (+ 4 per warp pair), which spreads both the word reads (tile rows an odd 49
// words apart) and the staged stores over 32 banks.
template <Turn kTurn>
__device__ __forceinline__ void turn_blocks_rgb(const std::uint8_t* tile, int row_bytes, std::uint8_t* staged) {
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
    const int pb = lane % 8 + 8 * (warp % 2), jb = lane / 8 + 4 * (warp / 2);
    std::uint32_t w[4][3];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int p = 4 * pb + k;
        const int r = kTurn == Turn::Rotate90 ? kTile - 1 - p : p;
        const std::uint32_t* src = reinterpret_cast<const std::uint32_t*>(tile + r * row_bytes + 12 * jb);
        w[k][0] = src[0];
        w[k][1] = src[1];
        w[k][2] = src[2];
    }
#pragma unroll
    for (int d = 0; d < 4; ++d) {
        std::uint32_t px[4];  // pixel d of each row's group, in the low three bytes
#pragma unroll
        for (int k = 0; k < 4; ++k)
            px[k] = d == 0 ? w[k][0] : d == 1 ? __byte_perm(w[k][0], w[k][1], 0x0543)
                  : d == 2 ? __byte_perm(w[k][1], w[k][2], 0x0432) : w[k][2] >> 8;
        std::uint32_t* out = reinterpret_cast<std::uint32_t*>(staged + (4 * jb + d) * kStagedRow + 12 * pb);
        out[0] = __byte_perm(px[0], px[1], 0x4210);
        out[1] = __byte_perm(px[1], px[2], 0x5421);
        out[2] = __byte_perm(px[2], px[3], 0x6542);
    }
}

// Block b takes source columns [64 tx, 64 tx + 64) (16-byte aligned in an
// aligned row) and 64 source rows from r0, chosen so that the output columns
// they become are [64 ty, 64 ty + 64) (aligned too): output pixel p of the
// tile's output row j comes from tile row p (transpose, rotate 270) or 63 - p
// (rotate 90), tile column j. Output row: 64 tx + j, or src_w - 1 - (64 tx + j)
// for rotate 270.
template <int C, Turn kTurn>
__global__ void __launch_bounds__(256) turn_tile_kernel(TileArgs a) {
    // Shared bytes per tile row: an odd number of 4-byte words, so the bytes
    // one output row gathers down a column of the tile (rows 4 q + k or 16 q + k
    // apart across a warp) fall in different banks (at most 2-way conflicts;
    // a 16-byte multiple made them 4-way for gray and 8-way for RGBA).
    constexpr int kRow = kTile * C + 4;
    constexpr int kVectors = kTile * C / 16;  // 16-byte vectors per tile row
    __shared__ __align__(16) std::uint8_t tile[kTile * kRow];
    // RGB's staged output rows (kStagedRow bytes each); one byte elsewhere.
    __shared__ __align__(16) std::uint8_t staged[C == 3 ? kTile * kStagedRow : 1];
    for (unsigned b = blockIdx.x; b < a.tiles; b += gridDim.x) {
        const int tx = static_cast<int>(b % static_cast<unsigned>(a.tiles_x));
        const int ty = static_cast<int>(b / static_cast<unsigned>(a.tiles_x));
        const int sx0 = tx * kTile;
        const int r0 = kTurn == Turn::Rotate90 ? a.src_h - kTile * (ty + 1) : ty * kTile;
        const int in_bytes = min(kTile, a.src_w - sx0) * C;  // of each source row
        if (a.vec) {
            for (int i = threadIdx.x; i < kTile * kVectors; i += blockDim.x) {
                const int r = i / kVectors, q = i % kVectors;
                const int sy = r0 + r;
                if (sy < 0 || sy >= a.src_h || q * 16 >= in_bytes) continue;
                const uint4* p = reinterpret_cast<const uint4*>(a.src + static_cast<std::size_t>(sy) * a.src_pitch +
                                                                static_cast<std::size_t>(sx0) * C);
                const uint4 v = __ldg(p + q);
                std::uint32_t* t = reinterpret_cast<std::uint32_t*>(tile + r * kRow + q * 16);
                t[0] = v.x;
                t[1] = v.y;
                t[2] = v.z;
                t[3] = v.w;
            }
        } else {
            for (int i = threadIdx.x; i < kTile * kTile * C; i += blockDim.x) {
                const int r = i / (kTile * C), x = i % (kTile * C);
                const int sy = r0 + r;
                if (sy < 0 || sy >= a.src_h || x >= in_bytes) continue;
                tile[r * kRow + x] = a.src[static_cast<std::size_t>(sy) * a.src_pitch + static_cast<std::size_t>(sx0) * C + x];
            }
        }
        __syncthreads();
        const int columns = min(kTile, a.src_w - sx0);  // output rows of this tile
        const int out_bytes = min(kTile, a.src_h - ty * kTile) * C;  // of each output row (output width = src_h)
        if constexpr (C == 3) {
            // RGB: each thread turns a 4x4 block of pixels in registers (word
            // reads, byte permutes) into the staging tile, then the staged rows
            // go out as the other layouts' rows do.
            turn_blocks_rgb<kTurn>(tile, kRow, staged);
            __syncthreads();
        }
        for (int i = threadIdx.x; i < kTile * kVectors; i += blockDim.x) {
            const int j = i / kVectors, q = i % kVectors;
            if (j >= columns || q * 16 >= out_bytes) continue;
            const int oy = kTurn == Turn::Rotate270 ? a.src_w - 1 - (sx0 + j) : sx0 + j;
            std::uint8_t* d = a.dst + static_cast<std::size_t>(oy) * a.dst_pitch + static_cast<std::size_t>(ty) * kTile * C +
                              q * 16;
            std::uint32_t w[4];
            if constexpr (C == 3) {
                const uint2* s2 = reinterpret_cast<const uint2*>(staged + j * kStagedRow + q * 16);
                const uint2 lo = s2[0], hi = s2[1];
                w[0] = lo.x;
                w[1] = lo.y;
                w[2] = hi.x;
                w[3] = hi.y;
            } else {
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    std::uint32_t word = 0;
#pragma unroll
                    for (int bb = 0; bb < 4; ++bb) {
                        const int byte = q * 16 + k * 4 + bb;
                        const int p = byte / C, c = byte % C;
                        const int r = kTurn == Turn::Rotate90 ? kTile - 1 - p : p;
                        word |= static_cast<std::uint32_t>(tile[r * kRow + j * C + c]) << (8 * bb);
                    }
                    w[k] = word;
                }
            }
            if (a.vec && q * 16 + 16 <= out_bytes) {
                *reinterpret_cast<uint4*>(d) = make_uint4(w[0], w[1], w[2], w[3]);
            } else {
#pragma unroll
                for (int bb = 0; bb < 16; ++bb)
                    if (q * 16 + bb < out_bytes) d[bb] = static_cast<std::uint8_t>(w[bb >> 2] >> (8 * (bb & 3)));
            }
        }
        __syncthreads();  // the tile is reused by the block's next b
    }
}

// --- Dispatch -------------------------------------------------------------------

// An image as the kernels see it: pixels of `bpp` bytes (channels x sample
// bytes), checked by the typed entry points below.
struct Bytes {
    const std::uint8_t* data = nullptr;
    int width = 0, height = 0, bpp = 1;
    std::size_t pitch = 0;
    std::size_t row_bytes() const { return static_cast<std::size_t>(width) * bpp; }
};

template <typename T>
Bytes bytes_of(const DeviceView<T>& v) {
    return {reinterpret_cast<const std::uint8_t*>(v.data), v.width, v.height, v.channels * static_cast<int>(sizeof(T)),
            v.pitch};
}

// The device checks (pointer, pitch, the 2^31-chunk bound) on the image's
// bytes: a 16-bit image as an 8-bit one twice as wide.
template <typename T>
void check_device(const DeviceView<T>& v, const char* what) {
    hist::check_device_image(ConstDeviceViewU8{reinterpret_cast<const std::uint8_t*>(v.data),
                                               v.width * static_cast<int>(sizeof(T)), v.height, v.channels, v.pitch},
                             what);
}

bool vector_ok(const Bytes& src, const Bytes& dst) {
    return hist::vector_ok(src.data, src.pitch) && hist::vector_ok(dst.data, dst.pitch);
}

template <typename T>
void check_shapes(const DeviceView<const T>& src, const DeviceView<T>& dst, int w, int h, const char* what) {
    check_device(src, what);
    check_device(dst, what);
    if (dst.width != w || dst.height != h || dst.channels != src.channels)
        throw usage_error(what, "the output must be " + std::to_string(w) + "x" + std::to_string(h) + " with the input's " +
                                    std::to_string(src.channels) + " channel(s)");
}

RemapArgs remap_args(const Bytes& src, const Bytes& dst) {
    RemapArgs a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.src_w = src.width;
    a.src_h = src.height;
    a.dst = const_cast<std::uint8_t*>(dst.data);
    a.dst_pitch = dst.pitch;
    a.dst_row_bytes = static_cast<int>(dst.row_bytes());
    a.chunks_per_row = static_cast<unsigned>((dst.row_bytes() + 15) / 16);
    const unsigned long long total = static_cast<unsigned long long>(a.chunks_per_row) * static_cast<unsigned>(dst.height);
    if (dst.row_bytes() > static_cast<std::size_t>(1) << 30 || total >= (1ull << 31))
        throw usage_error("geometry", "the output is too large for the GPU path (at most 2^31 chunks of 16 bytes)");
    a.total = static_cast<unsigned>(total);
    a.vec = vector_ok(src, dst);
    return a;
}

template <int C, RemapMode kMode>
void launch_remap_c(const RemapArgs& a, cudaStream_t stream) {
    const GeometryPolicy policy;
    auto kernel = remap_kernel<C, kMode>;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned long long needed = (a.total + policy.block_threads - 1ull) / policy.block_threads;
    const unsigned blocks = static_cast<unsigned>(
        std::max(1ull, std::min<unsigned long long>(needed, static_cast<unsigned long long>(std::max(1, resident)))));
    kernel<<<blocks, policy.block_threads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("remap_kernel");
}

// Pixels of 1-4 bytes (8-bit images), 6 and 8 (16-bit RGB, RGBA; 16-bit
// gray and gray+alpha are 2 and 4).
template <RemapMode kMode>
void launch_remap(const RemapArgs& a, int bpp, cudaStream_t stream) {
    switch (bpp) {
        case 1: launch_remap_c<1, kMode>(a, stream); break;
        case 2: launch_remap_c<2, kMode>(a, stream); break;
        case 3: launch_remap_c<3, kMode>(a, stream); break;
        case 4: launch_remap_c<4, kMode>(a, stream); break;
        case 6: launch_remap_c<6, kMode>(a, stream); break;
        default: launch_remap_c<8, kMode>(a, stream); break;
    }
}

template <int C, Turn kTurn>
void launch_tiles_c(const TileArgs& a, cudaStream_t stream) {
    const GeometryPolicy policy;
    auto kernel = turn_tile_kernel<C, kTurn>;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned blocks = std::max(1u, std::min(a.tiles, static_cast<unsigned>(std::max(1, resident))));
    kernel<<<blocks, policy.block_threads, 0, stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("turn_tile_kernel");
}

template <Turn kTurn>
void launch_tiles(const TileArgs& a, int bpp, cudaStream_t stream) {
    switch (bpp) {
        case 1: launch_tiles_c<1, kTurn>(a, stream); break;
        case 2: launch_tiles_c<2, kTurn>(a, stream); break;
        case 3: launch_tiles_c<3, kTurn>(a, stream); break;
        case 4: launch_tiles_c<4, kTurn>(a, stream); break;
        case 6: launch_tiles_c<6, kTurn>(a, stream); break;
        default: launch_tiles_c<8, kTurn>(a, stream); break;
    }
}

void crop_bytes(const Bytes& src, const Bytes& dst, int x, int y, cudaStream_t stream) {
    RemapArgs a = remap_args(src, dst);
    a.row0 = y;
    a.col0 = x;
    launch_remap<RemapMode::Shift>(a, src.bpp, stream);
}

void turn_bytes(const Bytes& src, const Bytes& dst, Turn t, cudaStream_t stream) {
    if (!turn_swaps_sides(t)) {
        RemapArgs a = remap_args(src, dst);
        const bool flip = t == Turn::Flip || t == Turn::Rotate180;
        a.row0 = flip ? src.height - 1 : 0;
        a.row_step = flip ? -1 : 1;
        if (t == Turn::Flop || t == Turn::Rotate180)
            launch_remap<RemapMode::Reverse>(a, src.bpp, stream);
        else
            launch_remap<RemapMode::Shift>(a, src.bpp, stream);
        return;
    }
    TileArgs a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.src_w = src.width;
    a.src_h = src.height;
    a.dst = const_cast<std::uint8_t*>(dst.data);
    a.dst_pitch = dst.pitch;
    a.tiles_x = (src.width + kTile - 1) / kTile;
    const unsigned long long tiles =
        static_cast<unsigned long long>(a.tiles_x) * static_cast<unsigned long long>((src.height + kTile - 1) / kTile);
    a.tiles = static_cast<unsigned>(tiles);  // below 2^31: check_device_image bounds the 16-pixel chunks
    a.vec = vector_ok(src, dst);
    switch (t) {
        case Turn::Transpose: launch_tiles<Turn::Transpose>(a, src.bpp, stream); break;
        case Turn::Rotate90: launch_tiles<Turn::Rotate90>(a, src.bpp, stream); break;
        default: launch_tiles<Turn::Rotate270>(a, src.bpp, stream); break;
    }
}

void pad_bytes(const Bytes& src, const Bytes& dst, const PadSides& s, BorderMode border, std::uint64_t fill,
               cudaStream_t stream) {
    RemapArgs a = remap_args(src, dst);
    a.row0 = -s.top;
    a.col0 = -s.left;
    a.border = border;
    a.fill = fill;
    launch_remap<RemapMode::Border>(a, src.bpp, stream);
}

template <typename T>
void crop_any(const DeviceView<const T>& src, const DeviceView<T>& dst, int x, int y, cudaStream_t stream) {
    check_device(src, "crop");
    if (x < 0 || y < 0 || static_cast<long long>(x) + dst.width > src.width ||
        static_cast<long long>(y) + dst.height > src.height)
        throw usage_error("crop", "the box lies outside the input");
    check_shapes(src, dst, dst.width, dst.height, "crop");
    crop_bytes(bytes_of(src), bytes_of(dst), x, y, stream);
}

template <typename T>
void turn_any(const DeviceView<const T>& src, const DeviceView<T>& dst, Turn t, cudaStream_t stream) {
    const bool swap = turn_swaps_sides(t);
    check_shapes(src, dst, swap ? src.height : src.width, swap ? src.width : src.height, "turn");
    turn_bytes(bytes_of(src), bytes_of(dst), t, stream);
}

// The fill's samples little-endian, byte c of the pixel in byte c.
template <typename T, std::size_t N>
std::uint64_t packed_fill(const std::array<T, N>& fill) {
    std::uint64_t packed = 0;
    for (std::size_t i = 0; i < N; ++i)
        packed |= static_cast<std::uint64_t>(fill[i]) << (8 * sizeof(T) * i);
    return packed;
}

template <typename T>
void pad_any(const DeviceView<const T>& src, const DeviceView<T>& dst, const PadSides& s, BorderMode border,
             const std::array<T, 4>& fill, cudaStream_t stream) {
    if (s.top < 0 || s.bottom < 0 || s.left < 0 || s.right < 0) throw usage_error("pad", "a side is negative");
    const long long w = static_cast<long long>(src.width) + s.left + s.right;
    const long long h = static_cast<long long>(src.height) + s.top + s.bottom;
    if (w > (1LL << 31) - 1 || h > (1LL << 31) - 1) throw usage_error("pad", "the padded image is too large");
    check_shapes(src, dst, static_cast<int>(w), static_cast<int>(h), "pad");
    pad_bytes(bytes_of(src), bytes_of(dst), s, border, packed_fill(fill), stream);
}

}  // namespace

void crop(const ConstDeviceViewU8& src, const DeviceViewU8& dst, int x, int y, cudaStream_t stream) {
    crop_any(src, dst, x, y, stream);
}
void crop(const ConstDeviceViewU16& src, const DeviceViewU16& dst, int x, int y, cudaStream_t stream) {
    crop_any(src, dst, x, y, stream);
}
void turn(const ConstDeviceViewU8& src, const DeviceViewU8& dst, Turn t, cudaStream_t stream) {
    turn_any(src, dst, t, stream);
}
void turn(const ConstDeviceViewU16& src, const DeviceViewU16& dst, Turn t, cudaStream_t stream) {
    turn_any(src, dst, t, stream);
}
void pad(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const PadSides& s, BorderMode border,
         const std::array<std::uint8_t, 4>& fill, cudaStream_t stream) {
    pad_any(src, dst, s, border, fill, stream);
}
void pad(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const PadSides& s, BorderMode border,
         const std::array<std::uint16_t, 4>& fill, cudaStream_t stream) {
    pad_any(src, dst, s, border, fill, stream);
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

namespace {

std::string turn_kernel_name(Turn t) {
    if (turn_swaps_sides(t))
        return "turn_tile_kernel (64x64-pixel tiles through shared memory, 16-byte loads and stores)";
    if (t == Turn::Flop || t == Turn::Rotate180) return "remap_kernel (16 bytes per thread, pixels reversed in registers)";
    return "remap_kernel (16 bytes per thread, 16-byte row copies)";
}

const char* const kCropKernel = "remap_kernel (16 bytes per thread, shifted 16-byte loads)";
const char* const kPadKernel = "remap_kernel (16 bytes per thread, shifted 16-byte loads, border bytes one by one)";

}  // namespace

void crop(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, int x, int y, std::string* kernel) {
    cuda::crop(src, dst, x, y, cuda::enter(session));
    if (kernel) *kernel = kCropKernel;
}
void crop(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, int x, int y, std::string* kernel) {
    cuda::crop(src, dst, x, y, cuda::enter(session));
    if (kernel) *kernel = kCropKernel;
}

void turn(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, Turn t, std::string* kernel) {
    cuda::turn(src, dst, t, cuda::enter(session));
    if (kernel) *kernel = turn_kernel_name(t);
}
void turn(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, Turn t, std::string* kernel) {
    cuda::turn(src, dst, t, cuda::enter(session));
    if (kernel) *kernel = turn_kernel_name(t);
}

void pad(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const PadSides& sides, BorderMode border,
         const std::array<std::uint8_t, 4>& fill, std::string* kernel) {
    cuda::pad(src, dst, sides, border, fill, cuda::enter(session));
    if (kernel) *kernel = kPadKernel;
}
void pad(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const PadSides& sides, BorderMode border,
         const std::array<std::uint16_t, 4>& fill, std::string* kernel) {
    cuda::pad(src, dst, sides, border, fill, cuda::enter(session));
    if (kernel) *kernel = kPadKernel;
}

}  // namespace imgpar::gpu
