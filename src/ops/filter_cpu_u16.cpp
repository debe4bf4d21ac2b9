// CPU reference of the convolution filters on 16-bit images (the 16-bit
// contract in src/ops/filter.hpp): shape checks, the working domain (Deep
// samples, or DeepWide premultiplied lanes for images with alpha), the passes
// of filter_cpu_u16_passes.cpp and the sinks that turn their lane values into
// 16-bit samples.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_entry.hpp"
#include "src/ops/filter_cpu_u16_detail.hpp"
#include "src/ops/filter_u16_math.hpp"
#include "src/ops/wide_math.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu {

namespace {

using u16::Deep;
using u16::DeepWide;
using u16::LaneKind;
using u16::RowSink16;
using u16::Source;

template <typename D>
Source<D> source(const FilterPlan& plan, ConstViewU16 src, LaneKind kind, int count) {
    Source<D> s;
    s.image = src;
    s.kind = kind;
    s.count = count;
    s.mode = plan.border.mode;
    s.set_outside(plan.border.value);
    return s;
}

// The pass of `plan` over `in`, its values to `out`. Custom kernels take the
// offset and full scale of the domain.
template <typename D>
void run_pass(const FilterPlan& plan, const Source<D>& in, double offset, std::uint64_t top, const RowSink16& out) {
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: u16::gaussian16(in, gaussian_taps16(plan), out); break;
        case FilterKind::Box: u16::box16(in, plan.radius, out); break;
        case FilterKind::Custom: u16::custom16(in, plan, offset, top, out); break;
        case FilterKind::Edges: u16::edges16(in, plan.edge_op, out); break;
    }
}

// Images without alpha: lanes are the samples (or their luma for gray edges).
void run_deep(const FilterPlan& plan, ConstViewU16 src, ViewU16 dst) {
    const bool luma = plan.kind == FilterKind::Edges && plan.edges_gray && src.channels == 3;
    const Source<Deep> in = source<Deep>(plan, src, luma ? LaneKind::Luma : LaneKind::Samples, luma ? 1 : src.channels);
    const std::size_t n = static_cast<std::size_t>(dst.width) * dst.channels;
    const bool unsharp = plan.kind == FilterKind::Unsharp;
    const int level = threshold_level16(plan.threshold);
    const RowSink16 out = [&](int y, const std::uint64_t* v) {
        std::uint16_t* o = dst.row(y);
        const std::uint16_t* s = src.row(y);
        for (std::size_t t = 0; t < n; ++t) {
            const int value = static_cast<int>(v[t]);
            o[t] = static_cast<std::uint16_t>(unsharp ? unsharp_output16(s[t], value, plan.amount_q8, level) : value);
        }
    };
    run_pass(plan, in, 257.0 * plan.offset, kTop16, out);
}

// Images with alpha: the DeepWide lanes. Gaussian, box and custom filter P and
// A; unsharp and edges filter P and keep the pixel's alpha.
void run_wide(const FilterPlan& plan, ConstViewU16 src, ViewU16 dst) {
    const int C = src.channels, colours = C - 1;
    const int oc = dst.channels;
    if (filters_alpha(plan.kind)) {
        const Source<DeepWide> in = source<DeepWide>(plan, src, LaneKind::WithAlpha, C);
        const RowSink16 out = [&](int y, const std::uint64_t* v) {
            std::uint16_t* o = dst.row(y);
            for (int x = 0; x < dst.width; ++x, v += C, o += C) {
                for (int c = 0; c < colours; ++c)
                    o[c] = static_cast<std::uint16_t>(unpremultiply_filtered16(v[c], v[colours]));
                o[colours] = static_cast<std::uint16_t>(alpha16(v[colours]));
            }
        };
        run_pass(plan, in, 65535.0 * 257.0 * plan.offset, kWideTop16, out);
        return;
    }
    const bool gray = plan.kind == FilterKind::Edges && plan.edges_gray;
    const LaneKind kind = gray && colours == 3 ? LaneKind::WideLuma : LaneKind::Colours;
    const int lanes = gray ? 1 : colours;
    const Source<DeepWide> in = source<DeepWide>(plan, src, kind, lanes);
    const bool unsharp = plan.kind == FilterKind::Unsharp;
    const int level = threshold_level16(plan.threshold);
    const RowSink16 out = [&](int y, const std::uint64_t* v) {
        const std::uint16_t* s = src.row(y);
        std::uint16_t* o = dst.row(y);
        for (int x = 0; x < dst.width; ++x, s += C, o += oc, v += lanes) {
            const int a = s[colours];
            for (int c = 0; c < lanes; ++c) {
                std::uint64_t p = v[c];
                if (unsharp)
                    p = unsharp_output_wide16(premultiply16(s[c], a), static_cast<std::uint32_t>(p), plan.amount_q8,
                                              level);
                o[c] = static_cast<std::uint16_t>(unpremultiply_kept16(p, a));
            }
            o[lanes] = static_cast<std::uint16_t>(a);
        }
    };
    run_pass(plan, in, 0.0, kWideTop16, out);
}

}  // namespace

void apply_filter(const FilterPlan& plan, ConstViewU16 src, ViewU16 dst) {
    filter_entry::apply_checked(plan, src, dst, [&](ConstViewU16 in, ViewU16 out) {
        if (has_alpha(in.channels))
            run_wide(plan, in, out);
        else
            run_deep(plan, in, out);
    });
}

ImageU16 apply_filter(const FilterPlan& plan, ConstViewU16 src) {
    check_image_shape(src.width, src.height, src.channels);
    ImageU16 out(src.width, src.height, plan.output_channels(src.channels));
    apply_filter(plan, src, out.view());
    return out;
}

std::string filter_kernel_name_u16(const FilterPlan& plan, int channels) {
    std::string what = has_alpha(channels) ? "16-bit premultiplied 32-bit lanes, 64-bit sums: " : "16-bit samples: ";
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: what += "separable passes (16-bit taps)"; break;
        case FilterKind::Box: what += "box running sums (64-bit)"; break;
        case FilterKind::Custom: what += "2-D correlation over border-extended rows (64-bit sums)"; break;
        case FilterKind::Edges: what += "3x3 operator pair over border-extended rows"; break;
    }
    return what + ", " + std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s");
}

}  // namespace imgpar::cpu
