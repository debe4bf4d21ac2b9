// GPU histograms, equalization and thresholding: byte-identical twins of
// cpu::histogram (src/ops/histogram.hpp), cpu::equalize (src/ops/equalize.hpp)
// and cpu::threshold (src/ops/threshold.hpp), whose headers hold the contract.
//
// Each operation works on device views and a HistogramWorkspace: it launches
// on `stream` and allocates nothing once the workspace is reserved (the
// benchmark times this form). The seam (gpu::histogram, gpu::equalize,
// gpu::threshold in src/ops/) runs them with a session's workspace and stream.
// Device images may have any pitch and alignment; rows that start 16-byte
// aligned with a pitch that is a multiple of 16 (as DeviceImage gives) are
// read and written with 16-byte accesses.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/buffers.hpp"
#include "cuda/device_image.hpp"
#include "src/image.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar::cuda {

// Which planes a device histogram counts. The counts are written plane after
// plane, 256 unsigned 64-bit counters each: the image's channels in order
// (when `channels`), then luma (when `luma`; colour images only).
struct HistogramPlanes {
    bool channels = true;
    bool luma = false;
    // Planes counted for an image with `image_channels` channels; throws
    // imgpar::Error (usage) when that is none (luma of a gray image only).
    int count(int image_channels) const;
};

// Device memory for histogram, equalize and threshold: sized for the largest
// case (5 planes), so one reserve() serves every image. Not thread-safe; one
// workspace per stream.
class HistogramWorkspace {
public:
    // Allocates on first call; later calls do nothing.
    void reserve();
    unsigned long long* counts() const { return counts_.get(); }   // 5 * 256 device counters
    std::uint8_t* luts() const { return luts_.get(); }             // 4 * 256 device bytes
    unsigned long long* host_counts() const { return host_.get(); }  // 5 * 256 pinned host counters
    // 16-bit images: exact counts and lookup tables of 65,536 values.
    void reserve16();
    unsigned long long* counts16() const { return counts16_.get(); }      // 5 * 65536 device counters
    std::uint16_t* luts16() const { return luts16_.get(); }               // 4 * 65536 device samples
    unsigned long long* host_counts16() const { return host16_.get(); }  // 5 * 65536 pinned host counters
    // A block's 65,536 16-bit counters, one slot a block of the privatized count.
    std::uint16_t* partials16() const { return partials16_.get(); }

private:
    DeviceBuffer<unsigned long long> counts_;
    DeviceBuffer<std::uint8_t> luts_;
    PinnedBuffer<unsigned long long> host_;
    DeviceBuffer<unsigned long long> counts16_;
    DeviceBuffer<std::uint16_t> luts16_;
    PinnedBuffer<unsigned long long> host16_;
    DeviceBuffer<std::uint16_t> partials16_;
};

// --- Histogram -------------------------------------------------------------

// Counts `planes` of `image` into d_counts (planes.count(channels) * 256
// counters, zeroed here). Asynchronous; allocates nothing.
void histogram(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
               cudaStream_t stream);
// Counts every channel (+ luma when with_luma and colour), waits, and returns
// the histogram. Allocates nothing once `ws` is reserved.
Histogram histogram(const ConstDeviceViewU8& image, bool with_luma, HistogramWorkspace& ws, cudaStream_t stream);
// What the histogram of a `channels`-channel image runs, for reports.
std::string histogram_kernel_name(int channels);

// 16 bits (cuda/histogram16.cu): counts `planes` of `image` exactly into
// d_counts (planes.count(channels) * 65536 counters, zeroed here; luma
// alone is plane 0), with `ws`'s partial counters.
// Asynchronous; allocates nothing once `ws` is reserve16()d.
void histogram(const ConstDeviceViewU16& image, HistogramPlanes planes, unsigned long long* d_counts,
               HistogramWorkspace& ws, cudaStream_t stream);
// Counts every channel (+ luma when with_luma and colour), waits, and returns them.
Histogram16 histogram(const ConstDeviceViewU16& image, bool with_luma, HistogramWorkspace& ws, cudaStream_t stream);
std::string histogram16_kernel_name();

// 16-bit equalize and threshold (cuda/histogram_apply16.cu): the forms above
// on u16 views, with the workspace's 16-bit counts and tables.
void equalize(const ConstDeviceViewU16& src, const DeviceViewU16& dst, EqualizeMode mode, HistogramWorkspace& ws,
              cudaStream_t stream);
int threshold(const ConstDeviceViewU16& src, const DeviceViewU16& dst, const ThresholdSpec& spec,
              HistogramWorkspace& ws, cudaStream_t stream);
// Throws imgpar::Error (usage, naming `what`) unless `v` is a valid 16-bit device image.
void check_device_view16(const ConstDeviceViewU16& v, const char* what);

// --- Equalize --------------------------------------------------------------

// Histogram -> cumulative counts -> lookup tables -> apply, all on the device,
// asynchronous, nothing allocated once `ws` is reserved. dst has src's shape
// and may be src (in place).
void equalize(const ConstDeviceViewU8& src, const DeviceViewU8& dst, EqualizeMode mode, HistogramWorkspace& ws,
              cudaStream_t stream);

// --- Threshold -------------------------------------------------------------

// dst: src's size, threshold_output_channels(src.channels) channels. Returns
// the level used. With Otsu it counts the intensity histogram, copies its 256
// counts to the host and waits for them (the level is chosen on the host);
// with a given level it only launches. Allocates nothing once `ws` is reserved.
int threshold(const ConstDeviceViewU8& src, const DeviceViewU8& dst, const ThresholdSpec& spec,
              HistogramWorkspace& ws, cudaStream_t stream);

}  // namespace imgpar::cuda
