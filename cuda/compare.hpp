// GPU image comparison: cpu::difference_sums and cpu::ssim (src/ops/compare.hpp,
// src/ops/ssim.hpp, whose headers hold the contract) on device images.
//
//   difference sums (cuda/compare.cu): one pass over both images, 16-byte
//     loads (48 bytes, 16 pixels, for RGB), per-byte SIMD differences
//     (vabsdiffu4) whose squares and sums take one dp4a each, per-channel
//     totals in registers, a warp-shuffle and block combine, then one
//     integer atomic per total per block: integers, so the grid's combine
//     gives the same result in any order. |a - b| is written in the same
//     pass when asked.
//   SSIM (cuda/ssim.cu): 32-sample x 32-row tiles; both images' tiles with a
//     5-pixel halo staged as bytes in shared memory, the five moments
//     filtered along rows into shared memory (doubles), then along columns,
//     S per pixel, its quantized parts summed per channel (exact integers)
//     and, when asked, the 8-bit map, all in one kernel. The arithmetic is
//     src/ops/ssim_math.hpp's, so every S equals the CPU's. With
//     --ssim-downsample, shrink_kernel first makes both images' shrunk
//     doubles (integer f x f sums, one division) and the same kernel runs
//     on those.
//
// Each works on device views, launches on `stream` and allocates nothing
// (the benchmark times these forms); gpu::compare (the seam) runs them with a
// session's CompareWorkspace.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/buffers.hpp"
#include "src/image.hpp"
#include "src/ops/compare.hpp"

namespace imgpar::cuda {

// Launch shapes. Difference sums: 256 threads, a grid-stride loop over the
// groups with as many blocks as the device holds at once. SSIM: 32 x 8
// threads per 32 x 32 output tile (each thread 4 rows), 32 + 10 rows of
// moments in shared memory (54 KB). Not yet tuned by measurement.
struct ComparePolicy {
    static constexpr int threads = 256;
};
struct SsimPolicy {
    static constexpr int tile_samples = 32;  // output samples across (one warp)
    static constexpr int tile_rows = 32;     // output rows
    static constexpr int threads = 256;      // 32 x 8
};

// The device totals of difference_sums: per channel c, [4c] the largest
// |a - b|, [4c + 1] differing samples, [4c + 2] sum |a - b|, [4c + 3] sum
// (a - b)^2; [16] pixels with any channel different.
constexpr int kDifferenceTotals = 17;
// The device totals of ssim: [c] the high parts' sum of channel c, [4 + c]
// the low parts' (two's complement in the unsigned counters).
constexpr int kSsimTotals = 8;

// Device memory for gpu::compare: the totals, their pinned host copies, and
// the difference image and SSIM map (grown as needed). Not thread-safe; one
// per stream.
class CompareWorkspace {
public:
    // Allocates the totals on first call.
    void reserve();
    unsigned long long* totals() const { return totals_.get(); }  // kDifferenceTotals + kSsimTotals
    unsigned long long* host_totals() const { return host_.get(); }
    // A device image of a's shape for the difference image (slot 0) or the map (slot 1).
    DeviceViewU8 image(int slot, int width, int height, int channels, cudaStream_t stream);
    // `count` doubles for both shrunk images (--ssim-downsample).
    double* shrunk(std::size_t count, cudaStream_t stream);

private:
    DeviceBuffer<unsigned long long> totals_;
    PinnedBuffer<unsigned long long> host_;
    DeviceBuffer<std::uint8_t> images_[2];
    DeviceBuffer<double> shrunk_;
};

// The sums of a and b (same shape) into d_totals (kDifferenceTotals
// counters, zeroed here), and |a - b| into diff when it is given (a's
// shape). Asynchronous. Throws imgpar::Error (usage) on a shape mismatch.
void difference_sums(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, const DeviceViewU8* diff,
                     unsigned long long* d_totals, cudaStream_t stream);
// The sums from the totals copied to the host.
DifferenceSums difference_sums_from(const unsigned long long* totals, int width, int height, int channels);

// SSIM's exact sums of a and b (same shape, ssim_fits) into d_totals
// (kSsimTotals counters, zeroed here), and the 8-bit map into `map` when it
// is given. Asynchronous.
void ssim(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, const DeviceViewU8* map, unsigned long long* d_totals,
          cudaStream_t stream);
// The same over shrunk images (device memory, as ssim_shrink writes them).
// `sixteen_bit`: the planes are shrunk 16-bit images (SSIM's constants of L = 65535).
void ssim(const SsimPlanes<double>& a, const SsimPlanes<double>& b, const DeviceViewU8* map,
          unsigned long long* d_totals, cudaStream_t stream, bool sixteen_bit = false);
// a and b (same shape) shrunk by f (2 .. kSsimMaxDownsample) into out_a and
// out_b: ssim_shrunk_side(W, f) * C samples a row, rows packed, as
// cpu::ssim_shrink gives them. Asynchronous.
void ssim_shrink(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b, int f, double* out_a, double* out_b,
                 cudaStream_t stream);
void ssim_shrink(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, int f, double* out_a, double* out_b,
                 cudaStream_t stream);
SsimSums ssim_sums_from(const unsigned long long* totals);

// 16-bit images (cuda/compare16.cu, cuda/ssim.cu): the same forms and totals
// layout; the difference image is u16, the SSIM's c1 and c2 those of L = 65535.
void difference_sums(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, const DeviceViewU16* diff,
                     unsigned long long* d_totals, cudaStream_t stream);
void ssim(const ConstDeviceViewU16& a, const ConstDeviceViewU16& b, const DeviceViewU8* map, unsigned long long* d_totals,
          cudaStream_t stream);

// What ran, for -v and --json.
std::string compare_kernel_name(const CompareOptions& options);

}  // namespace imgpar::cuda
