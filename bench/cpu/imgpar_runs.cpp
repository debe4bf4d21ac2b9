// imgpar's side of each case. Filters, resize and equalize run through their
// caller-buffer forms (cpu::apply_filter, cpu::equalize into an image made
// once), as OpenCV's peers write into a cv::Mat made once: the table times
// the work, not a 48-95 MiB allocation and its zero fill. Other operations
// have no such form on the CPU and run as `imgpar` runs them
// (ImageJob::run_cpu), which allocates its output each time (and frees the
// last one); the note says so.
#include <cstdint>
#include <memory>
#include <vector>

#include "bench/cpu/cpu_bench.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/filter_ops.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/integral.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/stats.hpp"

namespace imgpar::cpu_bench {

PreparedRun prepare_imgpar(const BenchCase& c, ConstViewU8 src) {
    PreparedRun p;
    if (c.operation == "histo") {
        const bool luma = c.histogram_luma;
        p.run = [src, luma] { (void)cpu::histogram(src, luma); };
        p.note = cpu::histogram_kernel_name();
        return p;
    }
    if (c.operation == "integral") {
        // The table in --dtype auto's type, made once (as OpenCV's peer).
        IntegralSpec spec;
        spec.squared = c.integral_squared;
        const SumType type = integral_type(spec, src.width, src.height, "bench");
        SumTableView table = sum_table_view(nullptr, type, src.width, src.height, src.channels, spec.squared);
        auto bytes = std::make_shared<std::vector<std::uint8_t>>(table.row_bytes() * table.height * table.planes);
        table.data = bytes->data();
        p.run = [src, table, bytes] { cpu::integral(src, table); };
        p.note = std::string(sum_type_name(type)) + " table: " + cpu::integral_kernel_name(src);
        return p;
    }
    if (c.operation == "stats") {
        p.run = [src] { (void)cpu::stats(src); };
        p.note = cpu::stats_kernel_name();
        return p;
    }
    const ImageJob& job = *c.job;
    if (const auto* filter = dynamic_cast<const FilterJob*>(&job)) {
        const ImageShape out = job.output_shape({src.width, src.height, src.channels, SampleType::U8});
        auto dst = std::make_shared<ImageU8>(out.width, out.height, out.channels);
        p.output = [dst] { return dst->cview(); };
        const FilterPlan plan = filter->plan();
        p.run = [plan, src, dst] { cpu::apply_filter(plan, src, dst->view()); };
        p.note = cpu::filter_kernel_name(plan, src.channels);
    } else if (c.operation == "resize") {
        // The examples the benchmark runs are plain sizes (no --fill crop).
        const ImageShape out = job.output_shape({src.width, src.height, src.channels, SampleType::U8});
        const ResizePlan plan = resize_plan(parse_resize_filter(c.values->text("filter")), src.width, src.height,
                                            {out.width, out.height, 0, 0, out.width, out.height});
        auto dst = std::make_shared<ImageU8>(out.width, out.height, out.channels);
        p.output = [dst] { return dst->cview(); };
        p.run = [plan, src, dst] { cpu::resize(plan, src, dst->view()); };
        p.note = cpu::resize_kernel_name(plan, src.channels);
    } else if (c.operation == "equalize") {
        auto dst = std::make_shared<ImageU8>(src.width, src.height, src.channels);
        p.output = [dst] { return dst->cview(); };
        const EqualizeMode mode = parse_equalize_mode(c.values->text("mode"));
        p.run = [mode, src, dst] { cpu::equalize(src, dst->view(), mode); };
        p.note = job.describe();
    } else {
        std::shared_ptr<const ImageJob> owned = c.job;
        auto result = std::make_shared<ImageU8>();
        p.run = [owned, src, result] {
            RunNotes ignored;
            *result = owned->run_cpu(src, ignored);
        };
        p.output = [result] { return result->cview(); };
        p.note = job.describe() + "; allocates its output each run";
    }
    return p;
}

}  // namespace imgpar::cpu_bench
