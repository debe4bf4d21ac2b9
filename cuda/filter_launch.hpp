// Private interface between the filter dispatcher (cuda/filter_dispatch.cpp)
// and the per-family launchers (cuda/filter_separable*.cu, filter_box.cu,
// filter_2d*.cu, filter_edges.cu, filter_wide.cu). Every launcher receives a validated call: shapes match, the
// plan is consistent, the scratch is reserved.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/device_image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::cuda::filter_detail {

// One validated filter call.
struct FilterCall {
    const FilterPlan* plan = nullptr;
    ConstDeviceViewU8 src;
    DeviceViewU8 dst;
    cudaStream_t stream = nullptr;
    std::uint8_t* scratch = nullptr;  // at least scratch_bytes(...) bytes
    std::size_t scratch_bytes = 0;
    // Work tickets (FilterWorkspace): a device counter that only grows, and
    // on the host the value it holds once the calls before this one are done;
    // a launcher that takes tickets advances it by as many as it takes.
    unsigned long long* tickets = nullptr;
    unsigned long long* ticket_base = nullptr;
};

// What a device offers a launcher when it picks its launch shape.
struct DeviceLimits {
    int sm_count = 1;
    int compute_major = 0;
    int max_smem_optin = 48 * 1024;    // per block, after cudaFuncSetAttribute
    int max_smem_per_sm = 48 * 1024;
};
// Limits of the current device (queried on each call; cheap attribute reads).
DeviceLimits current_device_limits();

// The launchers below take gray and RGB images (1 and 3 channels), but for
// the box's (any channel count); images with alpha run launch_wide, which
// apply_filter picks before any of them.
// Another channel count reaching one is a bug in the dispatch, not a user
// error: they throw this (std::logic_error) rather than run a kernel.
[[noreturn]] void throw_not_gray_or_rgb(const char* launcher, int channels);

// Raises a kernel's dynamic shared memory limit when it needs more than the
// default 48 KB. `func` is the kernel's address.
void allow_dynamic_smem(const void* func, std::size_t bytes);

// --- Gaussian and unsharp (separable) ---
enum class SeparableImpl { HalfMma, SmallRadius, ByteMma };

// A Gaussian plan's taps with zero taps at both ends removed (they contribute
// nothing, so results are unchanged and the tensor-core kernels cover fewer
// chunks).
struct TrimmedTaps {
    int radius = 0;
    std::vector<int> taps;  // 2 * radius + 1
    int max_tap = 0;
};
TrimmedTaps trim_taps(const FilterPlan& plan);

// FP16 tensor cores, both passes chained in registers
// (cuda/filter_separable_half*.cu): compute capability >= 8.0, trimmed radius
// up to 64 and every tap exact in f16 (every Gaussian's); past radius 16 it
// runs u8 MMAs where every tap fits a byte, and past radius 32 only then
// (every Gaussian's taps do there).
bool half_mma_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev);
// What the FP16 path runs for a plan it supports (FP16 or, past radius 16, u8
// MMAs), for reports.
const char* half_mma_name(const FilterPlan& plan, int channels, const DeviceLimits& dev);
void launch_separable_half(const FilterCall& call, const DeviceLimits& dev);
// The tuning row of the kernel the FP16 path runs for a plan (nullptr where
// it does not support the plan), for reports: describe(*row), in
// cuda/filter_separable_half_tuning.hpp.
struct GaussianTuning;
const GaussianTuning* half_mma_tuning(const FilterPlan& plan, int channels, const DeviceLimits& dev);
// CUDA cores, rows slid down in registers (cuda/filter_rows.cu): gray and
// RGB, compute capability >= 8.0, trimmed radius 1 to kSmallRadiusMax, any
// taps.
constexpr int kSmallRadiusMax = 3;
bool small_radius_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev);
void launch_separable_small(const FilterCall& call, const DeviceLimits& dev);
// u8 tensor cores over a ring of rows (cuda/filter_separable_mma.cu), the
// general fallback: every plan make_gaussian/make_unsharp can produce, on
// compute capability >= 8.0.
bool tensor_core_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev);
void launch_separable_tensor_core(const FilterCall& call, const DeviceLimits& dev);
// The same ring on 16-bit gray and RGB images (cuda/filter_separable_mma16.cuh):
// launches and returns the kernel's name, or returns nullptr, launching
// nothing, where it does not take the plan (other channel counts, a tap of
// 2^16, a device without the shared memory).
const char* launch_separable_tensor_core16(const FilterPlan& plan, const ConstDeviceViewU16& src,
                                           const DeviceViewU16& dst, cudaStream_t stream, const DeviceLimits& dev);

// --- Box ---
// One pass, no scratch (cuda/filter_box_fused.cu): 1 to 4 channels (alpha
// images in the wide premultiplied lanes), radius 1 to kBoxFusedMaxRadius
// (window sums of a column in 16 bits; of wide lanes in 32). box_runs_fused
// says which plans take it: alpha images at those radii; gray and RGB keep
// the two-pass kernels (faster there, bench/TUNING.md "box") unless
// IMGPAR_BOX_ONE_PASS=1 (=0 sends alpha images to theirs), for tuning runs.
constexpr int kBoxFusedMaxRadius = 128;
bool box_runs_fused(int radius, int channels);
void launch_box_fused(const FilterCall& call);
// Every box plan, any channel count (cuda/filter_box.cu): the fused pass
// where box_runs_fused takes it, else for gray and RGB column sums in
// scratch, then row prefix sums, and for alpha images launch_wide. Returns
// the kernel's name; box_name names what runs for a plan, box_scratch_bytes
// what it needs.
std::size_t box_scratch_bytes(const FilterPlan& plan, int width, int height, int channels);
const char* box_name(const FilterPlan& plan, int channels);
const char* launch_box(const FilterCall& call, const DeviceLimits& dev);

// --- Custom kernels and edge operators (2-D tiles) ---
// FP16 tensor cores, one Toeplitz product per kernel row
// (cuda/filter_2d_half.cu): compute capability >= 8.0 and every fixed-point
// coefficient an exact f16 value (|c| <= 2048, or larger with trailing zero
// bits).
bool custom_half_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev);
void launch_custom_half(const FilterCall& call, const DeviceLimits& dev);
// CUDA cores, rows slid down in registers (cuda/filter_rows.cu): gray and
// RGB, compute capability >= 8.0, any coefficients of a kernel that fits the
// 7x7 square centred on its anchor (2x2 to 7x7 with the usual anchor).
bool custom_small_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev);
void launch_custom_small(const FilterCall& call, const DeviceLimits& dev);
// FP32 FMAs (cuda/filter_2d.cu): every plan.
void launch_custom(const FilterCall& call, const DeviceLimits& dev);
// The 3x3 edge operators on 128x32 tiles staged in shared memory (cuda/filter_edges.cu).
void launch_edges(const FilterCall& call, const DeviceLimits& dev);
// The same as rows slid down in registers (cuda/filter_rows.cu), for tuning
// runs (IMGPAR_EDGES_ROWS=1): exact, slower so far.
void launch_edges_rows(const FilterCall& call, const DeviceLimits& dev);

// --- Every filter on images with alpha (cuda/filter_wide.cu) ---
// Integer kernels on CUDA cores in the wide premultiplied domain
// (src/ops/wide_math.hpp), whose samples (up to 65025) the tensor-core paths
// cannot take. Scratch: 0 for images without alpha.
std::size_t wide_scratch_bytes(const FilterPlan& plan, int width, int height, int channels);
void launch_wide(const FilterCall& call);
const char* wide_name(const FilterPlan& plan);

// Rounds v up to a multiple of m (m > 0).
constexpr std::size_t round_up(std::size_t v, std::size_t m) { return (v + m - 1) / m * m; }
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace imgpar::cuda::filter_detail
