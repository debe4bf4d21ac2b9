// GPU histogram, equalize and threshold against the CPU reference: identical
// counts, byte-identical images, same Otsu level, on real photos, constant
// images, awkward sizes, every channel count, 8K images, pitched and
// unaligned device images, and a reused workspace.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/histogram.hpp"
#include "cuda/histogram_policy.hpp"
#include "cuda/lab/histogram_variants.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

std::string first_difference(const Histogram& a, const Histogram& b) {
    if (a.channels != b.channels || a.luma != b.luma || a.pixels != b.pixels)
        return "shape differs: channels " + std::to_string(a.channels) + "/" + std::to_string(b.channels) + " luma " +
               std::to_string(a.luma) + "/" + std::to_string(b.luma) + " pixels " + std::to_string(a.pixels) + "/" +
               std::to_string(b.pixels);
    for (int p = 0; p < a.planes(); ++p)
        for (int v = 0; v < 256; ++v)
            if (a.counts[p][v] != b.counts[p][v])
                return "plane " + a.plane_name(p) + " value " + std::to_string(v) + ": cpu " +
                       std::to_string(a.counts[p][v]) + ", gpu " + std::to_string(b.counts[p][v]);
    return "";
}

#define CHECK_HISTOGRAMS_EQUAL(cpu_h, gpu_h)                          \
    do {                                                              \
        const std::string d_ = first_difference((cpu_h), (gpu_h));    \
        CHECK_MESSAGE(d_.empty(), d_);                                \
    } while (0)

// The host forms of the seam, through the suite's session.
Histogram gpu_histogram(ConstViewU8 img, bool luma) {
    gpu::Session& s = test::session();
    const DeviceViewU8 d = s.image<std::uint8_t>(gpu::Session::Slot::Input, img.width, img.height, img.channels);
    s.upload(img, d);
    return gpu::histogram(s, d, luma);
}
ImageU8 gpu_equalize(ConstViewU8 img, EqualizeMode m) {
    return gpu::run_on_images(test::session(), img, img.channels, [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
        gpu::equalize(test::session(), in, out, m);
    });
}
ThresholdResult gpu_threshold(ConstViewU8 img, const ThresholdSpec& spec) {
    ThresholdResult r;
    r.image = gpu::run_on_images(test::session(), img, threshold_output_channels(img.channels),
                                 [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                     r.threshold = gpu::threshold(test::session(), in, out, spec);
                                 });
    return r;
}

// Histogram, both equalize modes and threshold (Otsu and a level) on one image.
void check_all(const ImageU8& img, const std::string& label) {
    CAPTURE(label);
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view(), true), gpu_histogram(img.view(), true));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view(), false), gpu_histogram(img.view(), false));
    for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
        CAPTURE(equalize_mode_name(m));
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), m), gpu_equalize(img.view(), m));
    }
    for (const ThresholdSpec& spec : {threshold_otsu(), threshold_at(0), threshold_at(97), threshold_at(255)}) {
        CAPTURE(spec.otsu);
        CAPTURE(spec.value);
        const ThresholdResult c = cpu::threshold(img.view(), spec);
        const ThresholdResult g = gpu_threshold(img.view(), spec);
        CHECK(c.threshold == g.threshold);
        IMGPAR_CHECK_IMAGES_EQUAL(c.image, g.image);
    }
}

// A device image at an odd address with an odd pitch: forces the byte path.
struct UnalignedDeviceImage {
    cuda::DeviceBuffer<std::uint8_t> buffer;
    DeviceViewU8 ref;
    UnalignedDeviceImage(int w, int h, int c, cudaStream_t s, const ImageU8* src = nullptr) {
        const std::size_t pitch = static_cast<std::size_t>(w) * c + 3;
        buffer.reserve(pitch * static_cast<std::size_t>(h) + 16);
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(buffer.get(), 0xEE, buffer.bytes(), s));
        ref = {buffer.get() + 1, w, h, c, pitch};
        if (src)
            IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(ref.data, ref.pitch, src->data(), src->stride(), src->row_bytes(),
                                                static_cast<std::size_t>(h), cudaMemcpyHostToDevice, s));
    }
    ImageU8 download(cudaStream_t s) const {
        ImageU8 out(ref.width, ref.height, ref.channels);
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(out.data(), out.stride(), ref.data, ref.pitch, out.row_bytes(),
                                            static_cast<std::size_t>(ref.height), cudaMemcpyDeviceToHost, s));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
        return out;
    }
};

using test::stream;

// Every counting strategy x chunks per step x a few launch shapes: small and
// odd blocks, copies by warp and by lane (odd counts too), co-resident and
// persistent grids (1 block per SM with small blocks: long per-thread walks).
std::vector<cuda::HistogramPolicy> policy_variants() {
    struct Shape {
        int threads, copies;
        cuda::HistogramCopyBy by;
        int blocks_per_sm;
    };
    const Shape shapes[] = {
        {64, 1, cuda::HistogramCopyBy::Warp, 1},   {96, 3, cuda::HistogramCopyBy::Warp, 0},
        {256, 8, cuda::HistogramCopyBy::Warp, 0},  {1024, 16, cuda::HistogramCopyBy::Warp, 0},
        {1024, 32, cuda::HistogramCopyBy::Warp, 2}, {128, 3, cuda::HistogramCopyBy::Lane, 1},
        {256, 8, cuda::HistogramCopyBy::Lane, 0},  {1024, 32, cuda::HistogramCopyBy::Lane, 0},
    };
    std::vector<cuda::HistogramPolicy> out;
    for (cuda::HistogramMerge m : {cuda::HistogramMerge::Runs, cuda::HistogramMerge::Plain,
                                   cuda::HistogramMerge::Uniform, cuda::HistogramMerge::Match})
        for (int steps : {1, 2, 4})
            for (const Shape& sh : shapes) {
                cuda::HistogramPolicy p;
                p.block_threads = sh.threads;
                p.copies = sh.copies;
                p.copy_by = sh.by;
                p.blocks_per_sm = sh.blocks_per_sm;
                p.merge = m;
                p.chunks_per_step = steps;
                out.push_back(p);
            }
    out.push_back(cuda::kHistogramPolicyGray);
    out.push_back(cuda::kHistogramPolicyColour);
    return out;
}

// Counts `planes` of `d` with policy p into `counts` (poisoned first, so
// zeroing is checked too); "" when every count equals the CPU reference
// `ref` (a histogram with luma for colour images).
std::string policy_difference(const DeviceViewU8& d, const Histogram& ref, cuda::HistogramPlanes planes,
                              const cuda::HistogramPolicy& p, unsigned long long* counts, cudaStream_t s) {
    const int P = planes.count(d.channels);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(counts, 0xAB, static_cast<std::size_t>(P) * 256 * 8, s));
    cuda::lab::histogram_with_policy(d, planes, counts, p, s);
    std::vector<unsigned long long> host(static_cast<std::size_t>(P) * 256);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), counts, host.size() * 8, cudaMemcpyDeviceToHost, s));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    for (int q = 0; q < P; ++q) {
        const int rp = planes.channels ? q : d.channels;  // a luma-only count has luma as plane 0
        for (int v = 0; v < 256; ++v)
            if (host[static_cast<std::size_t>(q * 256 + v)] != ref.counts[rp][v])
                return cuda::describe(p) + " planes(channels=" + std::to_string(planes.channels) +
                       ", luma=" + std::to_string(planes.luma) + "): plane " + std::to_string(q) + " value " +
                       std::to_string(v) + ": cpu " + std::to_string(ref.counts[rp][v]) + ", gpu " +
                       std::to_string(host[static_cast<std::size_t>(q * 256 + v)]);
    }
    return "";
}

}  // namespace

TEST_CASE("GPU histogram family: real photos") {
    check_all(test::load_sample("camera.png"), "camera.png");
    check_all(test::load_sample("chelsea.png"), "chelsea.png");
    ImageU8 cam = test::load_sample("camera.png");
    ImageU8 rgba(cam.width(), cam.height(), 4);
    for (int y = 0; y < cam.height(); ++y)
        for (int x = 0; x < cam.width(); ++x) {
            rgba.at(x, y, 0) = cam.at(x, y, 0);
            rgba.at(x, y, 1) = static_cast<std::uint8_t>(255 - cam.at(x, y, 0));
            rgba.at(x, y, 2) = static_cast<std::uint8_t>(x);
            rgba.at(x, y, 3) = static_cast<std::uint8_t>(y);
        }
    check_all(rgba, "camera as RGBA");
}

TEST_CASE("GPU histogram family: constant, black, white at every channel count") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 255, 77})
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {37, 23}, {256, 256}, {1000, 3}})
                check_all(test::constant_image(w, h, c, v), "constant " + std::to_string(v) + " " + std::to_string(w) +
                                                                "x" + std::to_string(h) + " c=" + std::to_string(c));
}

TEST_CASE("GPU histogram family: awkward sizes, every channel count") {
    for (int c = 1; c <= 4; ++c) {
        for (auto [w, h] : test::awkward_sizes()) {
            const std::string size = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            check_all(test::random_image(w, h, c, static_cast<unsigned>(w * 7 + h * 3 + c)), "random " + size);
            check_all(test::photo_like_image(w, h, c, 3), "photo-like " + size);
        }
        // rows of 1..40 pixels: every tail length of a 16-pixel chunk
        for (int w = 1; w <= 40; ++w)
            check_all(test::random_image(w, 5, c, static_cast<unsigned>(w)), "width " + std::to_string(w));
        if (c == 2 || c == 4) check_all(test::alpha_image(301, 77, c, 4), "alpha c=" + std::to_string(c));
    }
}

TEST_CASE("GPU histogram family: unaligned device images and sub-view pitches") {
    cudaStream_t s = stream();
    cuda::HistogramWorkspace ws;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {17, 5}, {64, 9}, {129, 130}}) {
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            ImageU8 img = test::photo_like_image(w, h, c, 11);
            UnalignedDeviceImage src(w, h, c, s, &img);
            CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), cuda::histogram(src.ref, true, ws, s));
            for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
                UnalignedDeviceImage dst(w, h, c, s);
                cuda::equalize(src.ref, dst.ref, m, ws, s);
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), m), dst.download(s));
            }
            UnalignedDeviceImage out(w, h, threshold_output_channels(c), s);
            const int t = cuda::threshold(src.ref, out.ref, threshold_otsu(), ws, s);
            const ThresholdResult ref = cpu::threshold(img.view(), threshold_otsu());
            CHECK(t == ref.threshold);
            IMGPAR_CHECK_IMAGES_EQUAL(ref.image, out.download(s));
            // the bytes around the image are untouched (0xEE fill)
            std::vector<std::uint8_t> raw(out.buffer.bytes());
            IMGPAR_CUDA_CHECK(cudaMemcpy(raw.data(), out.buffer.get(), raw.size(), cudaMemcpyDeviceToHost));
            CHECK(raw[0] == 0xEE);
            bool pad_ok = true;
            for (int y = 0; y < h; ++y)
                for (std::size_t k = out.ref.pitch - 3; k < out.ref.pitch; ++k)
                    pad_ok = pad_ok && raw[1 + static_cast<std::size_t>(y) * out.ref.pitch + k] == 0xEE;
            CHECK(pad_ok);
        }
    // A sub-window of a larger device image: 16-byte aligned pitch, shifted start.
    ImageU8 big = test::random_image(300, 50, 3, 2);
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(big.view(), s);
    DeviceViewU8 win = d.view();
    win.data += 5 * 3;  // x = 5: not 16-byte aligned
    win.width = 200;
    ImageU8 cpu_win = ImageU8::copy_of(big.view().sub(5, 0, 200, 50));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(cpu_win.view()), cuda::histogram(win, true, ws, s));
    win = d.view();
    win.data += 16 * 3;  // x = 16: aligned, 16-byte path with a shorter row
    win.width = 123;
    cpu_win = ImageU8::copy_of(big.view().sub(16, 0, 123, 50));
    CHECK_HISTOGRAMS_EQUAL(cpu::histogram(cpu_win.view()), cuda::histogram(win, true, ws, s));
}

TEST_CASE("GPU histogram: device form planes, reused workspace, policies") {
    cudaStream_t s = stream();
    cuda::HistogramWorkspace ws;
    ws.reserve();
    // Every channel count, one workspace, interleaved with equalize/threshold.
    for (int round = 0; round < 3; ++round)
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(round);
            CAPTURE(c);
            ImageU8 img = test::photo_like_image(97 + round * 31, 61, c, static_cast<unsigned>(round + c));
            cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
            CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), cuda::histogram(d.view(), true, ws, s));
            cuda::DeviceImageU8 e(img.width(), img.height(), c);
            cuda::equalize(d.view(), e.view(), EqualizeMode::Luma, ws, s);
            ImageU8 out(img.width(), img.height(), c);
            e.download(out.view(), s);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view()), out);
            // in place
            cuda::equalize(d.view(), d.view(), EqualizeMode::Channels, ws, s);
            d.download(out.view(), s);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view(), EqualizeMode::Channels), out);
        }
    // Luma-only and channel-only planes through the device form.
    ImageU8 rgb = test::load_sample("chelsea.png");
    const Histogram ref = cpu::histogram(rgb.view());
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(rgb.view(), s);
    cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
    std::vector<unsigned long long> host(5 * 256);
    cuda::HistogramPlanes luma_only;
    luma_only.channels = false;
    luma_only.luma = true;
    CHECK(luma_only.count(3) == 1);
    CHECK_THROWS_AS(luma_only.count(1), Error);
    cuda::histogram(d.view(), luma_only, counts.get(), s);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), counts.get(), 256 * 8, cudaMemcpyDeviceToHost, s));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    bool ok = true;
    for (int v = 0; v < 256; ++v) ok = ok && host[v] == ref.counts[3][v];
    CHECK(ok);
    // Every policy the benchmark sweeps gives the same counts.
    for (int threads : {64, 128, 256, 512, 1024})
        for (int copies = 1; copies <= threads / 32; copies *= 2) {
            CAPTURE(threads);
            CAPTURE(copies);
            cuda::HistogramPolicy p;
            p.block_threads = threads;
            p.copies = copies;
            cuda::HistogramPlanes all;
            all.luma = true;
            cuda::lab::histogram_with_policy(d.view(), all, counts.get(), p, s);
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(host.data(), counts.get(), 4 * 256 * 8, cudaMemcpyDeviceToHost, s));
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
            ok = true;
            for (int pl = 0; pl < 4; ++pl)
                for (int v = 0; v < 256; ++v) ok = ok && host[pl * 256 + v] == ref.counts[pl][v];
            CHECK(ok);
        }
    cuda::HistogramPolicy bad;
    bad.block_threads = 100;
    CHECK_THROWS_AS(cuda::lab::histogram_with_policy(d.view(), {}, counts.get(), bad, s), Error);
    bad.block_threads = 256;
    bad.copies = 9;
    CHECK_THROWS_AS(cuda::lab::histogram_with_policy(d.view(), {}, counts.get(), bad, s), Error);
    // Bad arguments are usage errors, before any GPU work.
    DeviceViewU8 null_ref = d.view();
    null_ref.data = nullptr;
    CHECK_THROWS_AS(cuda::histogram(null_ref, true, ws, s), Error);
    DeviceViewU8 short_pitch = d.view();
    short_pitch.pitch = 10;
    CHECK_THROWS_AS(cuda::histogram(short_pitch, true, ws, s), Error);
    cuda::DeviceImageU8 wrong(rgb.width(), rgb.height(), 3);
    CHECK_THROWS_AS(cuda::threshold(d.view(), wrong.view(), threshold_at(5), ws, s), Error);
    CHECK_THROWS_AS(cuda::threshold(d.view(), wrong.view(), ThresholdSpec{false, 300}, ws, s), Error);
    cuda::DeviceImageU8 small(5, 5, 3);
    CHECK_THROWS_AS(cuda::equalize(d.view(), small.view(), EqualizeMode::Luma, ws, s), Error);
}

TEST_CASE("GPU histogram family: 8192x8192 gray and 7680x4320 RGB, photo-like and constant") {
    struct Big {
        int w, h, c;
        bool constant;
    } cases[] = {{8192, 8192, 1, false}, {8192, 8192, 1, true}, {7680, 4320, 3, false}, {7680, 4320, 3, true}};
    for (const Big& b : cases) {
        const std::string label = std::to_string(b.w) + "x" + std::to_string(b.h) + " c=" + std::to_string(b.c) +
                                  (b.constant ? " constant" : " photo-like");
        CAPTURE(label);
        ImageU8 img = b.constant ? test::constant_image(b.w, b.h, b.c, 200) : test::photo_like_image(b.w, b.h, b.c, 8);
        const Histogram gh = gpu_histogram(img.view(), true);
        CHECK_HISTOGRAMS_EQUAL(cpu::histogram(img.view()), gh);
        if (b.constant) CHECK(gh.counts[0][200] == static_cast<std::uint64_t>(b.w) * b.h);
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::equalize(img.view()), gpu_equalize(img.view(), EqualizeMode::Luma));
        const ThresholdResult c = cpu::threshold(img.view(), threshold_otsu());
        const ThresholdResult g = gpu_threshold(img.view(), threshold_otsu());
        CHECK(c.threshold == g.threshold);
        IMGPAR_CHECK_IMAGES_EQUAL(c.image, g.image);
    }
}

TEST_CASE("GPU histogram: every counting strategy, step count and launch shape") {
    cudaStream_t s = stream();
    const std::vector<cuda::HistogramPolicy> variants = policy_variants();
    cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
    for (int c = 1; c <= 4; ++c) {
        // Constant images hit the all-lanes-equal paths (whole warps of full
        // uniform chunks at 1024 wide; partial chunks at 1000 wide); the
        // specked one mixes uniform and non-uniform lanes in a warp; photos
        // and noise take the per-sample paths; 2000x300 gives long walks.
        std::vector<std::pair<std::string, ImageU8>> images;
        images.emplace_back("constant 77 1024x48", test::constant_image(1024, 48, c, 77));
        images.emplace_back("constant 0 1000x40", test::constant_image(1000, 40, c, 0));
        images.emplace_back("constant 255 1x1", test::constant_image(1, 1, c, 255));
        ImageU8 specked = test::constant_image(512, 64, c, 200);
        for (std::size_t i = 0; i < specked.size_bytes(); i += 97) specked.data()[i] = static_cast<std::uint8_t>(i);
        images.emplace_back("specked 512x64", std::move(specked));
        images.emplace_back("random 17x5", test::random_image(17, 5, c, 5));
        images.emplace_back("photo-like 129x130", test::photo_like_image(129, 130, c, 6));
        images.emplace_back("photo-like 2000x300", test::photo_like_image(2000, 300, c, 7));
        std::vector<cuda::HistogramPlanes> plane_sets(1);
        if (c >= 3) {
            cuda::HistogramPlanes with_luma, luma_only;
            with_luma.luma = true;
            luma_only.channels = false;
            luma_only.luma = true;
            plane_sets.push_back(with_luma);
            plane_sets.push_back(luma_only);
        }
        for (const auto& [label, img] : images) {
            const std::string what = label + " c=" + std::to_string(c);
            CAPTURE(what);
            const Histogram ref = cpu::histogram(img.view(), true);
            cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
            std::string first;
            int failures = 0;
            for (const cuda::HistogramPolicy& p : variants)
                for (const cuda::HistogramPlanes& planes : plane_sets) {
                    const std::string diff = policy_difference(d.view(), ref, planes, p, counts.get(), s);
                    if (!diff.empty() && failures++ == 0) first = diff;
                }
            CHECK_MESSAGE(failures == 0, (std::to_string(failures) + " variants differ; first: " + first));
        }
        // The byte path (odd address and pitch) under every variant.
        ImageU8 photo = test::photo_like_image(129, 37, c, 9);
        const Histogram ref = cpu::histogram(photo.view(), true);
        UnalignedDeviceImage u(129, 37, c, s, &photo);
        std::string first;
        int failures = 0;
        for (const cuda::HistogramPolicy& p : variants)
            for (const cuda::HistogramPlanes& planes : plane_sets) {
                const std::string diff = policy_difference(u.ref, ref, planes, p, counts.get(), s);
                if (!diff.empty() && failures++ == 0) first = diff;
            }
        CHECK_MESSAGE(failures == 0, ("unaligned c=" + std::to_string(c) + ": " + std::to_string(failures) +
                                      " variants differ; first: " + first));
    }
}

TEST_CASE("GPU histogram: the gray default on an 8K gray image with a long walk") {
    // Every thread of the default grid takes many steps here; the persistent
    // 1-block-per-SM variants of every strategy take even more.
    cudaStream_t s = stream();
    cuda::DeviceBuffer<unsigned long long> counts(256);
    for (bool constant : {false, true}) {
        ImageU8 img = constant ? test::constant_image(8192, 2049, 1, 13) : test::photo_like_image(8192, 2049, 1, 4);
        const Histogram ref = cpu::histogram(img.view(), false);
        cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
        std::vector<cuda::HistogramPolicy> ps{cuda::default_histogram_policy(1)};
        for (cuda::HistogramMerge m : {cuda::HistogramMerge::Runs, cuda::HistogramMerge::Plain,
                                       cuda::HistogramMerge::Uniform, cuda::HistogramMerge::Match}) {
            cuda::HistogramPolicy p;
            p.merge = m;
            p.block_threads = 1024;
            p.copies = 32;
            p.copy_by = cuda::HistogramCopyBy::Lane;
            p.blocks_per_sm = 1;
            p.chunks_per_step = 4;
            ps.push_back(p);
        }
        for (const cuda::HistogramPolicy& p : ps) {
            const std::string diff = policy_difference(d.view(), ref, {}, p, counts.get(), s);
            CHECK_MESSAGE(diff.empty(), ((constant ? "constant: " : "photo: ") + diff));
        }
    }
}

TEST_CASE("GPU histogram: bad policies are usage errors") {
    cudaStream_t s = stream();
    ImageU8 img = test::photo_like_image(40, 30, 3, 1);
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(img.view(), s);
    cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
    auto bad = [&](auto edit) {
        cuda::HistogramPolicy p;
        edit(p);
        CHECK_THROWS_AS(cuda::lab::histogram_with_policy(d.view(), {}, counts.get(), p, s), Error);
    };
    bad([](cuda::HistogramPolicy& p) { p.copy_by = cuda::HistogramCopyBy::Lane; p.copies = 33; });
    bad([](cuda::HistogramPolicy& p) { p.copy_by = cuda::HistogramCopyBy::Lane; p.copies = 0; });
    bad([](cuda::HistogramPolicy& p) { p.chunks_per_step = 3; });
    bad([](cuda::HistogramPolicy& p) { p.chunks_per_step = 0; });
    bad([](cuda::HistogramPolicy& p) { p.merge = static_cast<cuda::HistogramMerge>(9); });
    bad([](cuda::HistogramPolicy& p) { p.copy_by = static_cast<cuda::HistogramCopyBy>(9); });
    bad([](cuda::HistogramPolicy& p) { p.blocks_per_sm = -1; });
    // 32 lane copies of 4 planes fit (131 KiB, opted in above 48 KiB).
    cuda::HistogramPolicy big;
    big.copy_by = cuda::HistogramCopyBy::Lane;
    big.copies = 32;
    cuda::HistogramPlanes all;
    all.luma = true;
    CHECK(policy_difference(d.view(), cpu::histogram(img.view(), true), all, big, counts.get(), s).empty());
    CHECK(cuda::describe(cuda::kHistogramPolicyGray).find("merge=") == 0);
}
