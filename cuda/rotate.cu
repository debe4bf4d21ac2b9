// GPU rotation by any angle: one thread per output pixel, running the CPU's
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
#include <algorithm>

#include "cuda/check.hpp"
#include "cuda/geometry_block.cuh"
#include "cuda/histogram_launch.hpp"
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

template <int C, int kTaps>
__global__ void __launch_bounds__(256) rotate_kernel(RotateMap m, const std::uint8_t* __restrict__ src,
                                                     std::size_t src_pitch, std::uint8_t* __restrict__ dst,
                                                     std::size_t dst_pitch, bool vec) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    if (ox >= m.dst_w) return;
    // Rows 16-byte aligned: the wide loads; else byte by byte (the same sums).
    const auto inside = [&](int x0, int y0, int fx, int fy, std::uint8_t* out) {
        if (vec)
            rotate_inside<C, kTaps>(src, src_pitch, x0, y0, fx, fy, out);
        else
            rotate_inside_bytes<C, kTaps>(src, src_pitch, x0, y0, fx, fy, out);
    };
    for (int oy = blockIdx.y * blockDim.y + threadIdx.y; oy < m.dst_h; oy += gridDim.y * blockDim.y) {
        std::uint8_t px[C];
        rotate_pixel_placed<C, kTaps>(m, src, src_pitch, ox, oy, inside, px);
        std::uint8_t* d = dst + static_cast<std::size_t>(oy) * dst_pitch + static_cast<std::size_t>(ox) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) d[c] = px[c];
    }
}

template <int C, int kTaps>
void launch(const RotateMap& m, const ConstDeviceViewU8& src, const DeviceViewU8& dst, cudaStream_t stream) {
    const RotatePolicy policy;
    const dim3 block(policy.block_x, policy.block_y);
    const unsigned gy = std::min(policy.max_grid_y, static_cast<unsigned>((m.dst_h + policy.block_y - 1) / policy.block_y));
    const dim3 grid(static_cast<unsigned>((m.dst_w + policy.block_x - 1) / policy.block_x), gy);
    // The wide loads read whole aligned 16-byte vectors holding the taps:
    // within the row's pitch where rows are 16-byte aligned.
    const bool vec = hist::vector_ok(src.data, src.pitch);
    rotate_kernel<C, kTaps><<<grid, block, 0, stream>>>(m, src.data, src.pitch, dst.data, dst.pitch, vec);
    IMGPAR_CUDA_CHECK_LAUNCH("rotate_kernel");
}

}  // namespace

void rotate(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const RotateSpec& spec, cudaStream_t stream) {
    hist::check_device_image(src, "rotate");
    hist::check_device_image(dst, "rotate");
    const RotateMap m = rotate_map(spec, src.width, src.height, src.channels);
    if (dst.width != m.dst_w || dst.height != m.dst_h || dst.channels != src.channels)
        throw usage_error("rotate", "the output must be " + std::to_string(m.dst_w) + "x" + std::to_string(m.dst_h) +
                                        " with the input's channels");
    with_rotate_layout(src.channels, m.taps, [&](auto c, auto t) { launch<c, t>(m, src, dst, stream); });
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void rotate(Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, const RotateSpec& spec, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::rotate(src, dst, spec, stream);
    if (kernel)
        *kernel = std::string("rotate_kernel (one thread per output pixel, fixed-point ") +
                  interpolation_name(spec.interpolation) + "; taps inside the input by 16-byte loads)";
}

}  // namespace imgpar::gpu
