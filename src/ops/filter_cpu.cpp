// CPU reference of the convolution filters: shape checks, the alpha rule
// (filter premultiplied colour; see filter.hpp) and dispatch to the passes in
// filter_cpu_separable.cpp and filter_cpu_2d.cpp.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_cpu_detail.hpp"
#include "src/ops/filter_math.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu {

namespace {

using detail::Domain;

void check_shapes(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst) {
    check_image_shape(src.width, src.height, src.channels);
    if (!src.data || src.stride < src.row_bytes()) throw usage_error("filter", "the source image view is invalid");
    const int want = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != want || !dst.data ||
        dst.stride < dst.row_bytes())
        throw usage_error("filter", std::string("the output must be ") + std::to_string(src.width) + "x" +
                                        std::to_string(src.height) + " with " + std::to_string(want) +
                                        " channel(s) for a " + channel_layout_name(src.channels) + " input; got " +
                                        std::to_string(dst.width) + "x" + std::to_string(dst.height) + " with " +
                                        std::to_string(dst.channels));
}

bool overlaps(ConstViewU8 a, ConstViewU8 b) {
    auto lo = [](ConstViewU8 v) { return reinterpret_cast<std::uintptr_t>(v.data); };
    auto hi = [](ConstViewU8 v) {
        return reinterpret_cast<std::uintptr_t>(v.data) + (static_cast<std::size_t>(v.height) - 1) * v.stride +
               v.row_bytes();
    };
    return lo(a) < hi(b) && lo(b) < hi(a);
}

// Runs a per-row loop over [0, height) in parallel chunks.
void for_rows(int width, int height, int channels, const std::function<void(int y0, int y1)>& rows) {
    parallel_for(height, detail::row_grain(width, channels), rows);
}

// Colour premultiplied by alpha, alpha kept: the domain of every filter on
// images with alpha.
ImageU8 premultiplied(ConstViewU8 src) {
    ImageU8 p(src.width, src.height, src.channels);
    const int C = src.channels, a = C - 1;
    for_rows(src.width, src.height, C, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* s = src.row(y);
            std::uint8_t* o = p.row(y);
            for (int x = 0; x < src.width; ++x, s += C, o += C) {
                for (int c = 0; c < a; ++c) o[c] = static_cast<std::uint8_t>(premultiply(s[c], s[a]));
                o[a] = s[a];
            }
        }
    });
    return p;
}

// Gaussian, Box, Custom with alpha: dst holds filtered p' and a'; turn it
// into c' = unpremultiply(p', a') in place.
void unpremultiply_in_place(ViewU8 dst) {
    const int C = dst.channels, a = C - 1;
    for_rows(dst.width, dst.height, C, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            std::uint8_t* o = dst.row(y);
            for (int x = 0; x < dst.width; ++x, o += C)
                for (int c = 0; c < a; ++c) o[c] = static_cast<std::uint8_t>(unpremultiply(o[c], o[a]));
        }
    });
}

// Unsharp and Edges with alpha: dst's colour holds the filtered premultiplied
// result; unpremultiply it with the ORIGINAL alpha, which is copied unchanged.
void restore_alpha(ConstViewU8 src, ViewU8 dst) {
    const int C = src.channels, D = dst.channels, sa = C - 1, da = D - 1;
    for_rows(dst.width, dst.height, D, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* s = src.row(y);
            std::uint8_t* o = dst.row(y);
            for (int x = 0; x < dst.width; ++x, s += C, o += D) {
                for (int c = 0; c < da; ++c) o[c] = static_cast<std::uint8_t>(unpremultiply(o[c], s[sa]));
                o[da] = s[sa];
            }
        }
    });
}

void run_unsharp(const FilterPlan& plan, const Domain& d, ViewU8 dst) {
    // dst's colour channels first receive the blur b; each is then replaced by
    // unsharp_output(x, b) where x is the (premultiplied) sample itself.
    detail::gaussian_pass(d, plan.taps, dst);
    const int C = d.image.channels, K = d.count;
    for_rows(dst.width, dst.height, C, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* s = d.image.row(y);
            std::uint8_t* o = dst.row(y);
            for (int x = 0; x < dst.width; ++x, s += C, o += C)
                for (int c = 0; c < K; ++c)
                    o[c] = static_cast<std::uint8_t>(unsharp_output(s[c], o[c], plan.amount_q8, plan.threshold_level));
        }
    });
}

void run_edges(const FilterPlan& plan, Domain d, ViewU8 dst) {
    const int C = d.image.channels;
    ImageU8 luma;
    if (plan.edges_gray && C >= 3) {
        // Luma of the (premultiplied) colour; a constant border pixel has
        // equal channels, and luma601(v, v, v) == v, so its value stays.
        luma = ImageU8(d.image.width, d.image.height, 1);
        for_rows(d.image.width, d.image.height, C, [&](int y0, int y1) {
            for (int y = y0; y < y1; ++y) {
                const std::uint8_t* s = d.image.row(y);
                std::uint8_t* o = luma.row(y);
                for (int x = 0; x < d.image.width; ++x, s += C) o[x] = static_cast<std::uint8_t>(luma601(s[0], s[1], s[2]));
            }
        });
        d.image = luma.view();
        d.count = 1;
    } else if (plan.edges_gray) {
        d.count = 1;  // gray or gray+alpha: the luma is the gray channel itself
    }
    detail::edges_pass(d, plan.edge_op, dst);
}

}  // namespace

void apply_filter(const FilterPlan& plan, ConstViewU8 src, ViewU8 dst) {
    check_plan(plan);
    check_shapes(plan, src, dst);

    // Reading src after writing dst is unsafe if they share memory.
    ImageU8 src_copy;
    if (overlaps(src, dst)) {
        src_copy = ImageU8::copy_of(src);
        src = src_copy.view();
    }

    const int C = src.channels;
    const bool alpha = has_alpha(C);
    ImageU8 premul;
    Domain d;
    d.image = src;
    if (alpha) {
        premul = premultiplied(src);
        d.image = premul.view();
    }
    d.border = plan.border;
    for (int c = 0; c < C; ++c)
        d.outside[static_cast<std::size_t>(c)] = constant_border_sample(plan.border.value, c, C);
    // Which channels are filtered: all of them (alpha included) for the
    // blurs and custom kernels; colour only for unsharp and edges.
    const bool filter_alpha =
        plan.kind == FilterKind::Gaussian || plan.kind == FilterKind::Box || plan.kind == FilterKind::Custom;
    d.count = alpha && !filter_alpha ? C - 1 : C;

    switch (plan.kind) {
        case FilterKind::Gaussian: detail::gaussian_pass(d, plan.taps, dst); break;
        case FilterKind::Box: detail::box_pass(d, plan.radius, dst); break;
        case FilterKind::Custom: detail::custom_pass(d, plan, dst); break;
        case FilterKind::Unsharp: run_unsharp(plan, d, dst); break;
        case FilterKind::Edges: run_edges(plan, d, dst); break;
    }
    if (alpha) {
        if (filter_alpha) unpremultiply_in_place(dst);
        else restore_alpha(src, dst);
    }
}

ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src) {
    check_image_shape(src.width, src.height, src.channels);
    ImageU8 out(src.width, src.height, plan.output_channels(src.channels));
    apply_filter(plan, src, out.view());
    return out;
}

std::string filter_kernel_name(const FilterPlan& plan) {
    std::string what;
    switch (plan.kind) {
        case FilterKind::Gaussian:
        case FilterKind::Unsharp: what = "separable passes (rows, then columns; symmetric taps paired)"; break;
        case FilterKind::Box: what = "box running sums (rows, then columns)"; break;
        case FilterKind::Custom: what = "2-D correlation on a padded copy (one shifted row per coefficient)"; break;
        case FilterKind::Edges: what = "3x3 operator pair on a padded copy"; break;
    }
    return what + ", " + std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s");
}

}  // namespace imgpar::cpu
