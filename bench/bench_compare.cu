// imgpar compare's kernels (cuda/compare.hpp) on two 7680x4320 RGB images
// and two 8192x8192 gray ones: the difference pass alone (what compare
// --no-ssim computes), with the difference image written, and SSIM, each
// against a device copy of ONE image (the issue's yardstick: the pass reads
// two), the CPU reference, and NPP's MSE and SSIM where the toolkit has
// them. Every row checks its result against the CPU's (exact sums, SSIM's
// bits) and says so in the note.
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

// SSIM with a single window over the whole image (population statistics),
// per channel: the quantity NPP's nppiSSIM appears to report, printed beside
// its values so the two can be told apart from the windowed mean.
std::string one_window_ssim(const ImageU8& a, const ImageU8& b) {
    std::string out = "one-window SSIM:";
    const SsimTaps& t = ssim_taps();
    for (int c = 0; c < a.channels(); ++c) {
        unsigned long long sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
        for (std::size_t i = static_cast<std::size_t>(c); i < a.sample_count(); i += static_cast<std::size_t>(a.channels())) {
            const unsigned long long x = a.data()[i], y = b.data()[i];
            sa += x, sb += y, saa += x * x, sbb += y * y, sab += x * y;
        }
        const double n = static_cast<double>(a.pixel_count());
        const double ma = sa / n, mb = sb / n;
        const double va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb;
        const double s = (2 * ma * mb + t.c1) * (2 * cov + t.c2) / ((ma * ma + mb * mb + t.c1) * (va + vb + t.c2));
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.6f", s);
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
        r.note += "; " + npp.note + " (" + one_window_ssim(a, b) + ")";
        ctx.add(r);
    }
}

IMGPAR_BENCH(8, "compare", compare_cases);

}  // namespace
}  // namespace imgpar::bench
