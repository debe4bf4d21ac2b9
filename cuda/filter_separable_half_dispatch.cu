// The tensor-core Gaussian's dispatch (host side): the variant a plan needs
// (its row of the tuning table), the row segment plan, the kernel arguments
// and tables, and the launch. The kernels are in
// cuda/filter_separable_half_kernel.cuh (instantiated by
// cuda/filter_separable_half_c1.cu and _c3.cu: gray and RGB images; images
// with alpha run cuda/filter_wide.cu).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "cuda/check.hpp"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_separable_half.cuh"
#include "cuda/occupancy.hpp"
#include "cuda/tensor_map.hpp"
#include "src/error.hpp"

namespace imgpar::cuda::filter_detail {
namespace {

// Whether every tap is an f16 value, through the conversion the pair
// tables use (half_bits): integers to 2048, even ones to 4096, and so on.
// A Gaussian's taps sum to 4096 and are symmetric, so its centre tap is
// even and every tap is exact: sigma 0.5's centre 3222 is 2 x 1611.
bool taps_exact_in_f16(const TrimmedTaps& tt) {
    for (int t : tt.taps) {
        __half_raw h;
        h.x = static_cast<unsigned short>(half_bits(static_cast<float>(t)));
        if (__half2float(__half(h)) != static_cast<float>(t)) return false;
    }
    return true;
}

// The kernel of row `row` of the tuning table (every row is gray or RGB:
// gaussian_rows_gray_or_rgb).
HalfVariant half_variant(int row) {
    return kGaussianTuning[row].channels == 1 ? half_variant_of_channels<1>(row) : half_variant_of_channels<3>(row);
}

// The variant a plan needs, or none (fn == nullptr; also for a channel count
// without rows).
HalfVariant variant_for_plan(const TrimmedTaps& tt, int channels, bool plain, const DeviceLimits& dev) {
    if (dev.compute_major < 8 || tt.radius < 1 || tt.radius > 16 * kMaxM || !taps_exact_in_f16(tt)) return {};
    const int m = tt.radius <= 8 ? 0 : ceil_div(tt.radius, 16);
    const int row = gaussian_row_for(channels, m, uses_u8_passes(m, tt.max_tap), plain);
    if (row < 0) return {};
    const HalfVariant v = half_variant(row);
    if (v.smem > dev.max_smem_optin) return {};
    return v;
}

HalfVariant variant_for_plan(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    return variant_for_plan(trim_taps(plan), channels, separable_mode(plan) == SepMode::Blur, dev);
}

// The row segments (SegmentTuning): the first long_percent of row_blocks
// output row blocks in segments of equal length (to one block; one per
// resident block and strip, so they fill the GPU once, and for the edge
// strips edge_long_num / edge_long_den times as many where the first wave
// has room), the rest in segments of about short_len blocks. The persistent
// blocks take segments in this order as they finish the one before.
SegmentPlan plan_segments(int row_blocks, int strips, int resident, const SegmentTuning& st) {
    const int late = (row_blocks * (100 - st.long_percent) + 50) / 100;  // < row_blocks
    const int early = row_blocks - late;
    const int segs = std::max(1, std::min(early, resident / strips));
    SegmentPlan plan{};
    plan.strips = strips;
    const int edges = plan.edge_strips();
    int edge_segs = std::min(early, ceil_div(segs * st.edge_long_num, st.edge_long_den));
    if (edges * (edge_segs - segs) > resident - segs * strips) edge_segs = segs;
    const auto tier = [](int rows, int count, int first) {
        return count > 0 ? SegmentTier{count, rows / count, rows % count, first} : SegmentTier{0, 0, 0, first};
    };
    plan.inner_long = tier(early, segs, 0);
    plan.edge_long = tier(early, edge_segs, 0);
    plan.short_tier = tier(late, late > 0 ? std::max(1, late / st.short_len) : 0, early);
    return plan;
}

// Whether a strip whose staged columns start at image column xs can fill
// those outside the image from its slot: the border rule maps each to a
// column the strip stages (or to the constant; all but wrap borders of
// images wider than a strip), and at most halo_cols of them per row.
bool halo_strip_ok(int xs, int staged, int width, int halo_cols, BorderMode mode) {
    if (std::max(0, -xs) + std::max(0, xs + staged - width) > halo_cols) return false;
    for (int x = xs; x < xs + staged; ++x) {
        if (x >= 0 && x < width) continue;
        const int img = border_index(x, width, mode);
        if (img >= 0 && (img < xs || img >= xs + staged)) return false;
    }
    return true;
}

// HalfArgs::gather_edges: bit 0 if every strip with staged columns left of
// the image can fill them from its slot, bit 1 the same on the right.
int gather_edges(int width, const HalfVariant& v, BorderMode mode) {
    const int staged = v.tuning->strip_px + 2 * v.halo;
    bool left = true, right = true;
    for (int x0 = 0; x0 < width; x0 += v.tuning->strip_px) {
        const int xs = x0 - v.halo;
        if (xs >= 0 && xs + staged <= width) continue;
        const bool ok = halo_strip_ok(xs, staged, width, v.halo_cols, mode);
        if (xs < 0) left = left && ok;
        if (xs + staged > width) right = right && ok;
    }
    return (left ? 1 : 0) | (right ? 2 : 0);
}

}  // namespace

bool half_mma_supported(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    return variant_for_plan(plan, channels, dev).fn != nullptr;
}

const char* half_mma_name(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    const HalfVariant v = variant_for_plan(plan, channels, dev);
    return v.tuning != nullptr && v.tuning->u8_passes
               ? "tensor-core separable (u8 MMA, both passes in registers)"
               : "tensor-core separable (FP16 MMA, both passes in registers)";
}

void launch_separable_half(const FilterCall& call, const DeviceLimits& dev) {
    const FilterPlan& plan = *call.plan;
    const ConstDeviceViewU8& src = call.src;
    if (src.channels != 1 && src.channels != 3) throw_not_gray_or_rgb("gaussian filter", src.channels);
    const TrimmedTaps tt = trim_taps(plan);
    const SepMode mode = separable_mode(plan);
    const HalfVariant v = variant_for_plan(tt, src.channels, mode == SepMode::Blur, dev);
    if (v.fn == nullptr)
        throw device_error("gaussian filter", "the FP16 tensor-core kernel does not support this plan");

    HalfArgs a{};
    a.src = src_arg(src);
    a.dst = dst_arg(call.dst);
    a.border = border_arg(plan);
    a.border_value = plan.border.value;
    a.mode = mode;
    a.unsharp = {plan.amount_q8, plan.threshold_level};
    a.radius = tt.radius;
    a.src_vec = rows_aligned(src.data, src.pitch, 16) ? 1 : 0;
    a.dst_vec = rows_aligned(call.dst.data, call.dst.pitch, 16) ? 1 : 0;
    // Offsets within 16 rows (row < 16, column byte < pitch) held as 32 bits.
    a.block_offsets = std::max(src.pitch, call.dst.pitch) <= (std::size_t{1} << 27) ? 1 : 0;
    // Bulk copies (compute 9.0+) need 16-byte aligned rows, as cp.async does.
    a.tma = dev.compute_major >= 9 && a.src_vec != 0 ? 1 : 0;
    if (a.tma != 0)
        a.src_map = byte_tile_map(src.data, static_cast<std::size_t>(src.width) * src.channels, src.height, src.pitch,
                                  v.box_bytes, 16);
    a.gather_edges = gather_edges(src.width, v, plan.border.mode);
    // pairs[i + PAIR_OFFSET] = (tap(i), tap(i + 1)) as f16, quads[j + QUAD_OFFSET] = taps j..j + 3 as bytes
    // (all <= 255 for the u8 passes), tap(j) = 0 outside 0..2r.
    const auto tap = [&](int j) { return j >= 0 && j <= 2 * tt.radius ? tt.taps[static_cast<std::size_t>(j)] : 0; };
    fill_half_pairs(a.pairs, kPairs, HalfTables::PAIR_OFFSET, tap);
    if (v.tuning->u8_passes) fill_byte_quads(a.quads, kQuads, HalfTables::QUAD_OFFSET, tap);
    const int row_blocks = ceil_div(src.height, 16);

    allow_dynamic_smem(reinterpret_cast<const void*>(v.fn), static_cast<std::size_t>(v.smem));
    const int resident = std::max(
        dev.sm_count,
        co_resident_blocks(reinterpret_cast<const void*>(v.fn), v.threads, static_cast<std::size_t>(v.smem)));
    const int strips = ceil_div(src.width, v.tuning->strip_px);
    a.segments = plan_segments(row_blocks, strips, resident, v.tuning->segments);
    const int segments = a.segments.total();
    const bool persistent = v.tuning->has(kPersistent);
    if (persistent) {
        if (call.tickets == nullptr || call.ticket_base == nullptr)
            throw device_error("gaussian filter", "the tensor-core kernel needs the workspace's ticket counter");
        a.tickets = call.tickets;
        a.ticket_base = *call.ticket_base;
    }
    const int blocks = persistent ? std::min(resident, segments) : segments;
    v.fn<<<blocks, static_cast<unsigned>(v.threads), static_cast<std::size_t>(v.smem), call.stream>>>(a);
    IMGPAR_CUDA_CHECK_LAUNCH("separable_half_kernel");
    // Each persistent block takes one ticket past the last segment before it stops.
    if (persistent)
        *call.ticket_base += static_cast<unsigned long long>(segments) + static_cast<unsigned long long>(blocks);
}

const GaussianTuning* half_mma_tuning(const FilterPlan& plan, int channels, const DeviceLimits& dev) {
    return variant_for_plan(plan, channels, dev).tuning;
}

std::string describe(const GaussianTuning& t) {
    static const std::pair<GaussianKnob, const char*> kKnobs[] = {
        {kPersistent, "persistent"}, {kEarlyVertical, "early-vertical"}, {kSteadyLoop, "steady"},
        {kRotateWindow, "rotate"},   {kOwnRegisters, "own-registers"},   {kPlanarTile, "planar"}};
    std::string s = t.channels == 1 ? "gray" : (t.channels == 3 ? "rgb" : "?");
    s += " M=" + std::to_string(t.m) + (t.u8_passes ? " u8" : " fp16") + " unroll=" + std::to_string(t.unroll);
    s += " strip=" + std::to_string(t.strip_px) + " tiles=" + std::to_string(t.tiles_per_warp);
    s += " blocks/SM=" + std::to_string(t.blocks_per_sm) + " unit=" + std::to_string(t.convert_unit_px) + "px";
    s += " slots=" + std::to_string(t.raw_slots);
    for (const auto& [knob, name] : kKnobs)
        if (t.has(knob)) s += std::string(" ") + name;
    s += " segments=" + std::to_string(t.segments.long_percent) + "%/" + std::to_string(t.segments.short_len);
    return s + " edge=" + std::to_string(t.segments.edge_long_num) + "/" + std::to_string(t.segments.edge_long_den);
}

}  // namespace imgpar::cuda::filter_detail
