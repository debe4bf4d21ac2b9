// The histogram's counting strategies, chunks per step and launch shapes
// (cuda/histogram_policy.hpp), every one of them against the CPU: the lab
// suite for whoever tunes the histogram (IMGPAR_BUILD_LAB=ON). imgpar ships
// only the default policies, which the GPU suite tests.
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
#include "src/ops/histogram.hpp"
#include "tests/support/gpu_histogram_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::UnalignedDeviceImage;
using test::stream;

namespace {

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

TEST_CASE("GPU histogram: every policy the benchmark sweeps gives the same counts on a photo") {
    cudaStream_t s = stream();
    ImageU8 rgb = test::load_sample("chelsea.png");
    const Histogram ref = cpu::histogram(rgb.view());
    cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(rgb.view(), s);
    cuda::DeviceBuffer<unsigned long long> counts(5 * 256);
    std::vector<unsigned long long> host(5 * 256);
    bool ok = true;
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
