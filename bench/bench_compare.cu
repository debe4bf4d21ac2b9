// imgpar compare's kernels (cuda/compare.hpp) on two 7680x4320 RGB images
// and two 8192x8192 gray ones: the difference pass alone (what compare
// --no-ssim computes), with the difference image written, and SSIM, each
// against a device copy of ONE image (the issue's yardstick: the pass reads
// two), the CPU reference, and NPP's MSE and SSIM where the toolkit has
// them. Every row checks its result against the CPU's (exact sums, SSIM's
// bits) and says so in the note. NPP's SSIM is Wang et al.'s reference, on
// images shrunk first (bench/wang_ssim.hpp); a second row has NPP compute
// imgpar's full-resolution SSIM, over tiles small enough not to be shrunk.
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/bench.hpp"
#include "bench/npp_compare_peer.hpp"
#include "bench/wang_ssim.hpp"
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

// Wang et al.'s reference SSIM (bench/wang_ssim.hpp), which NPP's nppiSSIM
// reports, printed beside NPP's values: a different quantity from imgpar's.
std::string reference_ssim_text(const ImageU8& a, const ImageU8& b) {
    const WangSsim w = wang_reference_ssim(a, b);
    std::string out = "Wang's ssim.m, shrunk " + std::to_string(w.factor) + "x:";
    for (const double v : w.channel) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.6f", v);
        out += buf;
    }
    return out;
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
        Row r;
        r.group = "compare";
        r.name = "SSIM (11x11 Gaussian, fp64)";
        r.image = std::string("2 x ") + shape.label;
        r.bytes = static_cast<double>(image * 2);
        r.gpu = t;
        r.copy_ms = copy;
        if (ctx.options().cpu)
            r.cpu_ms = Context::time_host_ms([&] { cpu_result = cpu::ssim(a.view(), b.view()); }, 1);
        else
            cpu_result = cpu::ssim(a.view(), b.view());
        bool same = cpu_result.defined && got.defined;
        for (int c = 0; c < shape.c && same; ++c) same = same_bits(cpu_result.channel[c], got.channel[c]);
        char value[48];
        std::snprintf(value, sizeof value, "SSIM %.6f", got.mean);
        r.note = std::string(same ? "SSIM = CPU's bits" : "SSIM DIFFERS FROM CPU") + "; " + value + "; x copy of one image";
        const NppCompareRun npp = time_npp_compare(ctx, da.view(), db.view(), true);
        if (npp.available) {
            r.peer = npp.name;
            r.peer_ms = npp.timing.median_ms;
        }
        r.note += "; " + npp.note + " (" + reference_ssim_text(a, b) + ": a different quantity)";
        ctx.add(r);
        double npp_mean = 0;
        const NppCompareRun full = time_npp_ssim_full_resolution(ctx, da.view(), db.view(), npp_mean);
        if (full.available) {
            char agree[96];
            std::snprintf(agree, sizeof agree, "; NPP's mean %.6f, imgpar's %.6f", npp_mean, got.mean);
            ctx.add(vs_peer_row(r, "NPP at full resolution", full.name, full.timing.median_ms, full.note + agree));
        }
    }
}

IMGPAR_BENCH(8, "compare", compare_cases);

}  // namespace
}  // namespace imgpar::bench
