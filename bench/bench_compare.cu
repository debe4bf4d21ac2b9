// imgpar compare's kernels (cuda/compare.hpp) on two 7680x4320 RGB images
// and two 8192x8192 gray ones: the difference pass alone (what compare
// --no-ssim computes), with the difference image written, and SSIM, each
// against a device copy of ONE image (the issue's yardstick: the pass reads
// two), the CPU reference, and NPP's MSE and SSIM where the toolkit has
// them. Every row checks its result against the CPU's (exact sums, SSIM's
// bits) and says so in the note. NPP's nppiSSIM is Wang et al.'s reference,
// on images shrunk first (src/ops/ssim.hpp, DOWNSAMPLING), so SSIM has two
// rows: imgpar's full-resolution SSIM against NPP computing the same over
// tiles small enough not to be shrunk, and imgpar --ssim-downsample auto
// against nppiSSIM on the whole images, the same quantity.
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/bench.hpp"
#include "bench/npp_compare_peer.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/compare.hpp"
#include "cuda/device_image.hpp"
#include "src/ops/compare.hpp"

namespace imgpar::bench {
namespace {

// b: a with a fifth of its samples moved, as a lossy copy would be.
ImageU8 disturbed(const ImageU8& a) {
    ImageU8 b = a;
    for (std::size_t i = 0; i < b.sample_count(); i += 5) b.data()[i] = static_cast<std::uint8_t>(b.data()[i] ^ 0x0B);
    return b;
}

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

std::string values_text(const SsimResult& r) {
    std::string out;
    for (int c = 0; c < r.channels; ++c) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.6f", r.channel[c]);
        out += buf;
    }
    return out;
}

std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f ms", ms);
    return buf;
}

bool same_ssim(const SsimResult& x, const SsimResult& y, int channels) {
    bool same = x.defined && y.defined && x.downsample == y.downsample;
    for (int c = 0; c < channels && same; ++c) same = same_bits(x.channel[c], y.channel[c]);
    return same;
}

// A row of the GPU's SSIM timing t of a and b shrunk by f, with the CPU's
// result at f into cpu_result (timed when the run times the CPU).
Row ssim_row(Context& ctx, const char* name, const ImageShape& shape, const Timing& t, double copy, const ImageU8& a,
             const ImageU8& b, int f, SsimResult& cpu_result) {
    Row r;
    r.group = "compare";
    r.name = name;
    r.image = std::string("2 x ") + shape.label;
    r.bytes = 2.0 * static_cast<double>(a.size_bytes());
    r.gpu = t;
    r.copy_ms = copy;
    if (ctx.options().cpu)
        r.cpu_ms = Context::time_host_ms([&] { cpu_result = cpu::ssim(a.view(), b.view(), nullptr, f); }, 1);
    else
        cpu_result = cpu::ssim(a.view(), b.view(), nullptr, f);
    return r;
}

void compare_cases(Context& ctx) {
    const cudaStream_t s = ctx.stream();
    for (const ImageShape& shape : kImageShapes) {
        const ImageU8 a = make_photo_like(shape.w, shape.h, shape.c, 5);
        const ImageU8 b = disturbed(a);
        cuda::DeviceImageU8 da = cuda::DeviceImageU8::from_host(a.view(), s);
        cuda::DeviceImageU8 db = cuda::DeviceImageU8::from_host(b.view(), s);
        cuda::DeviceImageU8 dd(shape.w, shape.h, shape.c);
        cuda::DeviceBuffer<unsigned long long> totals(cuda::kDifferenceTotals + cuda::kSsimTotals);
        std::vector<unsigned long long> host(cuda::kDifferenceTotals + cuda::kSsimTotals);
        const auto fetch = [&] {
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), totals.get(), host.size() * 8, cudaMemcpyDeviceToHost, s));
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
        };
        const std::size_t image = static_cast<std::size_t>(shape.w) * shape.h * shape.c;
        const double copy = ctx.copy_ms(image);
        const DifferenceSums want = cpu::difference_sums(a.view(), b.view());
        const ConstDeviceViewU8 va = da.view(), vb = db.view();

        for (const bool with_diff : {false, true}) {
            const DeviceViewU8 diff = dd.view();
            const Timing t = ctx.time(
                [&](cudaStream_t st) { cuda::difference_sums(va, vb, with_diff ? &diff : nullptr, totals.get(), st); }, 3, 50);
            fetch();
            const bool same = cuda::difference_sums_from(host.data(), shape.w, shape.h, shape.c) == want;
            Row r;
            r.group = "compare";
            r.name = with_diff ? "compare: difference sums + |a-b| image" : "compare: difference sums (--no-ssim)";
            r.image = std::string("2 x ") + shape.label;
            r.bytes = static_cast<double>(image * (with_diff ? 3 : 2));
            r.gpu = t;
            r.copy_ms = copy;
            if (ctx.options().cpu && !with_diff)
                r.cpu_ms = Context::time_host_ms([&] { (void)cpu::difference_sums(a.view(), b.view()); });
            r.note = std::string(same ? "sums = CPU" : "SUMS DIFFER FROM CPU") + "; x copy of one image";
            if (!with_diff) {
                const NppCompareRun npp = time_npp_compare(ctx, da.view(), db.view(), false);
                if (npp.available) {
                    r.peer = npp.name + " (MSE only)";
                    r.peer_ms = npp.timing.median_ms;
                }
                r.note += "; " + npp.note;
            }
            ctx.add(r);
        }

        const Timing t = ctx.time([&](cudaStream_t st) { cuda::ssim(va, vb, nullptr, totals.get(), st); }, 2, 15);
        fetch();
        const SsimResult got = ssim_from_sums(cuda::ssim_sums_from(host.data()), shape.w, shape.h, shape.c);
        SsimResult cpu_result;
        Row r = ssim_row(ctx, "SSIM (11x11 Gaussian, fp64)", shape, t, copy, a, b, 1, cpu_result);
        char value[48];
        std::snprintf(value, sizeof value, "SSIM %.6f", got.mean);
        r.note = std::string(same_ssim(cpu_result, got, shape.c) ? "SSIM = CPU's bits" : "SSIM DIFFERS FROM CPU") +
                 "; " + value + "; x copy of one image";
        double npp_mean = 0;
        const NppCompareRun full = time_npp_ssim_full_resolution(ctx, da.view(), db.view(), npp_mean);
        if (full.available) {
            char agree[96];
            std::snprintf(agree, sizeof agree, "; NPP's mean %.6f, imgpar's %.6f", npp_mean, got.mean);
            r.peer = full.name;
            r.peer_ms = full.timing.median_ms;
            r.note += "; " + full.note + agree;
        } else {
            r.note += "; " + full.note;
        }
        ctx.add(r);

        // --ssim-downsample auto: Wang et al.'s reference, nppiSSIM's quantity.
        const int f = ssim_downsample_factor(kSsimAutoDownsample, shape.w, shape.h);
        const int sw = ssim_shrunk_side(shape.w, f), sh = ssim_shrunk_side(shape.h, f);
        const std::size_t row = static_cast<std::size_t>(sw) * shape.c, count = row * static_cast<std::size_t>(sh);
        cuda::DeviceBuffer<double> shrunk(2 * count);
        const SsimPlanes<double> pa{shrunk.get(), sw, sh, shape.c, row}, pb{shrunk.get() + count, sw, sh, shape.c, row};
        const Timing tw = ctx.time(
            [&](cudaStream_t st) {
                cuda::ssim_shrink(va, vb, f, shrunk.get(), shrunk.get() + count, st);
                cuda::ssim(pa, pb, nullptr, totals.get(), st);
            },
            3, 50);
        fetch();
        const Timing shrink_only = ctx.time(
            [&](cudaStream_t st) { cuda::ssim_shrink(va, vb, f, shrunk.get(), shrunk.get() + count, st); }, 3, 50);
        const SsimResult wang = ssim_from_sums(cuda::ssim_sums_from(host.data()), pa.width, pa.height, shape.c, f);
        SsimResult wang_cpu;
        Row w = ssim_row(ctx, "SSIM --ssim-downsample auto (Wang's ssim.m)", shape, tw, copy, a, b, f, wang_cpu);
        w.note = std::string(same_ssim(wang_cpu, wang, shape.c) ? "SSIM = CPU's bits" : "SSIM DIFFERS FROM CPU") +
                 "; shrunk " + std::to_string(f) + "x to " + std::to_string(pa.width) + "x" + std::to_string(pa.height) +
                 " (the shrinking alone " + ms_text(shrink_only.median_ms) + "); imgpar's SSIM:" + values_text(wang);
        const NppCompareRun npp = time_npp_compare(ctx, da.view(), db.view(), true);
        if (npp.available) {
            w.peer = npp.name;
            w.peer_ms = npp.timing.median_ms;
        }
        w.note += "; " + npp.note;
        ctx.add(w);
    }
}

IMGPAR_BENCH(8, "compare", compare_cases);

}  // namespace
}  // namespace imgpar::bench
