// GPU rotation by any angle, one thread per output pixel: the kernel of
// 16-bit images, and of 8-bit ones with IMGPAR_ROTATE_PER_PIXEL=1 or
// RotateKernel::PerPixel (8-bit images otherwise take the output tiles of
// cuda/rotate_tiles.cu, which read the input through shared memory). It runs the CPU's
// own integer arithmetic (src/ops/rotate_math.hpp's rotate_combine), so the
// bytes are the CPU's. Three kinds of pixel, told apart from the position
// alone:
//   - every tap outside the input (about half of a rotated image): the map's
//     precomputed outside pixel, nothing read;
//   - every tap inside: each tap row's 2C or 4C bytes with one or two aligned
//     16-byte loads and funnel shifts, no bounds checks (a warp's 32 pixels
//     span ~16 source rows, so the cache's cost is per load instruction: this
//     makes 2-4 of them a pixel where byte loads made 12-48);
//   - the rest, along the input's edges: rotate_pixel's checked taps.
// 16-bit images take the same kernel on u16 samples (the arithmetic's 64-bit
// sums, src/ops/rotate.hpp's 16 BITS), an inside tap row's 4 to 32 bytes
// through one to three aligned 16-byte loads.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cuda/check.hpp"
#include "cuda/geometry_block.cuh"
#include "cuda/histogram_launch.hpp"
#include "cuda/rotate_tiles.hpp"
#include "cuda/session.hpp"
#include "src/ops/rotate.hpp"

namespace imgpar::cuda {
namespace {

// 32 x 8 threads: a warp covers 32 neighbouring output pixels of one row.
struct RotatePolicy {
    int block_x = 32, block_y = 8;
    unsigned max_grid_y = 65535;
};

template <int C, int kTaps>
__device__ __forceinline__ void rotate_inside(const std::uint8_t* src, std::size_t pitch, int x0, int y0, int fx, int fy,
                                              std::uint8_t* out) {
    std::uint32_t win[kTaps][6];
#pragma unroll
    for (int j = 0; j < kTaps; ++j)
        geo::load_window(src + static_cast<std::size_t>(y0 + j) * pitch, static_cast<std::size_t>(x0) * C, kTaps * C,
                         win[j]);
    const auto fetch = [&](int j, int i, int (&v)[C]) {
#pragma unroll
        for (int c = 0; c < C; ++c) v[c] = static_cast<int>(geo::byte_of(win[j], i * C + c));
    };
    rotate_combine<C, kTaps>(fx, fy, fetch, out);
}

// 16-bit samples: each tap row's kTaps C samples (4 to 32 bytes) through the
// same aligned 16-byte loads (one to three), a sample a half word.
template <int C, int kTaps>
__device__ __forceinline__ void rotate_inside(const std::uint16_t* src, std::size_t pitch, int x0, int y0, int fx,
                                              int fy, std::uint16_t* out) {
    constexpr int kBytes = kTaps * C * 2;
    constexpr int kWords = (kBytes + 3) / 4;
    std::uint32_t win[kTaps][kWords];
    const std::uint8_t* base = reinterpret_cast<const std::uint8_t*>(src);
#pragma unroll
    for (int j = 0; j < kTaps; ++j)
        geo::load_window_words<kWords>(base + static_cast<std::size_t>(y0 + j) * pitch,
                                       static_cast<std::size_t>(x0) * C * 2, kBytes, win[j]);
    const auto fetch = [&](int j, int i, int (&v)[C]) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const int t = i * C + c;
            v[c] = static_cast<int>((win[j][t >> 1] >> (16 * (t & 1))) & 0xffffu);
        }
    };
    rotate_combine<C, kTaps>(fx, fy, fetch, out);
}

template <int C, int kTaps, typename T>
__global__ void __launch_bounds__(256) rotate_kernel(RotateMap m, const T* __restrict__ src, std::size_t src_pitch,
                                                     T* __restrict__ dst, std::size_t dst_pitch, bool vec) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    if (ox >= m.dst_w) return;
    // Rows 16-byte aligned: the wide loads; else sample by sample (the same sums).
    const auto inside = [&](int x0, int y0, int fx, int fy, T* out) {
        if (vec)
            rotate_inside<C, kTaps>(src, src_pitch, x0, y0, fx, fy, out);
        else
            rotate_inside_bytes<C, kTaps>(src, src_pitch, x0, y0, fx, fy, out);
    };
    for (int oy = blockIdx.y * blockDim.y + threadIdx.y; oy < m.dst_h; oy += gridDim.y * blockDim.y) {
        T px[C];
        rotate_pixel_placed<C, kTaps>(m, src, src_pitch, ox, oy, inside, px);
        T* d = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(dst) + static_cast<std::size_t>(oy) * dst_pitch) +
               static_cast<std::size_t>(ox) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) d[c] = px[c];
    }
}

template <int C, int kTaps, typename T>
void launch(const RotateMap& m, const DeviceView<const T>& src, const DeviceView<T>& dst, cudaStream_t stream) {
    const RotatePolicy policy;
    const dim3 block(policy.block_x, policy.block_y);
    const unsigned gy = std::min(policy.max_grid_y, static_cast<unsigned>((m.dst_h + policy.block_y - 1) / policy.block_y));
    const dim3 grid(static_cast<unsigned>((m.dst_w + policy.block_x - 1) / policy.block_x), gy);
    // The wide loads read whole aligned 16-byte vectors holding the taps:
    // within the row's pitch where rows are 16-byte aligned.
    const bool vec = hist::vector_ok(src.data, src.pitch);
    rotate_kernel<C, kTaps, T><<<grid, block, 0, stream>>>(m, src.data, src.pitch, dst.data, dst.pitch, vec);
    IMGPAR_CUDA_CHECK_LAUNCH("rotate_kernel");
}

// The device checks on the image's bytes (a 16-bit image as an 8-bit one
// twice as wide).
template <typename T>
void check_device(const DeviceView<T>& v, const char* what) {
    hist::check_device_image(ConstDeviceViewU8{reinterpret_cast<const std::uint8_t*>(v.data),
                                               v.width * static_cast<int>(sizeof(T)), v.height, v.channels, v.pitch},
                             what);
}

bool per_pixel_asked() {
    const char* v = std::getenv("IMGPAR_ROTATE_PER_PIXEL");
    return v && std::strcmp(v, "1") == 0;
}

// The map of src's shape, with dst checked to have the rotated shape.
template <typename T>
RotateMap checked_map(const DeviceView<const T>& src, const DeviceView<T>& dst, const RotateSpec& spec) {
    check_device(src, "rotate");
    check_device(dst, "rotate");
    const RotateMap m = rotate_map(spec, src.width, src.height, src.channels);
    if (dst.width != m.dst_w || dst.height != m.dst_h || dst.channels != src.channels)
        throw usage_error("rotate", "the output must be " + std::to_string(m.dst_w) + "x" + std::to_string(m.dst_h) +
                                        " with the input's channels");
    return m;
}

template <typename T>
void rotate_per_pixel(const RotateMap& m, const DeviceView<const T>& src, const DeviceView<T>& dst, cudaStream_t stream) {
    with_rotate_layout(src.channels, m.taps, [&](auto c, auto t) { launch<c, t, T>(m, src, dst, stream); });
}

}  // namespace

// Returns whether the tiles ran (else the per-pixel kernel).
bool rotate(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const RotateSpec& spec, gpu::RotateKernel choice,
            cudaStream_t stream) {
    const RotateMap m = checked_map(src, dst, spec);
    const bool tiles = choice == gpu::RotateKernel::Tiles || (choice == gpu::RotateKernel::Auto && !per_pixel_asked());
    if (tiles)
        rotate_tiles(m, src, dst, stream);
    else
        rotate_per_pixel(m, src, dst, stream);
    return tiles;
}
void rotate(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const RotateSpec& spec, cudaStream_t stream) {
    rotate_per_pixel(checked_map(src, dst, spec), src, dst, stream);
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void rotate(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const RotateSpec& spec, std::string* kernel,
            RotateKernel choice) {
    const cudaStream_t stream = cuda::enter(session);
    const bool tiles = cuda::rotate(src, dst, spec, choice, stream);
    if (kernel)
        *kernel = tiles ? std::string(cuda::rotate_tiles_description()) + interpolation_name(spec.interpolation) + ")"
                        : std::string("rotate_kernel (one thread per output pixel, fixed-point ") +
                              interpolation_name(spec.interpolation) + "; taps inside the input by 16-byte loads)";
}

void rotate(Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, const RotateSpec& spec, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::rotate(src, dst, spec, stream);
    if (kernel)
        *kernel = std::string("rotate_kernel (one thread per output pixel, 16-bit samples, fixed-point ") +
                  interpolation_name(spec.interpolation) + ", 64-bit sums; taps inside the input by 16-byte loads)";
}

}  // namespace imgpar::gpu
