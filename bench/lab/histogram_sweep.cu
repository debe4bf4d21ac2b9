// The lab sweep that chose the histogram's default policies
// (cuda/histogram_policy.hpp): every counting strategy x chunks per step x
// launch shape on every image, each checked against the CPU's counts; rows
// grouped "histo-policy" and named by cuda::describe(). Built into
// imgpar_bench_lab with IMGPAR_BUILD_LAB=ON; imgpar ships only the defaults.
#include <cmath>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/histogram_support.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/lab/histogram_variants.hpp"
#include "src/error.hpp"

namespace imgpar::bench {
namespace {

using namespace hist;

// The launch shapes the sweep tries with every counting strategy and step
// count: the old default, the best shape of the earlier Runs-only sweep,
// a copy per warp, one copy per block on a persistent grid, and copies
// spread over lanes (fewer same-address conflicts).
struct SweepShape {
    int threads, copies;
    cuda::HistogramCopyBy by;
    int blocks_per_sm;
};
const SweepShape kSweepShapes[] = {
    {256, 8, cuda::HistogramCopyBy::Warp, 0},   {512, 4, cuda::HistogramCopyBy::Warp, 0},
    {1024, 16, cuda::HistogramCopyBy::Warp, 0}, {1024, 32, cuda::HistogramCopyBy::Warp, 0},
    {512, 1, cuda::HistogramCopyBy::Warp, 2},   {1024, 1, cuda::HistogramCopyBy::Warp, 2},
    {256, 8, cuda::HistogramCopyBy::Lane, 0},   {256, 32, cuda::HistogramCopyBy::Lane, 0},
    {1024, 32, cuda::HistogramCopyBy::Lane, 0}, {1024, 16, cuda::HistogramCopyBy::Lane, 2},
};
const cuda::HistogramMerge kMerges[] = {cuda::HistogramMerge::Runs, cuda::HistogramMerge::Plain,
                                        cuda::HistogramMerge::Uniform, cuda::HistogramMerge::Match};

bool same_policy(const cuda::HistogramPolicy& a, const cuda::HistogramPolicy& b) {
    return a.block_threads == b.block_threads && a.copies == b.copies && a.copy_by == b.copy_by &&
           a.merge == b.merge && a.chunks_per_step == b.chunks_per_step && a.blocks_per_sm == b.blocks_per_sm;
}

// Every HistogramMerge x chunks per step x kSweepShapes on each image (RGB:
// channels, then channels + luma), named by cuda::describe(). Steps above
// the cap (4 / channels) would repeat a row and are left out. In each
// image's block the fastest row of each strategy says so in its note, and
// the fastest of all says "FASTEST"; "(default)" marks the policy
// cuda::histogram uses for that image today.
void policy_sweep(Context& ctx) {
    cudaStream_t s = ctx.stream();
    for (const Shape& shape : kShapes) {
        const ImageU8& img = host_image(shape);
        const Histogram& ref = cpu_counts(shape);
        const Histogram full = shape.c >= 3 ? cpu::histogram(img.view(), true) : ref;
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
        CubPeer cub;
        cub.prepare(d.view(), s);
        const Timing tc = ctx.time([&](cudaStream_t st) { IMGPAR_CUDA_CHECK(cub.run(d.view(), st, cub.temp.get())); }, 3, 30);
        const cuda::HistogramPolicy defaults = cuda::default_histogram_policy(shape.c);
        const int max_steps = std::max(1, 4 / shape.c);
        for (bool luma : {false, true}) {
            if (luma && shape.c < 3) continue;
            cuda::HistogramPlanes planes;
            planes.luma = luma;
            const int P = planes.count(shape.c);
            std::vector<Row> rows;
            std::vector<cuda::HistogramMerge> row_merge;
            for (cuda::HistogramMerge m : kMerges)
                for (int steps : {1, 2, 4}) {
                    if (steps > max_steps) continue;
                    for (const SweepShape& sh : kSweepShapes) {
                        cuda::HistogramPolicy p;
                        p.block_threads = sh.threads;
                        p.copies = sh.copies;
                        p.copy_by = sh.by;
                        p.blocks_per_sm = sh.blocks_per_sm;
                        p.merge = m;
                        p.chunks_per_step = steps;
                        Row r;
                        r.group = "histo-policy";
                        r.name = "sweep " + cuda::describe(p) + (luma ? " +luma" : "");
                        if (same_policy(p, defaults)) r.name += " (default)";
                        r.image = shape.label;
                        r.bytes = static_cast<double>(image_bytes(shape));
                        r.copy_ms = ctx.copy_ms(image_bytes(shape));
                        if (!luma) {
                            r.peer = cub.name(shape.c);
                            r.peer_ms = tc.median_ms;
                        }
                        try {
                            r.gpu = ctx.time([&](cudaStream_t st) {
                                cuda::lab::histogram_with_policy(d.view(), planes, counts.get(), p, st);
                            }, 2, 30);
                            const auto got = download_counts(counts.get(), static_cast<std::size_t>(P) * 256, s);
                            std::string diff = compare_counts(ref, got, "imgpar");
                            if (luma)
                                for (int v = 0; v < 256 && diff.empty(); ++v)
                                    if (got[static_cast<std::size_t>(shape.c * 256 + v)] != full.counts[shape.c][v])
                                        diff = "imgpar LUMA COUNTS DIFFER at value " + std::to_string(v);
                            r.note = diff.empty() ? "counts = CPU" : diff;
                        } catch (const Error& e) {
                            r.note = std::string("not run: ") + e.what();
                        }
                        rows.push_back(r);
                        row_merge.push_back(m);
                    }
                }
            // Flag the fastest row per strategy and overall (rows whose counts are right).
            auto fastest = [&](bool any_merge, cuda::HistogramMerge m) {
                int best = -1;
                for (std::size_t i = 0; i < rows.size(); ++i) {
                    if (!any_merge && row_merge[i] != m) continue;
                    if (rows[i].note != "counts = CPU" || std::isnan(rows[i].gpu.median_ms)) continue;
                    if (best < 0 || rows[i].gpu.median_ms < rows[static_cast<std::size_t>(best)].gpu.median_ms)
                        best = static_cast<int>(i);
                }
                return best;
            };
            for (cuda::HistogramMerge m : kMerges) {
                const int b = fastest(false, m);
                if (b >= 0) rows[static_cast<std::size_t>(b)].note += std::string("; fastest ") + cuda::merge_name(m);
            }
            const int b = fastest(true, cuda::HistogramMerge::Runs);
            if (b >= 0) rows[static_cast<std::size_t>(b)].note += "; FASTEST on this image";
            for (const Row& r : rows) ctx.add(r);
        }
    }
}

IMGPAR_BENCH(9, "histo-policy-sweep", policy_sweep);

}  // namespace
}  // namespace imgpar::bench
