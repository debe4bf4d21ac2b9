// The statistics kernel (cuda/stats.hpp: every statistic of every channel in
// one pass) against a device copy of the same bytes, CUB's
// DeviceReduce::Sum over the same bytes (u8 summed as u64: the least a
// reduction of the image can do) and NPP's Mean_StdDev + MinMax, on 8192^2
// gray and 7680x4320 RGB photo-like images, and under a mask. Every row checks
// its result against the CPU reference and says so in the note.
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/npp_stats_peer.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/stats.hpp"
#include "src/ops/stats.hpp"

namespace imgpar::bench {
namespace {

struct WidenToU64 {
    __host__ __device__ unsigned long long operator()(std::uint8_t v) const { return v; }
};

// CUB's sum of n bytes as a 64-bit total; checks it against `expected`.
Timing time_cub_sum(Context& ctx, const std::uint8_t* in, std::size_t n, unsigned long long expected, bool* same) {
    cuda::DeviceBuffer<unsigned long long> out(1);
    const auto widened = thrust::make_transform_iterator(in, WidenToU64());
    std::size_t temp_bytes = 0;
    IMGPAR_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, widened, out.get(), static_cast<int>(n), ctx.stream()));
    cuda::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
    const Timing t = ctx.time([&](cudaStream_t s) {
        IMGPAR_CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), temp_bytes, widened, out.get(), static_cast<int>(n), s));
    }, 3, 50);
    unsigned long long got = 0;
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(&got, out.get(), sizeof got, cudaMemcpyDeviceToHost, ctx.stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    *same = got == expected;
    return t;
}

// Whether NPP's figures agree with the CPU reference's (its mean and
// deviation are doubles from its own sums: close, not necessarily equal).
std::string check_npp(const NppStatsRun& npp, const ImageStats& ref) {
    std::string out;
    for (int c = 0; c < ref.channels; ++c) {
        const ChannelSums& s = ref.channel[static_cast<std::size_t>(c)];
        const ChannelMoments m = stats_moments(s);
        const std::size_t k = static_cast<std::size_t>(c);
        if (npp.min[k] != s.min || npp.max[k] != s.max) out += " min/max differ;";
        if (std::fabs(npp.mean[k] - m.mean) > 1e-6 * m.mean || std::fabs(npp.stddev[k] - m.stddev) > 1e-6 * m.stddev) {
            char buf[160];
            std::snprintf(buf, sizeof buf, " channel %d mean %.9g vs %.9g, stddev %.9g vs %.9g;", c, npp.mean[k], m.mean,
                          npp.stddev[k], m.stddev);
            out += buf;
        }
    }
    return out.empty() ? "NPP's min, max, mean, deviation = CPU's (1e-6)" : "NPP differs:" + out;
}

ImageU8 half_mask(int w, int h) {
    ImageU8 m(w, h, 1);
    std::mt19937 rng(5);
    for (std::size_t i = 0; i < m.size_bytes(); ++i) m.data()[i] = static_cast<std::uint8_t>(rng() & 1);
    return m;
}

void stats_cases(Context& ctx) {
    const cudaStream_t s = ctx.stream();
    cuda::StatsWorkspace ws;
    for (const ImageShape& shape : {kImageShapes[1], kImageShapes[0]}) {
        const ImageU8 img = make_photo_like(shape.w, shape.h, shape.c, 4);
        const ImageStats ref = cpu::stats(img.view());
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        const ConstDeviceViewU8 dv = d.view();
        const std::size_t bytes = img.size_bytes();

        const Timing t = ctx.time([&](cudaStream_t st) { cuda::stats(dv, nullptr, ws, st); }, 3, 50);
        const ImageStats got = cuda::stats_result(dv, false, ws, s);
        const std::string diff = stats_difference(ref, got);

        Row r;
        r.group = "stats";
        r.name = std::string("stats, all statistics, ") + (shape.c == 1 ? "gray" : "3 channels") + ", one pass";
        r.image = shape.label;
        r.bytes = static_cast<double>(bytes);
        r.gpu = t;
        r.copy_ms = ctx.copy_ms(bytes);
        if (ctx.options().cpu) r.cpu_ms = Context::time_host_ms([&] { cpu::stats(img.view()); });
        std::string check = diff.empty() ? "= CPU" : "DIFFERS FROM CPU: " + diff;
        if (d.pitch() == img.row_bytes()) {
            bool same = false;
            r.peer = "CUB DeviceReduce::Sum u8->u64 (same bytes)";
            std::vector<int> channels;
            for (int c = 0; c < shape.c; ++c) channels.push_back(c);
            r.peer_ms = time_cub_sum(ctx, d.data(), bytes, ref.combined(channels).sum, &same).median_ms;
            check += same ? "; CUB's sum = CPU's" : "; CUB'S SUM DIFFERS";
        }
        r.note = check + "; read-only, so 0.5x copy is the roofline";
        ctx.add(r);

        const NppStatsRun npp = time_npp_stats(ctx, d.view());
        if (npp.available) ctx.add(vs_peer_row(r, "NPP", npp.name, npp.timing.median_ms, check_npp(npp, ref)));

        // Under a mask that keeps half the pixels at random: the mask's bytes are read too.
        const ImageU8 mask = half_mask(shape.w, shape.h);
        cuda::DeviceImageU8 dm = cuda::DeviceImageU8::from_host(mask.view(), s);
        const ConstDeviceViewU8 mv = dm.view();
        const Timing tm = ctx.time([&](cudaStream_t st) { cuda::stats(dv, &mv, ws, st); }, 3, 50);
        const ConstViewU8 hm = mask.view();
        const ImageStats mref = cpu::stats(img.view(), &hm);
        const std::string mdiff = stats_difference(mref, cuda::stats_result(dv, true, ws, s));
        Row m;
        m.group = "stats";
        m.name = r.name + ", under a mask (half the pixels)";
        m.image = shape.label;
        m.bytes = static_cast<double>(bytes + mask.size_bytes());
        m.gpu = tm;
        m.copy_ms = ctx.copy_ms(bytes + mask.size_bytes());
        if (ctx.options().cpu) m.cpu_ms = Context::time_host_ms([&] { cpu::stats(img.view(), &hm); });
        m.note = mdiff.empty() ? "= CPU" : "DIFFERS FROM CPU: " + mdiff;
        ctx.add(m);
    }
}

IMGPAR_BENCH(7, "stats", stats_cases);

}  // namespace
}  // namespace imgpar::bench
