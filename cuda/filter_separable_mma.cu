// The u8 MMA ring of rows (cuda/filter_separable_mma.cuh), host side: the
// 8-bit Gaussian's general fallback, and the 16-bit Gaussian's main path
// (cuda/filter_separable_mma16.cuh). For 8 bits it takes every plan the
// register-chained kernel cannot (trimmed radius above 64, a tap above 2048,
// or a device without the shared memory that kernel needs); for 16 bits every
// plan whose taps fit 16 bits. It narrows its strips until a block fits the
// device. Gray and RGB images (images with alpha run cuda/filter_wide.cu and
// cuda/filter_u16.cu).
#include <algorithm>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/filter_separable_mma.cuh"
#include "cuda/filter_separable_mma16.cuh"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

using namespace ring;

// --- host side ------------------------------------------------------------------

using KernelFn = void (*)(SepMmaArgs);

// Chunk counts with an instantiated kernel; a plan's NJ is rounded up to the
// next one (extra chunks meet zero taps, so the result is the same, only
// slower). Only the plans the register-chained kernel cannot take reach this
// one (launch_separable_half: every variant fits the 99 KB of shared memory
// of the smallest 8.x GPUs), and their chunk counts are known:
//  - a trimmed radius above 64 (sigma above ~16): taps below 256, NJ =
//    ceil((16 + 2r) / 32) from 5 (r = 65) to 10 (r = 150);
//  - a tap above 255 where the path is forced (the tests): two byte planes;
//    a tap above 2048 (sigma below ~0.8) trims the radius to 3 or less,
//    NJ = 1. Every plan with a tap above 255 (sigma below ~6.4) trims to
//    NJ <= 2 (checked for sigma 0.05..50 in steps of 0.01, automatic radius
//    and radius 150), so forcing this kernel on any plan still finds one.
// Other chunk counts would only serve plans that never come here.
int instantiated_nj(int nj, int tp) {
    const int one[] = {5, 6, 8, 10};
    const int two[] = {1, 2};
    if (tp == 1) {
        for (int v : one)
            if (v >= nj) return v;
    } else {
        for (int v : two)
            if (v >= nj) return v;
    }
    return 0;
}

template <int C>
KernelFn kernel_for(int nj, int tp) {
    if (tp == 1) {
        switch (nj) {
            case 5: return &separable_mma_kernel<C, 5, 1>;
            case 6: return &separable_mma_kernel<C, 6, 1>;
            case 8: return &separable_mma_kernel<C, 8, 1>;
            case 10: return &separable_mma_kernel<C, 10, 1>;
            default: return nullptr;
        }
    }
    switch (nj) {
        case 1: return &separable_mma_kernel<C, 1, 2>;
        case 2: return &separable_mma_kernel<C, 2, 2>;
        default: return nullptr;
    }
}

// 16 bits: the taps always take two byte planes (a 16-bit Gaussian's centre
// tap is above 255 for every sigma up to ~100), and the chunk counts of
// radius 0..150 (NJ 1..10) round up to these.
int instantiated_nj16(int nj) {
    for (int v : {1, 2, 3, 4, 6, 10})
        if (v >= nj) return v;
    return 0;
}

template <int C>
KernelFn kernel_for16(int nj) {
    switch (nj) {
        case 1: return &separable_mma_kernel<C, 1, 2, 2>;
        case 2: return &separable_mma_kernel<C, 2, 2, 2>;
        case 3: return &separable_mma_kernel<C, 3, 2, 2>;
        case 4: return &separable_mma_kernel<C, 4, 2, 2>;
        case 6: return &separable_mma_kernel<C, 6, 2, 2>;
        case 10: return &separable_mma_kernel<C, 10, 2, 2>;
        default: return nullptr;
    }
}

KernelFn pick_kernel(int channels, int nj, int tp, int sample_bytes) {
    if (sample_bytes == 2) {
        switch (channels) {
            case 1: return kernel_for16<1>(nj);
            case 3: return kernel_for16<3>(nj);
            default: return nullptr;
        }
    }
    switch (channels) {
        case 1: return kernel_for<1>(nj, tp);
        case 3: return kernel_for<3>(nj, tp);
        default: return nullptr;
    }
}
static_assert(kMaxNJ == 10, "the largest instantiated NJ must cover radius 150");

// Launch shape of one call (see SeparableMmaPolicy).
struct MmaShape {
    bool ok = false;
    int nj = 0, tp = 1;
    int strip_px = 0, seg_rows = 0, ring = 0, ring_stride = 0, stage_stride = 0, out_stride = 0;
    int off_tab_hi = 0, off_ring_lo = 0, off_ring_hi = 0, off_stage = 0, off_out = 0, smem = 0;
};

// sample_bytes: 1 or 2 (the staged rows and the output tile hold that many
// byte planes a channel).
MmaShape choose_shape(const TrimmedTaps& tt, int width, int height, int channels, const DeviceLimits& dev,
                      int sample_bytes = 1) {
    MmaShape s;
    s.tp = sample_bytes == 2 || tt.max_tap > 255 ? 2 : 1;
    const int nj = (16 + 2 * tt.radius + 31) / 32;
    s.nj = sample_bytes == 2 ? instantiated_nj16(nj) : instantiated_nj(nj, s.tp);
    if (dev.compute_major < 8 || s.nj == 0 || pick_kernel(channels, s.nj, s.tp, sample_bytes) == nullptr) return s;
    const int r = tt.radius;
    s.ring = static_cast<int>(round_up(static_cast<std::size_t>(2 * r + 32), 16));
    s.ring_stride = s.ring % 32 == 0 ? s.ring + 16 : s.ring;
    const int tab = static_cast<int>(round_up(static_cast<std::size_t>(32 * s.nj + 16), 16));
    for (int strip = channels == 1 ? SeparableMmaPolicy::kStripGray : SeparableMmaPolicy::kStripColour; strip >= 16;
         strip /= 2) {
        int ss = static_cast<int>(round_up(static_cast<std::size_t>(strip + 32 * s.nj - 16), 16));
        if (ss % 32 == 0) ss += 16;
        // = 32 (mod 128): the vertical pass's byte stores from 8 rows then land
        // 8 banks apart, free of conflicts.
        int os = static_cast<int>(round_up(static_cast<std::size_t>(strip * channels * sample_bytes), 16));
        while (os % 128 != 32) os += 16;
        const int ring_bytes = channels * strip * s.ring_stride;
        s.off_tab_hi = tab;
        s.off_ring_lo = 2 * tab;
        s.off_ring_hi = s.off_ring_lo + ring_bytes;
        s.off_stage = s.off_ring_hi + ring_bytes;
        s.off_out = s.off_stage + channels * sample_bytes * kStep * ss;
        s.smem = s.off_out + kStep * os;
        if (s.smem <= dev.max_smem_optin) {
            s.strip_px = strip;
            s.stage_stride = ss;
            s.out_stride = os;
            s.ok = true;
            break;
        }
    }
    if (!s.ok) return s;
    const int blocks_x = ceil_div(width, s.strip_px);
    const int per_sm = std::max(1, std::min(2048 / kThreads, dev.max_smem_per_sm / (s.smem + 1024)));
    const int target = SeparableMmaPolicy::kWaves * dev.sm_count * per_sm;
    const int segs = std::max(1, ceil_div(target, blocks_x));
    int seg = static_cast<int>(round_up(static_cast<std::size_t>(ceil_div(height, segs)), 16));
    seg = std::max(seg, static_cast<int>(round_up(
                             static_cast<std::size_t>(std::max(SeparableMmaPolicy::kMinSegRows, 4 * r)), 16)));
    seg = std::min(seg, static_cast<int>(round_up(static_cast<std::size_t>(height), 16)));
    s.seg_rows = seg;
    return s;
}

}  // namespace

bool tensor_core_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    const TrimmedTaps tt = trim_taps(plan);
    // Width and height do not affect feasibility, only the segment length.
    return choose_shape(tt, 1024, 1024, channels, dev).ok;
}

namespace {

// The arguments of a call, but for the images' pointers and the taps.
SepMmaArgs shape_args(const FilterPlan& plan, const MmaShape& shape, int radius) {
    SepMmaArgs a{};
    a.border = border_arg(plan);
    a.mode = separable_mode(plan);
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    a.radius = radius;
    a.strip_px = shape.strip_px;
    a.strip_shift = 0;
    while ((1 << a.strip_shift) < shape.strip_px) ++a.strip_shift;
    a.seg_rows = shape.seg_rows;
    a.ring = shape.ring;
    a.ring_stride = shape.ring_stride;
    a.stage_stride = shape.stage_stride;
    a.out_stride = shape.out_stride;
    a.off_tab_hi = shape.off_tab_hi;
    a.off_ring_lo = shape.off_ring_lo;
    a.off_ring_hi = shape.off_ring_hi;
    a.off_stage = shape.off_stage;
    a.off_out = shape.off_out;
    a.smem_bytes = shape.smem;
    return a;
}

void set_taps(SepMmaArgs& a, const std::vector<int>& taps) {
    for (std::size_t k = 0; k < taps.size(); ++k) {
        a.taps_lo[k] = static_cast<std::uint8_t>(taps[k] & 0xFF);
        a.taps_hi[k] = static_cast<std::uint8_t>(taps[k] >> 8);
    }
}

void launch(KernelFn kernel, const SepMmaArgs& a, const MmaShape& shape, int width, int height, cudaStream_t stream) {
    allow_dynamic_smem(reinterpret_cast<const void*>(kernel), static_cast<std::size_t>(shape.smem));
    const dim3 grid(static_cast<unsigned>(ceil_div(width, shape.strip_px)),
                    static_cast<unsigned>(ceil_div(height, shape.seg_rows)));
    kernel<<<grid, kThreads, static_cast<std::size_t>(shape.smem), stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_mma_kernel");
}

// The 16-bit taps of a plan with the zero taps at both ends removed.
TrimmedTaps trim_taps16(const FilterPlan& plan) {
    const std::vector<std::int32_t> t = gaussian_taps16(plan);
    int lo = 0;
    while (lo < plan.radius && t[static_cast<std::size_t>(lo)] == 0) ++lo;
    TrimmedTaps tt;
    tt.radius = plan.radius - lo;
    tt.taps.assign(t.begin() + lo, t.end() - lo);
    for (int v : tt.taps) tt.max_tap = std::max(tt.max_tap, v);
    return tt;
}

}  // namespace

void launch_separable_tensor_core(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    if (src.channels != 1 && src.channels != 3) throw_not_gray_or_rgb("gaussian filter", src.channels);
    const TrimmedTaps tt = trim_taps(plan);
    const MmaShape shape = choose_shape(tt, src.width, src.height, src.channels, dev);
    if (!shape.ok) throw device_error("gaussian filter", "the tensor-core kernel does not fit this device");

    SepMmaArgs a = shape_args(plan, shape, tt.radius);
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.src_words = rows_aligned(src.data, src.pitch, 4) ? 1 : 0;
    a.src_vec16 = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_vec16 = rows_aligned(call.dst.data, call.dst.pitch, 16) ? 1 : 0;
    set_taps(a, tt.taps);
    launch(pick_kernel(src.channels, shape.nj, shape.tp, 1), a, shape, src.width, src.height, call.stream);
}

const char* launch_separable_tensor_core16(const FilterPlan& plan, const ConstDeviceViewU16& src,
                                           const DeviceViewU16& dst, cudaStream_t stream, const DeviceLimits& dev) {
    if (src.channels != 1 && src.channels != 3) return nullptr;
    const TrimmedTaps tt = trim_taps16(plan);
    if (tt.max_tap > 0xFFFF) return nullptr;  // a single tap of 2^16 (the identity) needs a third byte
    const MmaShape shape = choose_shape(tt, src.width, src.height, src.channels, dev, 2);
    if (!shape.ok) return nullptr;

    SepMmaArgs a = shape_args(plan, shape, tt.radius);
    for (int c = 0; c < kMaxC; ++c) a.border.constant[c] = level16(plan.border.value);
    a.src = {reinterpret_cast<const std::uint8_t*>(src.data), src.pitch, src.width, src.height, src.channels};
    a.dst = {reinterpret_cast<std::uint8_t*>(dst.data), dst.pitch};
    a.unsharp = {plan.amount_q8, threshold_level16(plan.threshold)};
    a.src_words = rows_aligned(src.data, src.pitch, 4) ? 1 : 0;
    a.src_vec16 = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_vec16 = rows_aligned(dst.data, dst.pitch, 16) ? 1 : 0;
    set_taps(a, tt.taps);
    launch(pick_kernel(src.channels, shape.nj, shape.tp, 2), a, shape, src.width, src.height, stream);
    return plan.kind == FilterKind::Unsharp ? "16-bit unsharp: u8 tensor cores over a ring of rows (two byte planes)"
                                            : "16-bit Gaussian: u8 tensor cores over a ring of rows (two byte planes)";
}

}  // namespace imgpar::cuda::filter_detail
