// GPU grayscale, extract-channel, flatten and add-alpha: one streaming pass
// (16 pixels per thread and step, 16-byte loads and stores: the histogram
// family's chunks, cuda/histogram_block.cuh) that calls the CPU's per-pixel
// function (src/ops/colour_math.hpp), so the bytes are the CPU's; add-alpha
// walks its wider output in 16-byte chunks instead, and an image a map leaves
// unchanged is copied by geometry's remap kernel. 16-bit images: a kernel of
// four pixels per thread with 8-byte loads and stores (colour16_kernel) over
// the same per-pixel function on u16 samples.
#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/geometry_block.cuh"
#include "cuda/histogram_block.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/occupancy.hpp"
#include "cuda/session.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/geometry.hpp"

namespace imgpar::cuda {

// cuda/geometry.cu: the copy and reordering kernels.
void turn(const ConstDeviceViewU8& src, const DeviceViewU8& dst, Turn t, cudaStream_t stream);
void turn(const ConstDeviceViewU16& src, const DeviceViewU16& dst, Turn t, cudaStream_t stream);

namespace {

// Launch shape: 256 threads, as many blocks as are co-resident (grid-stride),
// as the histogram family's apply passes.
struct ColourPolicy {
    int block_threads = 256;
};

template <ColourOp kOp, int C>
__global__ void __launch_bounds__(256) colour_kernel(hist::ApplyArgs a, ColourArgs args) {
    constexpr int CO = colour_output_channels(kOp, C);
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.grid.total; k += stride) {
        int y, x0, n;
        hist::locate_chunk(a.grid, k, y, x0, n);
        hist::Chunk<C> in;
        hist::Chunk<CO> out;
        hist::load_chunk<C, true>(a.src + static_cast<std::size_t>(y) * a.src_pitch + static_cast<std::size_t>(x0) * C, n,
                                  a.vec, in);
        out.clear();
#pragma unroll
        for (int i = 0; i < hist::kChunkPixels; ++i) {
            std::uint8_t px[C], o[CO];
#pragma unroll
            for (int c = 0; c < C; ++c) px[c] = static_cast<std::uint8_t>(in.byte(i * C + c));
            colour_pixel_map<kOp, C>(args, px, o);
#pragma unroll
            for (int c = 0; c < CO; ++c) out.put(i * CO + c, o[c]);
        }
        hist::store_chunk<CO>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch + static_cast<std::size_t>(x0) * CO, n,
                              a.vec, out);
    }
}

// add-alpha, which widens every pixel (gray -> gray+alpha, RGB -> RGBA): the
// output walked in 16-byte chunks (8 or 4 pixels), so a warp's stores are 512
// contiguous bytes, each chunk's 8 or 12 input bytes read through a shifted
// window (the 16-pixel chunks above stored 32 or 64 bytes per thread, strided
// across the warp: 1.25x and 1.46x a copy of the bytes moved, on an H100).
struct WidenArgs {
    const std::uint8_t* src = nullptr;
    std::size_t src_pitch = 0;
    std::uint8_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int dst_row_bytes = 0;
    unsigned chunks_per_row = 0, total = 0;
    bool vec = false;
};

template <int C>
__global__ void __launch_bounds__(256) add_alpha_kernel(WidenArgs a, int alpha) {
    constexpr int CO = C + 1, P = 16 / CO;  // output pixels per full chunk
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < a.total; k += stride) {
        const unsigned y = k / a.chunks_per_row;
        const int b0 = static_cast<int>((k - y * a.chunks_per_row) * 16);
        const int n = min(16, a.dst_row_bytes - b0);
        const std::uint8_t* row = a.src + static_cast<std::size_t>(y) * a.src_pitch;
        const std::size_t first = static_cast<std::size_t>(b0 / CO) * C;  // the chunk's first input byte
        std::uint8_t* d = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + b0;
        if (a.vec && n == 16) {
            std::uint32_t in[6], w[4];
            geo::load_window(row, first, P * C, in);
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                std::uint32_t word = 0;
#pragma unroll
                for (int b = 0; b < 4; ++b) {
                    const int j = 4 * q + b, p = j / CO, c = j % CO;
                    const std::uint32_t v = c == C ? static_cast<std::uint32_t>(alpha) : geo::byte_of(in, p * C + c);
                    word |= v << (8 * b);
                }
                w[q] = word;
            }
            *reinterpret_cast<uint4*>(d) = make_uint4(w[0], w[1], w[2], w[3]);
        } else {
            for (int j = 0; j < n; ++j) {
                const int p = j / CO, c = j % CO;
                d[j] = c == C ? static_cast<std::uint8_t>(alpha) : row[first + static_cast<std::size_t>(p) * C + c];
            }
        }
    }
}

template <int C>
void launch_add_alpha(const ConstDeviceViewU8& src, const DeviceViewU8& dst, int alpha, cudaStream_t stream) {
    WidenArgs a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.dst_row_bytes = static_cast<int>(dst.row_bytes());
    a.chunks_per_row = static_cast<unsigned>((dst.row_bytes() + 15) / 16);
    const unsigned long long total = static_cast<unsigned long long>(a.chunks_per_row) * static_cast<unsigned>(dst.height);
    if (dst.row_bytes() > static_cast<std::size_t>(1) << 30 || total >= (1ull << 31))
        throw usage_error("add-alpha", "the output is too large for the GPU path (at most 2^31 chunks of 16 bytes)");
    a.total = static_cast<unsigned>(total);
    a.vec = hist::vector_ok(src.data, src.pitch) && hist::vector_ok(dst.data, dst.pitch);
    const ColourPolicy policy;
    auto kernel = add_alpha_kernel<C>;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned long long needed = (a.total + policy.block_threads - 1ull) / policy.block_threads;
    const unsigned blocks = static_cast<unsigned>(
        std::max(1ull, std::min<unsigned long long>(needed, static_cast<unsigned long long>(std::max(1, resident)))));
    kernel<<<blocks, policy.block_threads, 0, stream>>>(a, alpha);
    IMGPAR_CUDA_CHECK_LAUNCH("add_alpha_kernel");
}

template <ColourOp kOp, int C>
void launch_c(const hist::ApplyArgs& a, const ColourArgs& args, cudaStream_t stream) {
    const ColourPolicy policy;
    auto kernel = colour_kernel<kOp, C>;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned long long needed = (a.grid.total + policy.block_threads - 1ull) / policy.block_threads;
    const unsigned blocks = static_cast<unsigned>(
        std::max(1ull, std::min<unsigned long long>(needed, static_cast<unsigned long long>(std::max(1, resident)))));
    kernel<<<blocks, policy.block_threads, 0, stream>>>(a, args);
    IMGPAR_CUDA_CHECK_LAUNCH("colour_kernel");
}

template <ColourOp kOp>
void launch(const hist::ApplyArgs& a, const ColourArgs& args, int channels, cudaStream_t stream) {
    switch (channels) {
        case 1: launch_c<kOp, 1>(a, args, stream); break;
        case 2: launch_c<kOp, 2>(a, args, stream); break;
        case 3: launch_c<kOp, 3>(a, args, stream); break;
        default: launch_c<kOp, 4>(a, args, stream); break;
    }
}

// --- 16-bit samples ---------------------------------------------------------------
//
// Four pixels per thread and step (grid-stride over the image's groups of
// four): their 8C input bytes read, and their output written, with 8-byte
// loads and stores where rows are 16-byte aligned (a group starts at a
// multiple of 8 bytes), so a warp moves 256 to 1024 contiguous bytes an
// instruction; a row's last pixels past a whole group, and unaligned images,
// sample by sample. The per-pixel map is the CPU's on u16 samples.
struct Colour16Args {
    const std::uint16_t* src = nullptr;
    std::size_t src_pitch = 0;
    std::uint16_t* dst = nullptr;
    std::size_t dst_pitch = 0;
    int width = 0;
    unsigned groups_per_row = 0;   // ceil(width / 4)
    unsigned long long total = 0;  // groups
    bool vec = false;              // both images' rows 16-byte aligned
};

constexpr int kGroup16 = 4;  // pixels a thread maps per step

// n samples (a multiple of 4) at p, 8-byte aligned, as n / 4 loads.
template <int N>
__device__ __forceinline__ void load_samples16(const std::uint16_t* p, std::uint16_t (&v)[N]) {
    const uint2* q = reinterpret_cast<const uint2*>(p);
#pragma unroll
    for (int i = 0; i < N / 4; ++i) {
        const uint2 w = __ldg(q + i);
        v[4 * i] = static_cast<std::uint16_t>(w.x);
        v[4 * i + 1] = static_cast<std::uint16_t>(w.x >> 16);
        v[4 * i + 2] = static_cast<std::uint16_t>(w.y);
        v[4 * i + 3] = static_cast<std::uint16_t>(w.y >> 16);
    }
}

template <int N>
__device__ __forceinline__ void store_samples16(std::uint16_t* p, const std::uint16_t (&v)[N]) {
    uint2* q = reinterpret_cast<uint2*>(p);
#pragma unroll
    for (int i = 0; i < N / 4; ++i)
        q[i] = make_uint2(v[4 * i] | (static_cast<unsigned>(v[4 * i + 1]) << 16),
                          v[4 * i + 2] | (static_cast<unsigned>(v[4 * i + 3]) << 16));
}

template <ColourOp kOp, int C>
__global__ void __launch_bounds__(256) colour16_kernel(Colour16Args a, ColourArgs args) {
    constexpr int CO = colour_output_channels(kOp, C);
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < a.total;
         k += stride) {
        const int y = static_cast<int>(k / a.groups_per_row);
        const int x0 = static_cast<int>(k - static_cast<unsigned long long>(y) * a.groups_per_row) * kGroup16;
        const int n = min(kGroup16, a.width - x0);
        const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const std::uint8_t*>(a.src) +
                                                                        static_cast<std::size_t>(y) * a.src_pitch) +
                                 static_cast<std::size_t>(x0) * C;
        std::uint16_t* d = reinterpret_cast<std::uint16_t*>(reinterpret_cast<std::uint8_t*>(a.dst) +
                                                            static_cast<std::size_t>(y) * a.dst_pitch) +
                           static_cast<std::size_t>(x0) * CO;
        std::uint16_t in[kGroup16 * C], out[kGroup16 * CO];
        const bool whole = a.vec && n == kGroup16;
        if (whole) {
            load_samples16(s, in);
        } else {
#pragma unroll
            for (int i = 0; i < kGroup16 * C; ++i) in[i] = i < n * C ? __ldg(s + i) : 0;
        }
#pragma unroll
        for (int p = 0; p < kGroup16; ++p) colour_pixel_map<kOp, C, std::uint16_t>(args, in + p * C, out + p * CO);
        if (whole) {
            store_samples16(d, out);
        } else {
#pragma unroll
            for (int i = 0; i < kGroup16 * CO; ++i)
                if (i < n * CO) d[i] = out[i];
        }
    }
}

template <ColourOp kOp, int C>
void launch16_c(const Colour16Args& a, const ColourArgs& args, cudaStream_t stream) {
    const ColourPolicy policy;
    auto kernel = colour16_kernel<kOp, C>;
    const int resident = co_resident_blocks(reinterpret_cast<const void*>(kernel), policy.block_threads, 0);
    const unsigned long long needed = (a.total + policy.block_threads - 1ull) / policy.block_threads;
    const unsigned blocks = static_cast<unsigned>(
        std::max(1ull, std::min<unsigned long long>(needed, static_cast<unsigned long long>(std::max(1, resident)))));
    kernel<<<blocks, policy.block_threads, 0, stream>>>(a, args);
    IMGPAR_CUDA_CHECK_LAUNCH("colour16_kernel");
}

template <ColourOp kOp>
void launch16(const Colour16Args& a, const ColourArgs& args, int channels, cudaStream_t stream) {
    switch (channels) {
        case 1: launch16_c<kOp, 1>(a, args, stream); break;
        case 2: launch16_c<kOp, 2>(a, args, stream); break;
        case 3: launch16_c<kOp, 3>(a, args, stream); break;
        default: launch16_c<kOp, 4>(a, args, stream); break;
    }
}

// The device checks on a 16-bit image's bytes (an 8-bit image twice as wide).
void check_device16(const DeviceView<const std::uint16_t>& v, const char* what) {
    hist::check_device_image(
        ConstDeviceViewU8{reinterpret_cast<const std::uint8_t*>(v.data), v.width * 2, v.height, v.channels, v.pitch}, what);
}

}  // namespace

void apply_colour(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const ColourPlan& plan, cudaStream_t stream) {
    check_device16(src, "colour");
    check_device16(dst, "colour");
    const ColourArgs args = colour_args(plan, src.channels);  // throws for a channel the image lacks
    const int out_c = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("colour", "the output must have the input's size and " + std::to_string(out_c) +
                                        " channel(s)");
    if (out_c == src.channels && plan.op != ColourOp::ExtractChannel) {
        turn(src, dst, Turn::None, stream);  // unchanged: geometry's copy, 16 bytes per thread
        return;
    }
    Colour16Args a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.width = src.width;
    a.groups_per_row = static_cast<unsigned>((src.width + kGroup16 - 1) / kGroup16);
    a.total = static_cast<unsigned long long>(a.groups_per_row) * static_cast<unsigned long long>(src.height);
    a.vec = hist::vector_ok(src.data, src.pitch) && hist::vector_ok(dst.data, dst.pitch);
    switch (plan.op) {
        case ColourOp::Grayscale: launch16<ColourOp::Grayscale>(a, args, src.channels, stream); break;
        case ColourOp::ExtractChannel: launch16<ColourOp::ExtractChannel>(a, args, src.channels, stream); break;
        case ColourOp::Flatten: launch16<ColourOp::Flatten>(a, args, src.channels, stream); break;
        case ColourOp::AddAlpha: launch16<ColourOp::AddAlpha>(a, args, src.channels, stream); break;
    }
}

void apply_colour(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const ColourPlan& plan, cudaStream_t stream) {
    hist::check_device_image(src, "colour");
    hist::check_device_image(dst, "colour");
    const ColourArgs args = colour_args(plan, src.channels);  // throws for a channel the image lacks
    const int out_c = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error("colour", "the output must have the input's size and " + std::to_string(out_c) +
                                        " channel(s)");
    if (out_c == src.channels && plan.op != ColourOp::ExtractChannel) {
        // Nothing to change (gray through grayscale, no alpha to flatten, alpha
        // already there): geometry's copy kernel, 16 bytes per thread
        // (measured on an H100: 1.07x a device copy for gray 8192^2, 1.19x for
        // RGB 8K, where cudaMemcpy2DAsync took 1.7x).
        turn(src, dst, Turn::None, stream);
        return;
    }
    if (plan.op == ColourOp::AddAlpha) {
        if (src.channels == 1)
            launch_add_alpha<1>(src, dst, args.alpha, stream);
        else
            launch_add_alpha<3>(src, dst, args.alpha, stream);
        return;
    }
    hist::ApplyArgs a;
    a.src = src.data;
    a.src_pitch = src.pitch;
    a.dst = dst.data;
    a.dst_pitch = dst.pitch;
    a.grid = hist::chunk_grid(src);
    a.vec = hist::vector_ok(src.data, src.pitch) && hist::vector_ok(dst.data, dst.pitch);
    switch (plan.op) {
        case ColourOp::Grayscale: launch<ColourOp::Grayscale>(a, args, src.channels, stream); break;
        case ColourOp::ExtractChannel: launch<ColourOp::ExtractChannel>(a, args, src.channels, stream); break;
        case ColourOp::Flatten: launch<ColourOp::Flatten>(a, args, src.channels, stream); break;
        case ColourOp::AddAlpha: launch<ColourOp::AddAlpha>(a, args, src.channels, stream); break;
    }
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void apply_colour(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const ColourPlan& plan,
                  std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::apply_colour(src, dst, plan, stream);
    if (!kernel) return;
    const bool copy = plan.output_channels(src.channels) == src.channels && plan.op != ColourOp::ExtractChannel;
    *kernel = copy                            ? "remap_kernel (the image is unchanged: a copy, 16 bytes per thread)"
              : plan.op == ColourOp::AddAlpha ? "add_alpha_kernel (16 output bytes per thread, shifted input windows)"
                                              : "colour_kernel (16 pixels per thread, 16-byte loads and stores)";
}

void apply_colour(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const ColourPlan& plan,
                  std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::apply_colour(src, dst, plan, stream);
    if (!kernel) return;
    const bool copy = plan.output_channels(src.channels) == src.channels && plan.op != ColourOp::ExtractChannel;
    *kernel = copy ? "remap_kernel (the image is unchanged: a copy, 16 bytes per thread)"
                   : "colour16_kernel (4 pixels per thread, 16-bit samples, 8-byte loads and stores)";
}

}  // namespace imgpar::gpu
