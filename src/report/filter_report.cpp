#include "src/report/filter_report.hpp"

namespace imgpar {

JsonObject filter_json(const FilterPlan& plan) {
    JsonObject kernel;
    kernel.add("width", plan.footprint_width()).add("height", plan.footprint_height()).add("separable", plan.separable());
    JsonObject o;
    o.add("filter", filter_kind_name(plan.kind)).add("kernel", kernel);
    switch (plan.kind) {
        case FilterKind::Gaussian: o.add("sigma", plan.sigma).add("radius", plan.radius); break;
        case FilterKind::Box: o.add("radius", plan.radius); break;
        case FilterKind::Unsharp:
            o.add("sigma", plan.sigma).add("radius", plan.radius).add("amount", plan.amount).add("threshold", plan.threshold);
            break;
        case FilterKind::Edges: o.add("operator", edge_operator_name(plan.edge_op)).add("gray", plan.edges_gray); break;
        case FilterKind::Custom:
            o.add("mode", plan.flipped ? "convolution" : "correlation")
                .add("scale", plan.scale)
                .add("offset", plan.offset)
                .add("fraction_bits", plan.frac_bits);
            break;
    }
    o.add("border", border_name(plan.border));
    return o;
}

}  // namespace imgpar
