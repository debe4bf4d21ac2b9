// Host entry points of the GPU filters: validate the plan and the images
// before any GPU work, reserve scratch, pick the implementation, launch.

#include <cmath>
#include <cstdint>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_context.hpp"
#include "cuda/filter.hpp"
#include "cuda/filter_launch.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace fd = filter_detail;

namespace {

const char* const kSubject = "filter";

std::string shape_text(int w, int h, int c) {
    return std::to_string(w) + "x" + std::to_string(h) + " with " + std::to_string(c) + " channel" + (c == 1 ? "" : "s");
}

// The plan's fields the kernels rely on. Plans from make_* always pass; a
// hand-built inconsistent plan is a usage error rather than a bad launch.
void validate_plan(const FilterPlan& p) {
    auto fail = [](const std::string& why) { throw usage_error("filter plan", why); };
    switch (p.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: {
            if (p.radius < 1 || p.radius > kMaxGaussianRadius)
                fail("radius " + std::to_string(p.radius) + " is outside 1.." + std::to_string(kMaxGaussianRadius));
            if (p.taps.size() != static_cast<std::size_t>(2 * p.radius + 1))
                fail("a radius-" + std::to_string(p.radius) + " Gaussian needs " + std::to_string(2 * p.radius + 1) +
                     " taps, the plan has " + std::to_string(p.taps.size()));
            long long sum = 0;
            for (std::int32_t t : p.taps) {
                if (t < 0 || t > kGaussianTapSum) fail("Gaussian taps must lie in 0..4096");
                sum += t;
            }
            if (sum != kGaussianTapSum) fail("Gaussian taps must sum to 4096, these sum to " + std::to_string(sum));
            if (p.kind == FilterKind::Unsharp) {
                if (std::abs(p.amount_q8) > static_cast<int>(kMaxUnsharpAmount * 256) + 1)
                    fail("unsharp amount is outside the allowed range");
                if (p.threshold_level < 0 || p.threshold_level > 255) fail("unsharp threshold level must be 0..255");
            }
            break;
        }
        case FilterKind::Box:
            if (p.radius < 0 || p.radius > kMaxBoxRadius)
                fail("box radius " + std::to_string(p.radius) + " is outside 0.." + std::to_string(kMaxBoxRadius));
            break;
        case FilterKind::Edges:
            if (p.edge_op != EdgeOperator::Sobel && p.edge_op != EdgeOperator::Scharr &&
                p.edge_op != EdgeOperator::Laplacian)
                fail("unknown edge operator");
            break;
        case FilterKind::Custom: {
            if (p.kernel_width < 1 || p.kernel_width > kMaxKernelSide || p.kernel_height < 1 ||
                p.kernel_height > kMaxKernelSide)
                fail("kernel size " + std::to_string(p.kernel_width) + "x" + std::to_string(p.kernel_height) +
                     " is outside 1..63 per side");
            if (p.coeffs.size() != static_cast<std::size_t>(p.kernel_width) * p.kernel_height)
                fail("kernel has " + std::to_string(p.coeffs.size()) + " coefficients for a " +
                     std::to_string(p.kernel_width) + "x" + std::to_string(p.kernel_height) + " kernel");
            if (p.anchor_x < 0 || p.anchor_x >= p.kernel_width || p.anchor_y < 0 || p.anchor_y >= p.kernel_height)
                fail("kernel anchor lies outside the kernel");
            long long abs_sum = 0;
            for (std::int32_t c : p.coeffs) abs_sum += c < 0 ? -static_cast<long long>(c) : c;
            if (abs_sum > kMaxKernelAbsSum)
                fail("the sum of |fixed-point coefficients| is " + std::to_string(abs_sum) + ", above " +
                     std::to_string(kMaxKernelAbsSum));
            if (p.frac_bits < 0 || p.frac_bits > kMaxFracBits) fail("fractional bits outside 0..12");
            const double den = p.scale * std::ldexp(1.0, p.frac_bits);
            if (!std::isfinite(den) || den == 0.0) fail("kernel scale must be finite and non-zero");
            if (!std::isfinite(p.offset)) fail("kernel offset must be finite");
            break;
        }
        default:
            fail("unknown filter kind");
    }
}

bool overlaps(const DeviceViewU8& a, const DeviceViewU8& b) {
    auto span = [](const DeviceViewU8& r) {
        const auto begin = reinterpret_cast<std::uintptr_t>(r.data);
        const auto end = begin + static_cast<std::uintptr_t>(r.pitch) * static_cast<std::uintptr_t>(r.height - 1) +
                         static_cast<std::uintptr_t>(r.width) * static_cast<std::uintptr_t>(r.channels);
        return std::pair<std::uintptr_t, std::uintptr_t>(begin, end);
    };
    const auto sa = span(a);
    const auto sb = span(b);
    return sa.first < sb.second && sb.first < sa.second;
}

void validate_images(const FilterPlan& plan, const DeviceViewU8& src, const DeviceViewU8& dst) {
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
        case SeparablePath::Simple:
            return fd::SeparableImpl::Simple;
        case SeparablePath::HalfMma:
            if (!fd::half_mma_supported(plan, channels, dev))
                throw device_error(kSubject, "the FP16 tensor-core Gaussian needs compute capability 8.0 or newer, a "
                                             "radius up to 64 and sigma above about 0.8");
            return fd::SeparableImpl::HalfMma;
        case SeparablePath::ByteMma:
            if (!fd::tensor_core_supported(plan, channels, dev))
                throw device_error(kSubject, "the u8 tensor-core Gaussian needs compute capability 8.0 or newer");
            return fd::SeparableImpl::ByteMma;
        case SeparablePath::Auto:
        default:
            if (fd::half_mma_supported(plan, channels, dev)) return fd::SeparableImpl::HalfMma;
            if (fd::tensor_core_supported(plan, channels, dev)) return fd::SeparableImpl::ByteMma;
            return fd::SeparableImpl::Simple;
    }
}

// Whether a custom plan runs on the FP16 tensor cores.
bool choose_custom_half(const FilterPlan& plan, int channels, CustomPath path, const fd::DeviceLimits& dev) {
    switch (path) {
        case CustomPath::Fp32:
            return false;
        case CustomPath::HalfMma:
            if (!fd::custom_half_supported(plan, channels, dev))
                throw device_error(kSubject, "the FP16 tensor-core custom filter needs compute capability 8.0 or "
                                             "newer and coefficients that are exact FP16 values");
            return true;
        case CustomPath::Auto:
        default:
            return fd::custom_half_supported(plan, channels, dev);
    }
}

std::size_t scratch_needed(const FilterPlan& plan, int w, int h, int c, SeparablePath path,
                           const fd::DeviceLimits& dev) {
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            return choose_separable(plan, c, path, dev) == fd::SeparableImpl::Simple
                       ? fd::separable_simple_scratch_bytes(w, h, c)
                       : 0;
        case FilterKind::Box:
            return fd::box_scratch_bytes(plan, w, h, c);
        default:
            return 0;
    }
}

}  // namespace

namespace filter_detail {

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

void allow_dynamic_smem(const void* func, std::size_t bytes) {
    if (bytes <= 48 * 1024) return;
    IMGPAR_CUDA_CHECK(
        cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace filter_detail

void FilterWorkspace::reserve(const FilterPlan& plan, int width, int height, int channels) {
    validate_plan(plan);
    check_image_shape(width, height, channels);
    const fd::DeviceLimits dev = fd::current_device_limits();
    scratch_.reserve(scratch_needed(plan, width, height, channels, path_, dev));
    if (tickets_.size() == 0) {
        tickets_.reserve(1);
        // A blocking copy, not cudaMemset: that runs on the legacy stream,
        // unordered with the non-blocking streams callers may launch on.
        const unsigned long long zero = 0;
        IMGPAR_CUDA_CHECK(cudaMemcpy(tickets_.get(), &zero, sizeof zero, cudaMemcpyHostToDevice));
        ticket_base_ = 0;
    }
}

void apply_filter(const FilterPlan& plan, const DeviceViewU8& src, const DeviceViewU8& dst, FilterWorkspace& ws,
                  cudaStream_t stream) {
    validate_plan(plan);
    validate_images(plan, src, dst);
    const fd::DeviceLimits dev = fd::current_device_limits();
    ws.reserve(plan, src.width, src.height, src.channels);

    fd::FilterCall call;
    call.plan = &plan;
    call.src = src;
    call.dst = dst;
    call.stream = stream;
    call.scratch = ws.scratch();
    call.scratch_bytes = ws.scratch_bytes();
    call.tickets = ws.tickets();
    call.ticket_base = ws.ticket_base();
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            switch (choose_separable(plan, src.channels, ws.separable_path(), dev)) {
                case fd::SeparableImpl::HalfMma:
                    fd::launch_separable_half(call, dev);
                    break;
                case fd::SeparableImpl::ByteMma:
                    fd::launch_separable_tensor_core(call, dev);
                    break;
                case fd::SeparableImpl::Simple:
                    fd::launch_separable_simple(call);
                    break;
            }
            break;
        case FilterKind::Box:
            fd::launch_box(call, dev);
            break;
        case FilterKind::Custom:
            if (choose_custom_half(plan, src.channels, ws.custom_path(), dev))
                fd::launch_custom_half(call, dev);
            else
                fd::launch_custom(call, dev);
            break;
        case FilterKind::Edges:
            fd::launch_edges(call, dev);
            break;
    }
}

ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src) {
    validate_plan(plan);
    check_image_shape(src.width, src.height, src.channels);
    const int out_c = plan.output_channels(src.channels);
    DeviceContext& ctx = context();
    const cudaStream_t stream = ctx.stream();
    DeviceImageU8 d_src = DeviceImageU8::from_host(src, stream);
    DeviceImageU8 d_dst(src.width, src.height, out_c);
    FilterWorkspace ws;
    apply_filter(plan, d_src.view(), d_dst.view(), ws, stream);
    ImageU8 out(src.width, src.height, out_c);
    d_dst.download(out.view(), stream);
    ctx.synchronize();
    return out;
}

bool separable_path_available(const FilterPlan& plan, int channels, SeparablePath path) {
    validate_plan(plan);
    const fd::DeviceLimits dev = fd::current_device_limits();
    switch (path) {
        case SeparablePath::HalfMma:
            return fd::half_mma_supported(plan, channels, dev);
        case SeparablePath::ByteMma:
            return fd::tensor_core_supported(plan, channels, dev);
        default:
            return true;
    }
}

bool custom_path_available(const FilterPlan& plan, int channels, CustomPath path) {
    validate_plan(plan);
    if (path != CustomPath::HalfMma) return true;
    return fd::custom_half_supported(plan, channels, fd::current_device_limits());
}

const char* filter_path_name(const FilterPlan& plan, int channels, const FilterWorkspace& ws) {
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            switch (choose_separable(plan, channels, ws.separable_path(), fd::current_device_limits())) {
                case fd::SeparableImpl::HalfMma:
                    return fd::half_mma_name(plan, channels, fd::current_device_limits());
                case fd::SeparableImpl::ByteMma:
                    return "tensor-core separable (u8 MMA, ring of rows in shared memory)";
                case fd::SeparableImpl::Simple:
                    return "two-pass separable (one thread per pixel)";
            }
            break;
        case FilterKind::Box:
            return "box running sums (column windows, then row prefix sums)";
        case FilterKind::Custom:
            return choose_custom_half(plan, channels, ws.custom_path(), fd::current_device_limits())
                       ? "tensor-core 2-D (FP16 MMA, a Toeplitz product per kernel row)"
                       : "2-D tiles in shared memory (FP32, exact)";
        case FilterKind::Edges:
            return "3x3 on byte planes in shared memory (16-byte tile loads)";
    }
    return "unknown";
}

}  // namespace imgpar::cuda
