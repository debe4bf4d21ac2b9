// Host entry points of the GPU filters: validate the plan and the images
// before any GPU work, reserve scratch, pick the implementation, launch.

#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuda/check.hpp"
#include "cuda/session.hpp"
#include "cuda/filter.hpp"
#include "cuda/filter_launch.hpp"
#include "src/error.hpp"

namespace imgpar {
namespace cuda {
namespace fd = filter_detail;

namespace {

const char* const kSubject = "filter";

// What each kernel family is called in -v, --json and the benchmark.
const char* const kByteMmaName = "tensor-core separable (u8 MMA, ring of rows in shared memory)";
const char* const kCustomHalfName = "tensor-core 2-D (FP16 MMA, a Toeplitz product per kernel row)";
const char* const kCustomName = "2-D tiles in shared memory (FP32, exact)";
const char* const kCustomSmallName = "small 2-D kernel (CUDA cores, FP32 sums, rows slid down in registers)";
const char* const kEdgesName = "3x3 on byte planes in shared memory (16-byte tile loads)";
const char* const kEdgesRowsName = "3x3 rows slid down in registers (CUDA cores, warp shuffles)";
const char* const kSmallRadiusName = "small-radius separable (CUDA cores, FP32 sums, rows slid down in registers)";

// The rows kernels (cuda/filter_rows.cu) are exact but, in their first
// measurement, 1.5-2.6x slower than the kernels Auto runs (bench/TUNING.md,
// "Rows kernels"), so Auto takes them only where these are set to 1, for
// tuning runs: IMGPAR_SMALL_RADIUS_FIRST (Gaussians of trimmed radius <= 3,
// before the tensor cores), IMGPAR_EDGES_ROWS (the edge operators),
// IMGPAR_CUSTOM_SMALL (custom kernels that fit 7x7). The explicit paths
// (SeparablePath::SmallRadius, CustomPath::SmallKernel) run them regardless.
bool env_on(const char* name) {
    const char* s = std::getenv(name);
    return s != nullptr && s[0] == '1';
}
bool small_radius_first() { return env_on("IMGPAR_SMALL_RADIUS_FIRST"); }
bool edges_on_rows() { return env_on("IMGPAR_EDGES_ROWS"); }
bool custom_small_in_auto() { return env_on("IMGPAR_CUSTOM_SMALL"); }

std::string shape_text(int w, int h, int c) {
    return std::to_string(w) + "x" + std::to_string(h) + " with " + std::to_string(c) + " channel" + (c == 1 ? "" : "s");
}

bool overlaps(const ConstDeviceViewU8& a, const ConstDeviceViewU8& b) {
    auto span = [](const ConstDeviceViewU8& r) {
        const auto begin = reinterpret_cast<std::uintptr_t>(r.data);
        const auto end = begin + static_cast<std::uintptr_t>(r.pitch) * static_cast<std::uintptr_t>(r.height - 1) +
                         static_cast<std::uintptr_t>(r.width) * static_cast<std::uintptr_t>(r.channels);
        return std::pair<std::uintptr_t, std::uintptr_t>(begin, end);
    };
    const auto sa = span(a);
    const auto sb = span(b);
    return sa.first < sb.second && sb.first < sa.second;
}

void validate_images(const FilterPlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst) {
    if (src.data == nullptr || dst.data == nullptr)
        throw usage_error(kSubject, "the source or destination device image has no pixels");
    check_image_shape(src.width, src.height, src.channels);
    const int out_c = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error(kSubject, "the destination is " + shape_text(dst.width, dst.height, dst.channels) +
                                        " but a " + filter_kind_name(plan.kind) + " filter of a " +
                                        shape_text(src.width, src.height, src.channels) + " image writes " +
                                        shape_text(src.width, src.height, out_c));
    if (src.pitch < static_cast<std::size_t>(src.width) * src.channels ||
        dst.pitch < static_cast<std::size_t>(dst.width) * dst.channels)
        throw usage_error(kSubject, "an image pitch is smaller than its row (width * channels bytes)");
    if (overlaps(src, dst)) throw usage_error(kSubject, "the destination overlaps the source; filter into another image");
}

fd::SeparableImpl choose_separable(const FilterPlan& plan, int channels, SeparablePath path,
                                   const fd::DeviceLimits& dev) {
    switch (path) {
        case SeparablePath::Integer:
            throw device_error(kSubject, "the integer CUDA-core Gaussian is for 16-bit images; 8-bit ones run on "
                                         "the tensor cores");
        case SeparablePath::HalfMma:
            if (!fd::half_mma_supported(plan, channels, dev))
                throw device_error(kSubject, "the register-chained tensor-core Gaussian needs a radius up to 80 (after "
                                             "trimming zero taps), taps exact in FP16 and the shared memory");
            return fd::SeparableImpl::HalfMma;
        case SeparablePath::SmallRadius:
            if (!fd::small_radius_supported(plan, channels, dev))
                throw device_error(kSubject, "the small-radius Gaussian needs a radius up to " +
                                                 std::to_string(fd::kSmallRadiusMax) +
                                                 " after trimming zero taps and compute capability 8.0 or newer");
            return fd::SeparableImpl::SmallRadius;
        case SeparablePath::Auto:
            if (small_radius_first() && fd::small_radius_supported(plan, channels, dev))
                return fd::SeparableImpl::SmallRadius;
            if (fd::half_mma_supported(plan, channels, dev)) return fd::SeparableImpl::HalfMma;
            [[fallthrough]];
        case SeparablePath::ByteMma:
        default:
            // The general fallback: every plan fits it (it narrows its strips
            // until the block fits the device).
            if (!fd::tensor_core_supported(plan, channels, dev))
                throw device_error(kSubject, "the tensor-core Gaussian needs compute capability 8.0 or newer");
            return fd::SeparableImpl::ByteMma;
    }
}

// Which kernel a custom plan runs. Auto: the FP16 tensor cores where the
// coefficients are exact in f16, else FP32 (the small-kernel rows first with
// IMGPAR_CUSTOM_SMALL=1).
enum class CustomImpl { SmallKernel, HalfMma, Fp32 };

CustomImpl choose_custom(const FilterPlan& plan, int channels, CustomPath path, const fd::DeviceLimits& dev) {
    switch (path) {
        case CustomPath::Fp32:
            return CustomImpl::Fp32;
        case CustomPath::HalfMma:
            if (!fd::custom_half_supported(plan, channels, dev))
                throw device_error(kSubject, "the FP16 tensor-core custom filter needs compute capability 8.0 or "
                                             "newer and coefficients that are exact FP16 values");
            return CustomImpl::HalfMma;
        case CustomPath::SmallKernel:
            if (!fd::custom_small_supported(plan, channels, dev))
                throw device_error(kSubject, "the small-kernel custom filter needs compute capability 8.0 or newer "
                                             "and a kernel that fits the 7x7 square centred on its anchor");
            return CustomImpl::SmallKernel;
        case CustomPath::Auto:
        default:
            if (custom_small_in_auto() && fd::custom_small_supported(plan, channels, dev)) return CustomImpl::SmallKernel;
            return fd::custom_half_supported(plan, channels, dev) ? CustomImpl::HalfMma : CustomImpl::Fp32;
    }
}

const char* custom_name(CustomImpl impl) {
    switch (impl) {
        case CustomImpl::SmallKernel: return kCustomSmallName;
        case CustomImpl::HalfMma: return kCustomHalfName;
        default: return kCustomName;
    }
}

std::size_t scratch_needed(const FilterPlan& plan, int w, int h, int c) {
    if (plan.kind == FilterKind::Box) return fd::box_scratch_bytes(plan, w, h, c);  // any channel count
    return has_alpha(c) ? fd::wide_scratch_bytes(plan, w, h, c) : 0;
}

}  // namespace

namespace filter_detail {

TrimmedTaps trim_taps(const FilterPlan& plan) {
    const int r = plan.radius;
    int first = 0, last = 2 * r;
    while (first < 2 * r && plan.taps[first] == 0) ++first;
    while (last > first && plan.taps[last] == 0) --last;
    TrimmedTaps tt;
    tt.radius = std::max(r - first, last - r);
    for (int k = -tt.radius; k <= tt.radius; ++k) {
        const int v = plan.taps[r + k];
        tt.taps.push_back(v);
        tt.max_tap = std::max(tt.max_tap, v);
    }
    return tt;
}

DeviceLimits current_device_limits() {
    int device = 0;
    IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
    DeviceLimits d;
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&d.compute_major, cudaDevAttrComputeCapabilityMajor, device));
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&d.max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    IMGPAR_CUDA_CHECK(
        cudaDeviceGetAttribute(&d.max_smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    return d;
}

void throw_not_gray_or_rgb(const char* launcher, int channels) {
    throw std::logic_error(std::string(launcher) + ": an image with " + std::to_string(channels) +
                           " channels reached a kernel for gray and RGB images (images with alpha run the wide "
                           "kernels)");
}

void allow_dynamic_smem(const void* func, std::size_t bytes) {
    if (bytes <= 48 * 1024) return;
    IMGPAR_CUDA_CHECK(
        cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace filter_detail

void FilterWorkspace::reserve(const FilterPlan& plan, int width, int height, int channels) {
    check_plan(plan);
    check_image_shape(width, height, channels);
    fd::reserve_scratch(*this, plan, width, height, channels);
}

namespace filter_detail {

void reserve_scratch(FilterWorkspace& ws, const FilterPlan& plan, int width, int height, int channels) {
    ws.scratch_.reserve(scratch_needed(plan, width, height, channels));
    if (ws.tickets_.size() == 0) {
        ws.tickets_.reserve(1);  // zeroed by the first apply_filter, on its stream
        ws.tickets_zeroed_ = false;
        ws.ticket_base_ = 0;
    }
}

// The counter starts at zero on the stream of the first call, before any
// kernel takes a ticket, and the host waits for it once: the next calls may
// come on other streams. (It was zeroed with a blocking cudaMemcpy from
// pageable memory, which returns before its DMA lands and is not ordered with
// non-blocking streams: a session's first Gaussian could start on the
// cudaMalloc'd counter's old contents, take tickets past the end and leave
// most of the image unwritten. It showed where other sessions had just freed
// device memory: a batch encoding its JPEGs on the GPU, whose buffers come and
// go, wrote 2-7% of its photos almost black.)
void zero_tickets(FilterWorkspace& ws, cudaStream_t stream) {
    if (ws.tickets_zeroed_) return;
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(ws.tickets_.get(), 0, sizeof(unsigned long long), stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    ws.tickets_zeroed_ = true;
}

}  // namespace filter_detail

const char* apply_filter(const FilterPlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst,
                         FilterWorkspace& ws, cudaStream_t stream) {
    check_plan(plan);
    validate_images(plan, src, dst);
    const fd::DeviceLimits dev = fd::current_device_limits();
    fd::reserve_scratch(ws, plan, src.width, src.height, src.channels);
    fd::zero_tickets(ws, stream);

    fd::FilterCall call;
    call.plan = &plan;
    call.src = src;
    call.dst = dst;
    call.stream = stream;
    call.scratch = ws.scratch();
    call.scratch_bytes = ws.scratch_bytes();
    call.tickets = ws.tickets();
    call.ticket_base = ws.ticket_base();
    // The box picks its kernels for every channel count (cuda/filter_box.cu).
    if (plan.kind == FilterKind::Box) return fd::launch_box(call, dev);
    // Other filters of images with alpha: the wide kernels, whatever path was chosen.
    if (has_alpha(src.channels)) {
        fd::launch_wide(call);
        return fd::wide_name(plan);
    }
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            switch (choose_separable(plan, src.channels, ws.separable_path(), dev)) {
                case fd::SeparableImpl::HalfMma:
                    fd::launch_separable_half(call, dev);
                    return fd::half_mma_name(plan, src.channels, dev);
                case fd::SeparableImpl::SmallRadius:
                    fd::launch_separable_small(call, dev);
                    return kSmallRadiusName;
                case fd::SeparableImpl::ByteMma:
                    fd::launch_separable_tensor_core(call, dev);
                    return kByteMmaName;
            }
            break;
        case FilterKind::Box:
            break;  // launched above
        case FilterKind::Custom:
        {
            const CustomImpl impl = choose_custom(plan, src.channels, ws.custom_path(), dev);
            switch (impl) {
                case CustomImpl::SmallKernel: fd::launch_custom_small(call, dev); break;
                case CustomImpl::HalfMma: fd::launch_custom_half(call, dev); break;
                default: fd::launch_custom(call, dev); break;
            }
            return custom_name(impl);
        }
        case FilterKind::Edges:
            if (edges_on_rows()) {
                fd::launch_edges_rows(call, dev);
                return kEdgesRowsName;
            }
            fd::launch_edges(call, dev);
            return kEdgesName;
    }
    return "unknown";
}

bool separable_path_available(const FilterPlan& plan, int channels, SeparablePath path) {
    check_plan(plan);
    if (has_alpha(channels)) return path == SeparablePath::Auto;
    const fd::DeviceLimits dev = fd::current_device_limits();
    switch (path) {
        case SeparablePath::HalfMma:
            return fd::half_mma_supported(plan, channels, dev);
        case SeparablePath::SmallRadius:
            return fd::small_radius_supported(plan, channels, dev);
        case SeparablePath::ByteMma:
            return fd::tensor_core_supported(plan, channels, dev);
        case SeparablePath::Integer:
            return false;  // 16-bit images only
        default:
            return true;
    }
}

bool custom_path_available(const FilterPlan& plan, int channels, CustomPath path) {
    check_plan(plan);
    if (has_alpha(channels)) return path == CustomPath::Auto;
    switch (path) {
        case CustomPath::HalfMma: return fd::custom_half_supported(plan, channels, fd::current_device_limits());
        case CustomPath::SmallKernel: return fd::custom_small_supported(plan, channels, fd::current_device_limits());
        default: return true;
    }
}

const char* filter_path_name(const FilterPlan& plan, int channels, const FilterWorkspace& ws) {
    check_plan(plan);
    if (plan.kind == FilterKind::Box) return fd::box_name(plan, channels);
    if (has_alpha(channels)) return fd::wide_name(plan);
    const fd::DeviceLimits dev = fd::current_device_limits();
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            switch (choose_separable(plan, channels, ws.separable_path(), dev)) {
                case fd::SeparableImpl::HalfMma: return fd::half_mma_name(plan, channels, dev);
                case fd::SeparableImpl::SmallRadius: return kSmallRadiusName;
                case fd::SeparableImpl::ByteMma: return kByteMmaName;
            }
            break;
        case FilterKind::Box: return fd::box_name(plan, channels);
        case FilterKind::Custom:
            return custom_name(choose_custom(plan, channels, ws.custom_path(), dev));
        case FilterKind::Edges: return edges_on_rows() ? kEdgesRowsName : kEdgesName;
    }
    return "unknown";
}

}  // namespace cuda

namespace gpu {

void apply_filter(Session& session, const FilterPlan& plan, ConstDeviceViewU8 src, DeviceViewU8 dst,
                  std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    const char* name = cuda::apply_filter(plan, src, dst, session.impl().filters, stream);
    if (kernel) *kernel = name;
}

}  // namespace gpu
}  // namespace imgpar
