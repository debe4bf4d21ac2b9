// Convolution filters on the GPU: the same FilterPlan as the CPU reference
// (src/ops/filter.hpp, whose comment is the arithmetic contract) and
// byte-identical results.
//
// apply_filter(plan, src, dst, ws, stream) writes into caller-provided device
// images, enqueues everything on `stream` and allocates nothing once `ws` has
// been reserved for the plan and image shape. The seam gpu::apply_filter
// (src/ops/filter.hpp) runs it with a session's workspace and stream; tests
// and the benchmark call it directly to choose an implementation.
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

// Images with alpha (gray+alpha, RGBA) always run integer kernels of their
// own (cuda/filter_wide.cu: colour premultiplied in 16 bits, see
// src/ops/wide_math.hpp), whatever path is set below; the paths choose
// between the implementations for gray and RGB images.
//
// How Gaussian and unsharp plans are computed; both give identical bytes.
//   HalfMma  FP16 (or u8) tensor cores, both passes chained in registers:
//            trimmed radius <= 80 and every tap exact in f16 (every
//            Gaussian's), where the device has the shared memory;
//   SmallRadius  CUDA cores, rows slid down in registers (FP32 sums, exact):
//            trimmed radius <= 3, any taps; slower than the others so far, so
//            Auto leaves it out (bench/TUNING.md, "Rows kernels");
//   ByteMma  u8 tensor cores over a ring of rows in shared memory: any plan,
//            the one general fallback (3-5x slower).
// Auto takes the first of these the device and plan allow. imgpar's GPU
// kernels need compute capability 8.0 (gpu_status refuses older GPUs).
// 16-bit images have two: ByteMma (the same ring, samples and taps as two
// byte planes; gray and RGB) and Integer (integer kernels on the CUDA cores,
// fused tiles or two passes; every image, and 16 bits only; what Auto runs).
enum class SeparablePath { Auto, HalfMma, SmallRadius, ByteMma, Integer };

// How custom kernels are computed; both give identical bytes.
//   HalfMma  FP16 tensor cores, one Toeplitz product per kernel row (compute
//            capability 8.0+, every fixed-point coefficient an exact FP16
//            value: any integer up to 2048 in magnitude, larger ones only
//            with enough trailing zero bits);
//   SmallKernel  CUDA cores, rows slid down in registers (FP32 sums, exact):
//            kernels that fit the 7x7 square centred on their anchor, any
//            coefficients; slower than HalfMma so far, so Auto leaves it out;
//   Fp32     FP32 FMAs on 2-D tiles, any plan: the cross-check and fallback.
// Auto takes the first of HalfMma and Fp32 the device and plan allow.
enum class CustomPath { Auto, HalfMma, SmallKernel, Fp32 };

// Device scratch kept between calls, so repeated calls do not allocate.
// Not thread-safe: one workspace per stream of work.
class FilterWorkspace;
namespace filter_detail {
// Grows ws for a checked plan and shape (apply_filter; FilterWorkspace::reserve checks first).
void reserve_scratch(FilterWorkspace& ws, const FilterPlan& plan, int width, int height, int channels);
// Zeroes a new ticket counter in the order of `stream` (apply_filter).
void zero_tickets(FilterWorkspace& ws, cudaStream_t stream);
// Grows ws to at least `bytes` of scratch (the 16-bit apply_filter).
void reserve_scratch_bytes(FilterWorkspace& ws, std::size_t bytes);
}  // namespace filter_detail

class FilterWorkspace {
public:
    FilterWorkspace() = default;

    // Makes sure the scratch a call with this plan and source shape needs is
    // allocated (it only grows). Throws imgpar::Error (usage) on a bad plan or
    // shape, (device) when the allocation fails.
    void reserve(const FilterPlan& plan, int width, int height, int channels);

    // Chooses the Gaussian/unsharp implementation (tests and the benchmark
    // compare them); a tensor-core path the device or plan cannot take is a
    // device error.
    void set_separable_path(SeparablePath path) { path_ = path; }
    SeparablePath separable_path() const { return path_; }
    // The same for custom kernels.
    void set_custom_path(CustomPath path) { custom_path_ = path; }
    CustomPath custom_path() const { return custom_path_; }

    std::size_t scratch_bytes() const { return scratch_.bytes(); }
    std::uint8_t* scratch() const { return scratch_.get(); }
    // The work ticket counter of the Gaussian's persistent blocks (see
    // cuda/filter_launch.hpp): calls in stream order never reset it.
    unsigned long long* tickets() const { return tickets_.get(); }
    unsigned long long* ticket_base() { return &ticket_base_; }

private:
    friend void filter_detail::reserve_scratch(FilterWorkspace&, const FilterPlan&, int, int, int);
    friend void filter_detail::zero_tickets(FilterWorkspace&, cudaStream_t);
    friend void filter_detail::reserve_scratch_bytes(FilterWorkspace&, std::size_t);
    DeviceBuffer<std::uint8_t> scratch_;
    DeviceBuffer<unsigned long long> tickets_;
    bool tickets_zeroed_ = false;
    unsigned long long ticket_base_ = 0;
    SeparablePath path_ = SeparablePath::Auto;
    CustomPath custom_path_ = CustomPath::Auto;
};

// Filters src into dst: same width and height, dst.channels ==
// plan.output_channels(src.channels). The plan (check_plan) and the shapes
// are checked before any GPU work (imgpar::Error, usage). Asynchronous on
// `stream`. Returns the name of the kernel that runs.
const char* apply_filter(const FilterPlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                         FilterWorkspace& ws, cudaStream_t stream);
// 16-bit images (the 16-bit contract of src/ops/filter.hpp): the kernels of
// cuda/filter_u16.cu; the Gaussian and unsharp of gray and RGB images on the
// tensor-core ring when the separable path is ByteMma, on the integer kernels
// otherwise (Auto, Integer); pitches in bytes, at least width * channels * 2.
// Checks and asynchrony as above.
const char* apply_filter(const FilterPlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                         FilterWorkspace& ws, cudaStream_t stream);

// Whether the current device can compute this Gaussian/unsharp plan with the
// given implementation (Auto: always; images with alpha: Auto only).
bool separable_path_available(const FilterPlan& plan, int channels, SeparablePath path);
// The same for custom kernels (Auto: always; Fp32 for images without alpha).
bool custom_path_available(const FilterPlan& plan, int channels, CustomPath path);

// Short name of the implementation a call with this plan would use, for
// verbose output and benchmark notes ("tensor-core separable", "box running
// sums", ...).
const char* filter_path_name(const FilterPlan& plan, int channels, const FilterWorkspace& ws);

}  // namespace imgpar::cuda
