// CPU reference of the convolution filters: shape checks, the alpha rule
// (filter premultiplied colour; see filter.hpp) and dispatch to the passes in
// filter_cpu_separable.cpp and filter_cpu_2d.cpp.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_entry.hpp"
#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/ops/wide_math.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/ops/simd/wide_lanes.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu {

namespace {

using detail::Domain;

// Runs a per-row loop over [0, height) in parallel chunks.
void for_rows(int width, int height, int channels, const std::function<void(int y0, int y1)>& rows) {
    parallel_for(height, detail::row_grain(width, channels), rows);
}

// The custom kernel's denominator: exact (a power-of-two scaling).
double custom_denominator(const FilterPlan& plan) { return std::ldexp(plan.scale, plan.frac_bits); }

// Images without alpha: the 8-bit samples themselves.
void run_narrow(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst) {
    using detail::Narrow;
    Domain<Narrow> d;
    d.image = src;
    d.count = src.channels;
    d.border = plan.border;
    d.outside.fill(plan.border.value);
    // The values are the output samples (box, custom, edges; the Gaussian
    // and unsharp write their bytes themselves).
    const std::size_t n = static_cast<std::size_t>(dst.width) * dst.channels;
    const detail::RowSink out = [&dst, n](int y, const int* v) {
        // A local count: the byte stores could alias the captured n, and the
        // loop would not vectorise.
        const std::size_t count = n;
        std::uint8_t* o = dst.row(y);
        for (std::size_t i = 0; i < count; ++i) o[i] = static_cast<std::uint8_t>(v[i]);
    };
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: {
            const detail::NarrowBytes bytes{dst, src, plan.kind == FilterKind::Unsharp, plan.amount_q8, plan.threshold_level};
            detail::gaussian_pass_bytes(d, plan.taps, bytes);
            break;
        }
        case FilterKind::Box: detail::box_pass(d, plan.radius, out); break;
        case FilterKind::Custom: {
            detail::CustomRounding rounding;
            rounding.denominator = custom_denominator(plan);
            rounding.offset = plan.offset;
            rounding.top = 255;
            detail::custom_pass(d, plan, rounding, out);
            break;
        }
        case FilterKind::Edges: {
            ImageU8 luma;
            if (plan.edges_gray && src.channels == 3) {
                luma = ImageU8(src.width, src.height, 1);
                for_rows(src.width, src.height, 3, [&](int y0, int y1) {
                    for (int y = y0; y < y1; ++y) {
                        const std::uint8_t* s = src.row(y);
                        std::uint8_t* o = luma.row(y);
                        for (int x = 0; x < src.width; ++x, s += 3) o[x] = static_cast<std::uint8_t>(luma601(s[0], s[1], s[2]));
                    }
                });
                d.image = luma.view();
                d.count = 1;
            }
            detail::edges_pass(d, plan.edge_op, out);
            break;
        }
    }
}

// Images with alpha: the lanes of src/ops/wide_math.hpp, read from the
// pixels as the passes go, each output row turned back into bytes at once
// (in vector lanes: src/ops/simd/wide_lanes.hpp).
void run_wide(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst) {
    using detail::Wide;
    const int C = src.channels, colours = C - 1;
    const bool with_alpha = filters_alpha(plan.kind);
    Domain<Wide> d;
    d.image = src;
    d.count = wide_lanes(C, with_alpha);
    d.border = plan.border;
    for (int l = 0; l < d.count; ++l)
        d.outside[static_cast<std::size_t>(l)] = wide_constant_lane(l, colours, plan.border.value);

    if (with_alpha) {
        // Lanes P', A': c' = unpremultiply_filtered(P', A'), alpha = alpha_byte(A').
        const detail::RowSink out = [&](int y, const int* v) {
            simd::filtered_row_bytes(v, C, static_cast<std::size_t>(dst.width), dst.row(y));
        };
        switch (plan.kind) {
            case FilterKind::Gaussian: detail::gaussian_pass(d, plan.taps, out); break;
            case FilterKind::Box: detail::box_pass(d, plan.radius, out); break;
            default: {
                detail::CustomRounding rounding;
                rounding.denominator = custom_denominator(plan);
                rounding.offset = wide_offset(plan.offset);
                rounding.top = kWideTop;
                detail::custom_pass(d, plan, rounding, out);
                break;
            }
        }
        return;
    }

    // Unsharp, edges: lanes P' (unsharp: the blur b of P, replaced by
    // unsharp_output_wide(P, b)); the ORIGINAL alpha is copied and divides.
    if (plan.kind == FilterKind::Edges && plan.edges_gray) {
        d.count = 1;
        d.luma = colours == 3;  // gray+alpha: the gray lane itself
    }
    simd::KeptAlpha kept;
    kept.lanes = d.count;
    kept.channels = C;
    kept.unsharp = plan.kind == FilterKind::Unsharp;
    kept.amount_q8 = plan.amount_q8;
    kept.threshold_level = plan.threshold_level;
    const detail::RowSink out = [&](int y, const int* v) {
        simd::kept_row_bytes(kept, v, src.row(y), static_cast<std::size_t>(dst.width), dst.row(y));
    };
    if (plan.kind == FilterKind::Unsharp)
        detail::gaussian_pass(d, plan.taps, out);
    else
        detail::edges_pass(d, plan.edge_op, out);
}

}  // namespace

void apply_filter(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst) {
    filter_entry::apply_checked(plan, src, dst, [&](ConstViewU8 in, ViewU8 out) {
        if (has_alpha(in.channels))
            run_wide(plan, in, out);
        else
            run_narrow(plan, in, out);
    });
}

ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src) {
    check_image_shape(src.width, src.height, src.channels);
    ImageU8 out(src.width, src.height, plan.output_channels(src.channels));
    apply_filter(plan, src, out.view());
    return out;
}

std::string filter_kernel_name(const FilterPlan& plan, int channels) {
    // Images with alpha filter premultiplied 16-bit lanes (run_wide): the
    // Gaussian and box in 32-bit vector lanes, edges and custom kernels over
    // a ring of border-extended lane rows in vector rows, as 8-bit images.
    const bool wide = has_alpha(channels);
    const std::string target = simd::simd_target_name();
    std::string what;
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp:
            what = "separable passes, cache-blocked (rows into a ring, then columns; symmetric taps paired; ";
            what += !wide && plan.taps.size() / 2 <= 8 ? "16-bit multiply-adds, " : "32-bit lanes, ";
            what += target + ")";
            break;
        case FilterKind::Box: what = "box running sums (columns, then rows)"; break;
        case FilterKind::Custom:
            what = "2-D correlation over a ring of border-extended rows (";
            what += wide ? "premultiplied 16-bit lanes, vector rows, " : "vector rows, ";
            what += target + ")";
            break;
        case FilterKind::Edges:
            what = "3x3 operator pair over a ring of border-extended rows (";
            what += wide ? "premultiplied 16-bit lanes, vector rows, " : "vector rows, ";
            what += target + ")";
            break;
    }
    return what + ", " + std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s");
}

}  // namespace imgpar::cpu
