// 16-bit resize on the GPU against the CPU reference, byte for byte: every
// filter, layout and factor from 1/37 to 13, odd sizes, alpha, crops of the
// resized image (--fill), harsh 0/65535 input; and the job through a
// session, its output u16. A mismatch is reported as (x, y, channel, cpu,
// gpu).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/resize.hpp"
#include "cuda/session.hpp"
#include "src/op/operation.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/resize_blocks.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/resize_views.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

ImageU16 on_gpu16(const ResizePlan& plan, const ImageU16& img, std::string& kernel, bool tiles = true) {
    cuda::DeviceImageU16 src(img.width(), img.height(), img.channels());
    cuda::DeviceImageU16 dst(plan.x.count, plan.y.count, img.channels());
    const cudaStream_t stream = test::stream();
    src.upload(img.view(), stream);
    cuda::resize(plan, src.view(), dst.view(), test::session().impl().resizes, stream, &kernel, tiles);
    ImageU16 out(plan.x.count, plan.y.count, img.channels());
    dst.download(out.view(), stream);
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
}

#define CHECK_SAME16(cpu_image, gpu_image)                                                          \
    do {                                                                                            \
        const PixelMismatch mm_ = first_mismatch((cpu_image).view(), (gpu_image).view());            \
        CHECK_MESSAGE(!mm_.found, "GPU differs from CPU (expected = cpu, actual = gpu): ", mm_.describe()); \
    } while (0)

}  // namespace

TEST_CASE("gpu 16-bit resize: both kernels give the CPU's samples for every filter, layout, size and factor, whole and cropped") {
    const std::pair<int, int> inputs[] = {{1, 1}, {1, 37}, {37, 1}, {97, 61}, {257, 129}, {1031, 33}};
    const std::pair<int, int> outputs[] = {{1, 1}, {3, 2}, {13, 7}, {50, 50}, {129, 64}, {1300, 90}};
    int compared = 0;
    for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic,
                           ResizeFilter::Lanczos3, ResizeFilter::Area})
        for (int c = 1; c <= 4; ++c)
            for (const auto& [iw, ih] : inputs)
                for (const auto& [ow, oh] : outputs) {
                    if (static_cast<long long>(ow) * oh > 40000 && iw * ih < 1000) continue;  // keep it quick
                    const ImageU16 img = (c == 2 || c == 4) ? test::layout_image16(iw, ih, c, 3)
                                                            : test::smooth_image16(iw, ih, c, 3);
                    for (const bool crop : {false, true}) {
                        const int cw = crop ? std::max(1, ow / 2) : ow, ch = crop ? std::max(1, oh / 3) : oh;
                        const ResizePlan plan = resize_plan(
                            f, iw, ih, {ow, oh, crop ? (ow - cw) / 2 : 0, crop ? oh - ch : 0, cw, ch}, SampleType::U16);
                        ImageU16 want(cw, ch, c);
                        cpu::resize(plan, img.view(), want.view());
                        for (const bool tiles : {true, false}) {
                            std::string kernel;
                            const ImageU16 got = on_gpu16(plan, img, kernel, tiles);
                            CAPTURE(resize_filter_name(f));
                            CAPTURE(c);
                            CAPTURE(iw);
                            CAPTURE(ih);
                            CAPTURE(ow);
                            CAPTURE(oh);
                            CAPTURE(crop);
                            CAPTURE(tiles);
                            CAPTURE(kernel);
                            CHECK_SAME16(want, got);
                            ++compared;
                        }
                    }
                }
    CHECK(compared > 1000);
}

// The CUDA cores' second pass stages a tile's 16-bit output in shared memory
// and writes its rows in 16-byte stores where the destination allows: a view
// one pixel into a wider image (not 16-byte aligned) and one at its start,
// with the samples around the view untouched; a shrink and an enlargement.
TEST_CASE("gpu 16-bit resize: the tiles write views that do and do not start on 16 bytes, nothing past them") {
    int compared = 0;
    for (int c = 1; c <= 4; ++c)
        for (const int offset : {0, 1})
            for (const auto& [iw, ih, ow, oh] : {std::array<int, 4>{517, 131, 251, 67}, std::array<int, 4>{97, 61, 150, 90}}) {
                CAPTURE(c);
                CAPTURE(offset);
                CAPTURE(iw);
                test::check_resize_into_view(test::smooth_image16(iw, ih, c, 5), ResizeFilter::Bicubic, ow, oh, offset,
                                             cuda::TilePasses::Cores, std::uint16_t{7777});
                ++compared;
            }
    CHECK(compared == 16);
}

TEST_CASE("gpu 16-bit resize: harsh 0/65535 input drives the lobes to their extremes, alpha included") {
    for (int c = 1; c <= 4; ++c) {
        ImageU16 board(67, 45, c);
        for (int y = 0; y < 45; ++y)
            for (int x = 0; x < 67; ++x)
                for (int k = 0; k < c; ++k) board.at(x, y, k) = ((x + y + k) % 2) ? 65535 : 0;
        for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3, ResizeFilter::Area})
            for (const auto& [ow, oh] : std::vector<std::pair<int, int>>{{17, 11}, {33, 23}, {127, 85}, {67, 45}, {200, 7}}) {
                const ResizePlan plan = resize_plan(f, 67, 45, {ow, oh, 0, 0, ow, oh}, SampleType::U16);
                ImageU16 want(ow, oh, c);
                cpu::resize(plan, board.view(), want.view());
                for (const bool tiles : {true, false}) {
                    std::string kernel;
                    const ImageU16 got = on_gpu16(plan, board, kernel, tiles);
                    CAPTURE(c);
                    CAPTURE(resize_filter_name(f));
                    CAPTURE(ow);
                    CAPTURE(oh);
                    CAPTURE(tiles);
                    CHECK_SAME16(want, got);
                }
            }
    }
}

TEST_CASE("gpu 16-bit resize: area at whole factors and 8- and 16-bit plans of one size in turn (the tables are told apart)") {
    const ImageU16 img = test::random_image16(96, 64, 3, 5);
    const ImageU8 img8 = test::photo_like_image(96, 64, 3, 5);
    for (int round = 0; round < 2; ++round)
        for (ResizeFilter f : {ResizeFilter::Area, ResizeFilter::Lanczos3}) {
            const ResizePlan p16 = resize_plan(f, 96, 64, {48, 32, 0, 0, 48, 32}, SampleType::U16);
            const ResizePlan p8 = resize_plan(f, 96, 64, {48, 32, 0, 0, 48, 32});
            ImageU16 want(48, 32, 3);
            cpu::resize(p16, img.view(), want.view());
            std::string kernel;
            CHECK_SAME16(want, on_gpu16(p16, img, kernel));
            // The 8-bit plan of the same sizes next, on the same workspace.
            cuda::DeviceImageU8 src(96, 64, 3), dst(48, 32, 3);
            const cudaStream_t stream = test::stream();
            src.upload(img8.view(), stream);
            cuda::resize(p8, src.view(), dst.view(), test::session().impl().resizes, stream, &kernel);
            ImageU8 got8(48, 32, 3), want8(48, 32, 3);
            dst.download(got8.view(), stream);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
            cpu::resize(p8, img8.view(), want8.view());
            IMGPAR_CHECK_IMAGES_EQUAL(want8, got8);
        }
}

TEST_CASE("gpu 16-bit resize: area at whole factors runs the block means, with the CPU's samples") {
    // Factors square and not, 1 to 5 and larger (37 x 37: beyond 8-bit
    // lanes), sizes with and without a remainder (extra: not whole blocks,
    // the two-pass kernels), crops, every channel count (alpha: the general
    // path), samples over 0..65535.
    const std::pair<int, int> factors[] = {{1, 1}, {2, 2}, {2, 1}, {1, 2}, {3, 3}, {4, 4}, {5, 5}, {2, 3}, {5, 2}, {16, 16}, {37, 37}};
    const std::pair<int, int> outputs[] = {{1, 1}, {1, 13}, {29, 1}, {67, 5}, {131, 7}};
    int compared = 0;
    for (const auto& [fx, fy] : factors)
        for (const auto& [ow, oh] : outputs)
            for (int c = 1; c <= 4; ++c)
                for (const int extra : {0, 1}) {
                    if (fx * fy > 256 && ow * oh > 40) continue;  // keep it quick
                    const int iw = ow * fx + extra, ih = oh * fy + extra;
                    const ImageU16 img = has_alpha(c) ? test::layout_image16(iw, ih, c, 5) : test::random_image16(iw, ih, c, 5);
                    for (const bool crop : {false, true}) {
                        const int cw = crop ? std::max(1, ow / 2) : ow, ch = crop ? std::max(1, oh / 3) : oh;
                        const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih,
                                                            {ow, oh, crop ? (ow - cw) / 2 : 0, crop ? oh - ch : 0, cw, ch},
                                                            SampleType::U16);
                        ImageU16 want(cw, ch, c);
                        cpu::resize(plan, img.view(), want.view());
                        std::string kernel;
                        const ImageU16 got = on_gpu16(plan, img, kernel);
                        CAPTURE(fx);
                        CAPTURE(fy);
                        CAPTURE(ow);
                        CAPTURE(oh);
                        CAPTURE(c);
                        CAPTURE(extra);
                        CAPTURE(crop);
                        CAPTURE(kernel);
                        CHECK_SAME16(want, got);
                        CHECK((kernel.find("block means") != std::string::npos) == cpu::resize_takes_blocks(plan, c));
                        compared += kernel.find("block means") != std::string::npos;
                    }
                }
    MESSAGE(compared, " 16-bit resizes through the block means");
    CHECK(compared > 100);
}

TEST_CASE("gpu 16-bit resize: blocks at the 32-bit sums' bound and beyond it (64-bit sums)") {
    for (const auto& [fx, fy] : std::vector<std::pair<int, int>>{{256, 256}, {257, 256}, {300, 300}, {1, 70000}})
        for (int c : {1, 3}) {
            const int ow = fy == 70000 ? 3 : 2, oh = 1, iw = ow * fx, ih = oh * fy;
            const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih, {ow, oh, 0, 0, ow, oh}, SampleType::U16);
            ImageU16 full(iw, ih, c);
            for (std::size_t i = 0; i < full.sample_count(); ++i) full.data()[i] = 65535;
            for (const ImageU16& img : {full, test::random_image16(iw, ih, c, 9)}) {
                ImageU16 want(ow, oh, c);
                cpu::resize(plan, img.view(), want.view());
                std::string kernel;
                const ImageU16 got = on_gpu16(plan, img, kernel);
                CAPTURE(fx);
                CAPTURE(fy);
                CAPTURE(c);
                CAPTURE(kernel);
                CHECK_SAME16(want, got);
                CHECK(kernel.find("block means") == 0);
            }
        }
}

TEST_CASE("gpu 16-bit resize job: u16 through the session equals the CPU job") {
    const Operation* op = find_operation("resize");
    REQUIRE(op != nullptr);
    const ImageU16 img = test::layout_image16(301, 199, 4, 8);
    for (const char* geometry : {"50%", "37x211!", "640x"}) {
        const std::unique_ptr<ImageJob> job = op->make_image_job(op->values({{"geometry", geometry}}));
        REQUIRE(job->takes_u16());
        RunNotes cpu_notes, gpu_notes;
        const ImageU16 want = job->run_cpu(img.view(), cpu_notes);
        const ImageU16 got = job->run(test::gpu_backend(), img.view(), gpu_notes);
        CAPTURE(geometry);
        CAPTURE(gpu_notes.kernel);
        CHECK_SAME16(want, got);
        CHECK(gpu_notes.kernel.find("16-bit") != std::string::npos);
    }
}
