// GPU comparison against the CPU reference: the same exact sums, SSIM the
// same bits (per channel and overall), byte-identical difference images and
// SSIM maps; every channel count, awkward and tile-edge sizes, images below
// SSIM's window, degenerate images (identical, constant, black against
// white), unaligned device images (the byte path), sums past 32 bits, a
// 16 MP pair; --ssim-downsample's shrunk images and SSIM; and imgpar
// compare --device gpu against --device cpu.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/buffers.hpp"
#include "cuda/compare.hpp"
#include "cuda/device_image.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/compare.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/gpu_histogram_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Doubles compared as bits: "the same to the last digit" means equal.
bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// "" when the two comparisons are identical, else the first difference.
std::string first_difference(const Comparison& cpu, const Comparison& gpu) {
    const DifferenceSums &c = cpu.sums, &g = gpu.sums;
    if (c.channels != g.channels || c.pixels != g.pixels) return "shape";
    if (c.pixels_differ != g.pixels_differ)
        return "pixels_differ: cpu " + std::to_string(c.pixels_differ) + ", gpu " + std::to_string(g.pixels_differ);
    for (int ch = 0; ch < c.channels; ++ch) {
        const ChannelDifference &x = c.channel[ch], &y = g.channel[ch];
        const std::string at = "channel " + std::to_string(ch) + ": ";
        if (x.max_abs != y.max_abs) return at + "max_abs cpu " + std::to_string(x.max_abs) + ", gpu " + std::to_string(y.max_abs);
        if (x.differ != y.differ) return at + "differ cpu " + std::to_string(x.differ) + ", gpu " + std::to_string(y.differ);
        if (x.sum_abs != y.sum_abs) return at + "sum_abs cpu " + std::to_string(x.sum_abs) + ", gpu " + std::to_string(y.sum_abs);
        if (x.sum_sq != y.sum_sq) return at + "sum_sq cpu " + std::to_string(x.sum_sq) + ", gpu " + std::to_string(y.sum_sq);
    }
    if (cpu.ssim.defined != gpu.ssim.defined) return "ssim defined on one side only";
    if (cpu.ssim.defined) {
        for (int ch = 0; ch < c.channels; ++ch)
            if (!same_bits(cpu.ssim.channel[ch], gpu.ssim.channel[ch]))
                return "ssim channel " + std::to_string(ch) + ": cpu " + std::to_string(cpu.ssim.channel[ch]) + ", gpu " +
                       std::to_string(gpu.ssim.channel[ch]);
        if (!same_bits(cpu.ssim.mean, gpu.ssim.mean)) return "ssim mean";
    }
    const PixelMismatch d = first_mismatch(cpu.diff.view(), gpu.diff.view());
    if (d.found) return "difference image: " + d.describe();
    const PixelMismatch m = first_mismatch(cpu.ssim_map.view(), gpu.ssim_map.view());
    if (m.found) return "ssim map: " + m.describe();
    return "";
}

#define CHECK_COMPARISONS_EQUAL(cpu_r, gpu_r)                   \
    do {                                                        \
        const std::string d_ = first_difference((cpu_r), (gpu_r)); \
        CHECK_MESSAGE(d_.empty(), d_);                          \
    } while (0)

CompareOptions everything(int width, int height) {
    CompareOptions o;
    o.diff = true;
    o.ssim_map = ssim_fits(width, height);
    return o;
}

// The seam as imgpar runs it: the session's slots.
Comparison gpu_compare(const ImageU8& a, const ImageU8& b, const CompareOptions& o) {
    BackendChoice gpu;
    gpu.backend = Backend::Gpu;
    gpu.session = std::shared_ptr<gpu::Session>(&test::session(), [](gpu::Session*) {});
    return compare_images(gpu, a.view(), b.view(), o);
}

void check_pair(const ImageU8& a, const ImageU8& b) {
    const CompareOptions o = everything(a.width(), a.height());
    CHECK_COMPARISONS_EQUAL(cpu::compare(a.view(), b.view(), o), gpu_compare(a, b, o));
}

}  // namespace

TEST_CASE("gpu compare: every channel count, awkward and tile-edge sizes give the CPU's sums, SSIM, images") {
    std::vector<std::pair<int, int>> sizes = test::awkward_sizes();
    for (int n : {10, 11, 12, 15, 16, 17, 31, 32, 33, 43, 63, 64, 65, 97}) {
        sizes.push_back({n, 37});
        sizes.push_back({37, n});
    }
    sizes.push_back({1, 3001});
    sizes.push_back({3001, 11});
    sizes.push_back({641, 427});
    int cases = 0;
    for (const auto& [w, h] : sizes)
        for (int ch = 1; ch <= 4; ++ch) {
            CAPTURE(w);
            CAPTURE(h);
            CAPTURE(ch);
            const ImageU8 a = test::photo_like_image(w, h, ch, 7);
            check_pair(a, test::photo_like_image(w, h, ch, 8));
            ImageU8 near = a;  // a few samples off: the sparse case
            for (std::size_t i = 0; i < near.sample_count(); i += 13) near.data()[i] = static_cast<std::uint8_t>(near.data()[i] + 3);
            check_pair(a, near);
            ++cases;
        }
    MESSAGE(cases, " shapes compared");
}

TEST_CASE("gpu compare: real photos against blurred and noisy copies") {
    for (const char* name : {"camera.png", "chelsea.png", "chelsea_alpha.png", "rocket.jpg"}) {
        CAPTURE(name);
        const ImageU8 a = test::load_sample(name);
        ImageU8 b = a;
        for (std::size_t i = 0; i < b.sample_count(); ++i)
            b.data()[i] = static_cast<std::uint8_t>((b.data()[i] * 7 + (i % 5 == 0 ? 60 : 0)) / 8);
        check_pair(a, b);
        check_pair(a, test::random_image(a.width(), a.height(), a.channels(), 4));
    }
}

TEST_CASE("gpu compare: degenerate images: identical, constant, black against white, 1x1, below the window") {
    for (int ch = 1; ch <= 4; ++ch) {
        CAPTURE(ch);
        const ImageU8 photo = test::photo_like_image(129, 67, ch, 2);
        check_pair(photo, photo);
        const Comparison same = gpu_compare(photo, photo, CompareOptions{});
        CHECK(same.ssim.mean == 1.0);
        CHECK(difference_metrics(same.sums, -1).differ == 0);
        check_pair(test::constant_image(40, 40, ch, 0), test::constant_image(40, 40, ch, 255));
        check_pair(test::constant_image(40, 40, ch, 100), test::constant_image(40, 40, ch, 110));
        check_pair(test::random_image(1, 1, ch, 1), test::random_image(1, 1, ch, 2));
        check_pair(test::random_image(10, 10, ch, 1), test::random_image(10, 10, ch, 2));
        const Comparison tiny = gpu_compare(test::random_image(10, 30, ch, 1), test::random_image(10, 30, ch, 2), CompareOptions{});
        CHECK(!tiny.ssim.defined);
        CompareOptions map;
        map.ssim_map = true;
        CHECK_THROWS_AS(gpu_compare(test::random_image(10, 30, ch, 1), test::random_image(10, 30, ch, 2), map), Error);
    }
}

TEST_CASE("gpu compare: unaligned device images take the byte path, with the same results") {
    const cudaStream_t s = test::stream();
    cuda::CompareWorkspace ws;
    ws.reserve();
    for (int ch = 1; ch <= 4; ++ch)
        for (int w : {13, 64, 77}) {
            CAPTURE(ch);
            CAPTURE(w);
            const ImageU8 a = test::photo_like_image(w, 29, ch, 3), b = test::photo_like_image(w, 29, ch, 4);
            const test::UnalignedDeviceImage da(w, 29, ch, s, &a), db(w, 29, ch, s, &b);
            test::UnalignedDeviceImage dd(w, 29, ch, s), dm(w, 29, ch, s);
            cuda::difference_sums(da.ref, db.ref, &dd.ref, ws.totals(), s);
            cuda::ssim(da.ref, db.ref, &dm.ref, ws.totals() + cuda::kDifferenceTotals, s);
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(ws.host_totals(), ws.totals(),
                                              (cuda::kDifferenceTotals + cuda::kSsimTotals) * 8, cudaMemcpyDeviceToHost, s));
            Comparison g;
            g.diff = dd.download(s);
            g.ssim_map = dm.download(s);
            g.sums = cuda::difference_sums_from(ws.host_totals(), w, 29, ch);
            g.ssim = ssim_from_sums(cuda::ssim_sums_from(ws.host_totals() + cuda::kDifferenceTotals), w, 29, ch);
            CHECK_COMPARISONS_EQUAL(cpu::compare(a.view(), b.view(), everything(w, 29)), g);
        }
}

TEST_CASE("gpu compare: sums past 32 bits, and a 16 MP pair") {
    check_pair(test::constant_image(4096, 4096, 2, 255), test::constant_image(4096, 4096, 2, 0));
    const ImageU8 a = test::photo_like_image(4096, 4096, 3, 11);
    ImageU8 b = a;
    for (std::size_t i = 0; i < b.sample_count(); i += 3) b.data()[i] = static_cast<std::uint8_t>(255 - b.data()[i]);
    check_pair(a, b);
}

TEST_CASE("gpu compare --ssim-downsample: the shrunk images are the CPU's doubles, bit for bit") {
    const cudaStream_t s = test::stream();
    int cases = 0;
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {37, 23}, {64, 64}, {97, 211}, {641, 427}})
        for (int ch = 1; ch <= 4; ++ch)
            for (int f : {2, 3, 5, 16, 17, 64}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(ch);
                CAPTURE(f);
                const ImageU8 a = test::photo_like_image(w, h, ch, 5), b = test::random_image(w, h, ch, 6);
                const std::vector<double> want_a = cpu::ssim_shrink(a.view(), f), want_b = cpu::ssim_shrink(b.view(), f);
                cuda::DeviceImageU8 da = cuda::DeviceImageU8::from_host(a.view(), s);
                cuda::DeviceImageU8 db = cuda::DeviceImageU8::from_host(b.view(), s);
                cuda::DeviceBuffer<double> out(2 * want_a.size());
                cuda::ssim_shrink(da.view(), db.view(), f, out.get(), out.get() + want_a.size(), s);
                std::vector<double> got(2 * want_a.size());
                IMGPAR_CUDA_CHECK(cudaMemcpyAsync(got.data(), out.get(), got.size() * sizeof(double), cudaMemcpyDeviceToHost, s));
                IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
                const int row = ssim_shrunk_side(w, f) * ch;
                for (std::size_t i = 0; i < got.size(); ++i) {
                    const double want = i < want_a.size() ? want_a[i] : want_b[i - want_a.size()];
                    if (!same_bits(want, got[i])) {
                        const std::size_t j = i % want_a.size();
                        FAIL_CHECK("image ", i < want_a.size() ? "a" : "b", " (x, y, channel) = (", j % row / ch, ", ",
                                   j / row, ", ", j % ch, "): cpu ", want, ", gpu ", got[i]);
                        break;
                    }
                }
                ++cases;
            }
    MESSAGE(cases, " shrinks compared");
}

TEST_CASE("gpu compare --ssim-downsample: SSIM and its map equal the CPU's for every factor and channel count") {
    std::vector<std::pair<int, int>> sizes = test::awkward_sizes();
    for (const auto& wh : std::vector<std::pair<int, int>>{{641, 427}, {1000, 37}, {383, 384}, {2000, 1500}})
        sizes.push_back(wh);
    int defined = 0;
    for (const auto& [w, h] : sizes)
        for (int ch = 1; ch <= 4; ++ch)
            for (int f : {kSsimAutoDownsample, 2, 3, 7, 17}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(ch);
                CAPTURE(f);
                const ImageU8 a = test::photo_like_image(w, h, ch, 9);
                ImageU8 b = a;
                for (std::size_t i = 0; i < b.sample_count(); i += 7) b.data()[i] = static_cast<std::uint8_t>(b.data()[i] ^ 0x15);
                CompareOptions o;
                o.ssim_downsample = f;
                o.ssim_map = ssim_plan(o, w, h).fits;
                const Comparison c = cpu::compare(a.view(), b.view(), o), g = gpu_compare(a, b, o);
                CHECK_COMPARISONS_EQUAL(c, g);
                if (g.ssim.defined) {
                    ++defined;
                    CHECK(g.ssim.downsample == ssim_downsample_factor(f, w, h));
                    CHECK(g.ssim_map.width() == ssim_shrunk_side(w, g.ssim.downsample));
                }
            }
    MESSAGE(defined, " shrunk SSIMs compared");
    // Identical images: exactly 1 after shrinking too.
    CompareOptions o;
    o.ssim_downsample = 3;
    const ImageU8 photo = test::photo_like_image(301, 200, 3, 2);
    CHECK(gpu_compare(photo, photo, o).ssim.mean == 1.0);
    // 16 MP: auto shrinks 16x.
    const ImageU8 big = test::photo_like_image(4096, 4096, 3, 12);
    const ImageU8 other = test::photo_like_image(4096, 4096, 3, 13);
    o.ssim_downsample = kSsimAutoDownsample;
    const Comparison g = gpu_compare(big, other, o);
    CHECK(g.ssim.downsample == 16);
    CHECK_COMPARISONS_EQUAL(cpu::compare(big.view(), other.view(), o), g);
}

TEST_CASE("gpu compare: imgpar compare --device gpu prints the CPU's numbers and writes the CPU's images") {
    test::TempDir dir;
    const std::string a = test::sample_path("chelsea.png");
    const std::string b = dir.file("b.png");
    REQUIRE(test::run_imgpar({"blur", a, b, "--sigma", "1.2", "--device", "cpu"}).exit_code == 0);
    std::string records[2];
    const char* devices[2] = {"cpu", "gpu"};
    for (int i = 0; i < 2; ++i) {
        const std::string tag = devices[i];
        const test::RunResult r = test::run_imgpar({"compare", a, b, "--json", "--device", tag, "--diff",
                                                    dir.file("d_" + tag + ".png"), "--ssim-map", dir.file("m_" + tag + ".png")});
        REQUIRE(r.exit_code == 0);
        REQUIRE(test::is_valid_json(r.out));
        auto m = test::json_members(r.out);
        CHECK(m["backend"] == "\"" + tag + "\"");
        records[i] = m["all"] + m["per_channel"] + m["pixels_differ"];
        // Shrunk 2x (--ssim-downsample): the same numbers and map on both.
        const test::RunResult d = test::run_imgpar({"compare", a, b, "--json", "--device", tag, "--ssim-downsample", "2",
                                                    "--ssim-map", dir.file("s_" + tag + ".png")});
        REQUIRE(d.exit_code == 0);
        auto md = test::json_members(d.out);
        CHECK(md["backend"] == "\"" + tag + "\"");
        records[i] += md["all"] + md["per_channel"] + md["ssim"];
    }
    CHECK(records[0] == records[1]);
    CHECK(test::read_bytes(dir.file("d_cpu.png")) == test::read_bytes(dir.file("d_gpu.png")));
    CHECK(test::read_bytes(dir.file("m_cpu.png")) == test::read_bytes(dir.file("m_gpu.png")));
    CHECK(test::read_bytes(dir.file("s_cpu.png")) == test::read_bytes(dir.file("s_gpu.png")));
}
