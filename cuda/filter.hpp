// Convolution filters on the GPU: the same FilterPlan as the CPU reference
// (src/ops/filter.hpp, whose comment is the arithmetic contract) and
// byte-identical results.
//
// Two call forms share one implementation:
//   - apply_filter(plan, src, dst, ws, stream) writes into caller-provided
//     device images, enqueues everything on `stream` and allocates nothing
//     once `ws` has been reserved for the plan and image shape. This is the
//     form the benchmark times.
//   - apply_filter(plan, src) uploads a host image, filters it on the
//     process context's stream (cuda::context()) and returns the result.
//
// Source and destination are ordinary pitched device images (any pitch of at
// least width * channels bytes); kernels use 16-byte accesses where the
// pointers and pitches allow and fall back to narrower ones elsewhere. The
// destination must not overlap the source.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/buffers.hpp"
#include "cuda/device_image.hpp"
#include "src/image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::cuda {

// How Gaussian and unsharp plans are computed. Auto picks the tensor-core
// separable kernel when the device and plan allow it (compute capability 8.0
// or newer); Simple is a plain two-pass kernel pair kept as a cross-check and
// fallback. Both give identical bytes.
enum class SeparablePath { Auto, TensorCore, Simple };

// Device scratch kept between calls, so repeated calls do not allocate.
// Not thread-safe: one workspace per stream of work.
class FilterWorkspace {
public:
    FilterWorkspace() = default;

    // Makes sure the scratch a call with this plan and source shape needs is
    // allocated (it only grows). Throws imgpar::Error (usage) on a bad plan or
    // shape, (device) when the allocation fails.
    void reserve(const FilterPlan& plan, int width, int height, int channels);

    // Chooses the Gaussian/unsharp implementation (tests and the benchmark
    // compare them); TensorCore on a device without it is a device error.
    void set_separable_path(SeparablePath path) { path_ = path; }
    SeparablePath separable_path() const { return path_; }

    std::size_t scratch_bytes() const { return scratch_.bytes(); }
    std::uint8_t* scratch() const { return scratch_.get(); }

private:
    DeviceBuffer<std::uint8_t> scratch_;
    SeparablePath path_ = SeparablePath::Auto;
};

// Filters src into dst: same width and height, dst.channels ==
// plan.output_channels(src.channels). Shapes and the plan are validated before
// any GPU work (imgpar::Error, usage). Asynchronous on `stream`.
void apply_filter(const FilterPlan& plan, const DeviceImageRef& src, const DeviceImageRef& dst, FilterWorkspace& ws,
                  cudaStream_t stream);

// Convenience: upload, filter, download on cuda::context()'s stream; returns
// when the result is on the host.
Image apply_filter(const FilterPlan& plan, ConstImageView src);

// Short name of the implementation a call with this plan would use, for
// verbose output and benchmark notes ("tensor-core separable", "box running
// sums", ...).
const char* filter_path_name(const FilterPlan& plan, int channels, const FilterWorkspace& ws);

}  // namespace imgpar::cuda
