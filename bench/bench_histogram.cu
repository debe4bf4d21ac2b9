// The histogram kernel against a device copy of the same bytes, CUB
// DeviceHistogram and NPP HistogramEven, on 8K gray and RGB images,
// photo-like and constant (the case where privatized histograms usually
// collapse into same-address atomics). Every row checks its counts against
// the CPU reference and says so in the note. (equalize and threshold are
// timed with every other operation, bench/bench_operations.cu.)
//
// Cases: "histogram" (kernel timings and peers); the lab case
// "histo-policy-sweep" (counting strategies x chunks per step x launch shapes
// on every image, to choose the defaults in cuda/histogram_policy.hpp; rows
// grouped "histo-policy" and named by cuda::describe()).
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/npp_histogram_peer.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/lab/histogram_variants.hpp"
#include "src/error.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar::bench {
namespace {

struct Shape {
    int w, h, c;
    bool constant;
    const char* label;
};

const Shape kShapes[] = {
    {8192, 8192, 1, false, "8192x8192 gray photo"},
    {8192, 8192, 1, true, "8192x8192 gray constant"},
    {7680, 4320, 3, false, "7680x4320 RGB photo"},
    {7680, 4320, 3, true, "7680x4320 RGB constant"},
};

std::size_t image_bytes(const Shape& s) { return static_cast<std::size_t>(s.w) * s.h * s.c; }

// Host images are made once per process (8K photo-like images take a while).
const ImageU8& host_image(const Shape& s) {
    static std::map<std::string, ImageU8> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) {
        ImageU8 img(s.w, s.h, s.c);
        if (s.constant)
            img.fill(200);
        else
            img = make_photo_like(s.w, s.h, s.c, 7);
        it = cache.emplace(s.label, std::move(img)).first;
    }
    return it->second;
}

// The reference counts (channels only), once per image.
const Histogram& cpu_counts(const Shape& s) {
    static std::map<std::string, Histogram> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) it = cache.emplace(s.label, cpu::histogram(host_image(s).view(), false)).first;
    return it->second;
}

std::vector<unsigned long long> download_counts(const unsigned long long* d, std::size_t n, cudaStream_t stream) {
    std::vector<unsigned long long> h(n);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    return h;
}

// "" when counts (channels * 256, plane after plane) equal the CPU's.
std::string compare_counts(const Histogram& ref, const std::vector<unsigned long long>& got, const char* who) {
    for (int p = 0; p < ref.channels; ++p)
        for (int v = 0; v < 256; ++v)
            if (got[static_cast<std::size_t>(p * 256 + v)] != ref.counts[p][v])
                return std::string(who) + " COUNTS DIFFER at plane " + std::to_string(p) + " value " + std::to_string(v);
    return "";
}

// CUB DeviceHistogram on the pitched image, 256 even bins over [0, 256).
struct CubPeer {
    cuda::DeviceBuffer<unsigned char> temp;
    std::size_t temp_bytes = 0;
    cuda::DeviceBuffer<unsigned> counts;

    cudaError_t run(const DeviceViewU8& img, cudaStream_t stream, void* t) {
        const unsigned char* samples = img.data;
        if (img.channels == 1)
            return cub::DeviceHistogram::HistogramEven(t, temp_bytes, samples, counts.get(), 257, 0, 256, img.width,
                                                       img.height, img.pitch, stream);
        ::cuda::std::array<unsigned*, 3> planes{counts.get(), counts.get() + 256, counts.get() + 512};
        ::cuda::std::array<int, 3> levels{257, 257, 257};
        ::cuda::std::array<int, 3> lower{0, 0, 0};
        ::cuda::std::array<int, 3> upper{256, 256, 256};
        return cub::DeviceHistogram::MultiHistogramEven<3, 3>(t, temp_bytes, samples, planes, levels, lower, upper,
                                                              img.width, img.height, img.pitch, stream);
    }
    void prepare(const DeviceViewU8& img, cudaStream_t stream) {
        counts.reserve(static_cast<std::size_t>(img.channels) * 256);
        temp_bytes = 0;
        IMGPAR_CUDA_CHECK(run(img, stream, nullptr));  // size query
        temp.reserve(std::max<std::size_t>(temp_bytes, 1));
    }
    const char* name(int channels) const {
        return channels == 1 ? "CUB HistogramEven" : "CUB MultiHistogramEven<3,3>";
    }
};

void histogram_cases(Context& ctx) {
    cudaStream_t s = ctx.stream();
    for (const Shape& shape : kShapes) {
        const ImageU8& img = host_image(shape);
        const Histogram& ref = cpu_counts(shape);
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
        const std::size_t bytes = image_bytes(shape);
        const double copy = ctx.copy_ms(bytes);

        // imgpar, channels only: the same work as CUB and NPP.
        cuda::HistogramPlanes planes;
        const Timing t = ctx.time([&](cudaStream_t st) { cuda::histogram(d.view(), planes, counts.get(), st); }, 3, 50);
        std::string note = compare_counts(ref, download_counts(counts.get(), shape.c * 256, s), "imgpar");

        CubPeer cub;
        cub.prepare(d.view(), s);
        const Timing tc = ctx.time([&](cudaStream_t st) { IMGPAR_CUDA_CHECK(cub.run(d.view(), st, cub.temp.get())); }, 3, 50);
        {
            std::vector<unsigned> hc(static_cast<std::size_t>(shape.c) * 256);
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(hc.data(), cub.counts.get(), hc.size() * 4, cudaMemcpyDeviceToHost, s));
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            note += compare_counts(ref, std::vector<unsigned long long>(hc.begin(), hc.end()), " CUB");
        }
        Row r;
        r.group = "histogram";
        r.name = std::string("histogram 256 bins, ") + (shape.c == 1 ? "gray" : "3 channels, one pass");
        r.image = shape.label;
        r.bytes = static_cast<double>(bytes);
        r.gpu = t;
        r.copy_ms = copy;
        if (ctx.options().cpu) r.cpu_ms = Context::time_host_ms([&] { cpu::histogram(img.view(), false); });
        r.peer = cub.name(shape.c);
        r.peer_ms = tc.median_ms;
        r.note = note.empty() ? "counts = CPU = CUB; read-only, so 0.5x copy is the roofline" : note;
        ctx.add(r);

        NppHistogramRun npp = time_npp_histogram(ctx, d.view());
        if (npp.available) {
            Row n = r;
            n.name += " (vs NPP)";
            n.cpu_ms = NAN;
            n.peer = npp.name;
            n.peer_ms = npp.timing.median_ms;
            const std::string nn = compare_counts(ref, npp.counts, "NPP");
            n.note = nn.empty() ? "NPP counts = CPU" : nn;
            ctx.add(n);
        }

        if (shape.c >= 3) {
            // With the luma plane as well, still one pass over the image.
            cuda::HistogramPlanes with_luma;
            with_luma.luma = true;
            const Timing tl = ctx.time([&](cudaStream_t st) { cuda::histogram(d.view(), with_luma, counts.get(), st); }, 3, 50);
            const Histogram full = cpu::histogram(img.view(), true);
            const auto got = download_counts(counts.get(), 4 * 256, s);
            bool ok = true;
            for (int v = 0; v < 256; ++v) ok = ok && got[3 * 256 + v] == full.counts[3][v];
            Row l = r;
            l.name = "histogram 256 bins, RGB + luma, one pass";
            l.cpu_ms = ctx.options().cpu ? Context::time_host_ms([&] { cpu::histogram(img.view(), true); }) : NAN;
            l.gpu = tl;
            l.note = ok && compare_counts(ref, got, "imgpar").empty() ? "counts = CPU" : "COUNTS DIFFER";
            ctx.add(l);
        }
    }
}

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

IMGPAR_BENCH(2, "histogram", histogram_cases);
IMGPAR_BENCH_LAB(9, "histo-policy-sweep", policy_sweep);

}  // namespace
}  // namespace imgpar::bench
