// resize on the GPU against the CPU reference, through each of its kernels:
// the tiled one (the intermediate in shared memory; its first pass on the
// tensor cores where it applies, and on the CUDA cores) and the two passes,
// on every filter, layout and factor from 1/37 to 13, odd sizes, alpha, and
// crops of the resized image (--fill).
#include <doctest/doctest.h>

#include <array>

#include "cuda/device_image.hpp"
#include "cuda/resize.hpp"
#include "cuda/resize_mma_tables.hpp"
#include "cuda/resize_tiles.hpp"
#include "cuda/session.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/resize_blocks.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/resize_views.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// How a test asks for a kernel: the tiled one with its first pass on the
// tensor cores where that applies, the tiled one on the CUDA cores only, or
// the two passes.
enum class Way { TensorCores, FirstOnTensorCores, Cores, Passes };
constexpr Way kWays[] = {Way::TensorCores, Way::FirstOnTensorCores, Way::Cores, Way::Passes};

const char* way_name(Way w) {
    return w == Way::TensorCores ? "tiles, tensor cores" : w == Way::FirstOnTensorCores ? "tiles, first pass on tensor cores"
                                                   : w == Way::Cores                    ? "tiles, cores"
                                                                                        : "passes";
}

ImageU8 on_gpu(const ResizePlan& plan, const ImageU8& img, Way way, std::string& kernel) {
    cuda::DeviceImageU8 src(img.width(), img.height(), img.channels());
    cuda::DeviceImageU8 dst(plan.x.count, plan.y.count, img.channels());
    const cudaStream_t stream = test::stream();
    src.upload(img.view(), stream);
    const cuda::TilePasses most = way == Way::TensorCores          ? cuda::TilePasses::TensorCores
                                  : way == Way::FirstOnTensorCores ? cuda::TilePasses::FirstOnTensorCores
                                                                   : cuda::TilePasses::Cores;
    cuda::resize(plan, src.view(), dst.view(), test::session().impl().resizes, stream, &kernel, way != Way::Passes, most);
    ImageU8 out(plan.x.count, plan.y.count, img.channels());
    dst.download(out.view(), stream);
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
}

}  // namespace

TEST_CASE("gpu resize: both kernels give the CPU's bytes for every filter, layout, size and factor") {
    const std::pair<int, int> inputs[] = {{1, 1}, {1, 37}, {37, 1}, {97, 61}, {257, 129}, {1031, 33}};
    const std::pair<int, int> outputs[] = {{1, 1}, {3, 2}, {13, 7}, {50, 50}, {129, 64}, {1300, 90}};
    int compared = 0;
    for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic,
                           ResizeFilter::Lanczos3, ResizeFilter::Area})
        for (int c = 1; c <= 4; ++c)
            for (const auto& [iw, ih] : inputs)
                for (const auto& [ow, oh] : outputs) {
                    if (static_cast<long long>(ow) * oh > 40000 && iw * ih < 1000) continue;  // keep it quick
                    const ImageU8 img = has_alpha(c) ? test::alpha_image(iw, ih, c, 3) : test::photo_like_image(iw, ih, c, 3);
                    // The whole image, and a crop of it (what --fill keeps).
                    for (const bool crop : {false, true}) {
                        const int cw = crop ? std::max(1, ow / 2) : ow, ch = crop ? std::max(1, oh / 3) : oh;
                        const ResizePlan plan =
                            resize_plan(f, iw, ih, {ow, oh, crop ? (ow - cw) / 2 : 0, crop ? oh - ch : 0, cw, ch});
                        ImageU8 want(cw, ch, c);
                        cpu::resize(plan, img.view(), want.view());
                        for (const Way way : kWays) {
                            CAPTURE(resize_filter_name(f));
                            CAPTURE(c);
                            CAPTURE(iw);
                            CAPTURE(ih);
                            CAPTURE(ow);
                            CAPTURE(oh);
                            CAPTURE(crop);
                            CAPTURE(way_name(way));
                            std::string kernel;
                            IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu(plan, img, way, kernel));
                            CHECK_FALSE(kernel.empty());
                            ++compared;
                        }
                    }
                }
    MESSAGE(compared, " resizes compared");
}

TEST_CASE("gpu resize: steep shrinks (1/37) and large enlargements (13x) of a photo, both kernels") {
    const ImageU8 img = test::photo_like_image(2960, 1850, 3, 8);
    for (const auto& [ow, oh] : std::vector<std::pair<int, int>>{{80, 50}, {1480, 925}, {2961, 1851}}) {
        for (ResizeFilter f : {ResizeFilter::Lanczos3, ResizeFilter::Area, ResizeFilter::Bilinear}) {
            const ResizePlan plan = resize_plan(f, img.width(), img.height(), {ow, oh, 0, 0, ow, oh});
            ImageU8 want(ow, oh, 3);
            cpu::resize(plan, img.view(), want.view());
            for (const Way way : kWays) {
                CAPTURE(ow);
                CAPTURE(resize_filter_name(f));
                CAPTURE(way_name(way));
                std::string kernel;
                IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu(plan, img, way, kernel));
            }
        }
    }
    const ImageU8 small = test::photo_like_image(41, 23, 4, 2);
    const ResizePlan up = resize_plan(ResizeFilter::Bicubic, 41, 23, {533, 299, 0, 0, 533, 299});
    ImageU8 want(533, 299, 4);
    cpu::resize(up, small.view(), want.view());
    std::string kernel;
    IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu(up, small, Way::TensorCores, kernel));
    CHECK(kernel.find("tiles") != std::string::npos);
}

TEST_CASE("gpu resize: the tiled kernel gives the CPU's bytes on harsh input (negative lobes at their extremes) and crops, "
          "its first pass on the tensor cores and on the CUDA cores") {
    // Harsh input: a checkerboard of 0 and 255 drives the negative lobes to
    // their extremes; a photo-like image covers the rest.
    const auto checker = [](int w, int h, int c) {
        ImageU8 img(w, h, c);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int ch = 0; ch < c; ++ch) img.at(x, y, ch) = ((x + y + ch) & 1) ? 255 : 0;
        return img;
    };
    // Heights whose last group of 16 rows is short or full, runs of bytes
    // that start and end inside 16-byte chunks, one-pixel columns; factors
    // whose groups read 1 to 4 steps of 32 input rows (1.9 to 0.2).
    const std::pair<int, int> inputs[] = {{640, 480}, {1031, 263}, {97, 1301}, {33, 17}, {1, 160}, {301, 66}};
    const double factors[] = {0.5, 1.0 / 3, 0.27, 0.2, 0.74, 1.9};
    int compared = 0, both_passes = 0;
    for (ResizeFilter f : {ResizeFilter::Lanczos3, ResizeFilter::Bicubic, ResizeFilter::Bilinear})
        for (int c : {1, 3})
            for (const auto& [iw, ih] : inputs)
                for (double k : factors)
                    for (const bool harsh : {false, true}) {
                        const int ow = std::max(1, static_cast<int>(iw * k)), oh = std::max(1, static_cast<int>(ih * k));
                        const ImageU8 img = harsh ? checker(iw, ih, c) : test::photo_like_image(iw, ih, c, 7);
                        // A crop whose first row and column are not 0 (what --fill keeps) for half of them.
                        const bool crop = harsh;
                        const int cw = crop ? std::max(1, ow - 5) : ow, ch = crop ? std::max(1, oh - 3) : oh;
                        const ResizePlan plan = resize_plan(f, iw, ih, {ow, oh, crop ? ow - cw : 0, crop ? oh - ch : 0, cw, ch});
                        ImageU8 want(cw, ch, c);
                        cpu::resize(plan, img.view(), want.view());
                        CAPTURE(resize_filter_name(f));
                        CAPTURE(c);
                        CAPTURE(iw);
                        CAPTURE(ih);
                        CAPTURE(k);
                        CAPTURE(harsh);
                        for (const Way way : {Way::TensorCores, Way::FirstOnTensorCores, Way::Cores}) {
                            CAPTURE(way_name(way));
                            std::string kernel;
                            IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu(plan, img, way, kernel));
                            // Every plan here reads at most 128 input rows a group of 16 rows (the
                            // first pass on the tensor cores wherever they may take it); the second
                            // goes there where 8 pixels read at most 64 intermediate columns.
                            const bool both = kernel.find("both passes on the tensor cores") != std::string::npos;
                            const bool first = kernel.find("first pass on the tensor cores") != std::string::npos;
                            CHECK(both + first == (way != Way::Cores));
                            CHECK_FALSE((both && way != Way::TensorCores));
                            ++compared;
                            both_passes += both;
                        }
                    }
    MESSAGE(compared, " resizes compared, ", both_passes, " with both passes on the tensor cores");
    CHECK(both_passes > compared / 6);
}

// Both second passes stage a tile's output in shared memory and write its
// rows in 16-byte stores where the destination allows: here the destination
// is a view one pixel into a wider image (rows not 16-byte aligned: the byte
// stores) and a view at its start (the 16-byte stores); every way the tiles
// run, every layout where the CUDA cores take both passes (the tensor cores
// take gray and RGB). Two shrinks and an enlargement.
TEST_CASE("gpu resize: the tiles write views that do and do not start on 16 bytes, nothing past them") {
    int compared = 0;
    for (const cuda::TilePasses passes :
         {cuda::TilePasses::TensorCores, cuda::TilePasses::FirstOnTensorCores, cuda::TilePasses::Cores})
        for (int c = 1; c <= 4; ++c) {
            if (passes != cuda::TilePasses::Cores && (c == 2 || c == 4)) continue;
            for (const int offset : {0, 1})
                for (const auto& [iw, ih, ow, oh] : {std::array<int, 4>{1031, 263, 515, 131},
                                                     std::array<int, 4>{640, 480, 160, 120},
                                                     std::array<int, 4>{97, 61, 150, 90}}) {
                    CAPTURE(static_cast<int>(passes));
                    CAPTURE(c);
                    CAPTURE(offset);
                    CAPTURE(iw);
                    const std::string kernel = test::check_resize_into_view(
                        test::photo_like_image(iw, ih, c, 11), ResizeFilter::Lanczos3, ow, oh, offset, passes,
                        std::uint8_t{77});
                    if (passes == cuda::TilePasses::TensorCores)
                        CHECK(kernel.find("both passes on the tensor cores") != std::string::npos);
                    ++compared;
                }
        }
    CHECK(compared == 2 * 12 + 24);
}

TEST_CASE("gpu resize: area at whole factors takes the block means and gives the CPU's bytes") {
    // (fx, fy) with output sizes that leave a remainder of the input unread,
    // crops (a first block away from the origin), every layout: alpha only as
    // a copy (1 x 1), where premultiplied colour would take the general path.
    const std::pair<int, int> factors[] = {{1, 1}, {2, 2}, {3, 2}, {2, 5}, {4, 4}, {7, 1}, {1, 3}, {16, 16}};
    const std::pair<int, int> outputs[] = {{1, 1}, {1, 29}, {31, 1}, {33, 17}, {127, 65}};
    int compared = 0;
    for (const auto& [fx, fy] : factors)
        for (const auto& [ow, oh] : outputs)
            for (int c = 1; c <= 4; ++c)
                for (const int extra : {0, 1}) {
                    const int iw = ow * fx + extra, ih = oh * fy + extra;
                    const ImageU8 img = has_alpha(c) ? test::alpha_image(iw, ih, c, 5) : test::photo_like_image(iw, ih, c, 5);
                    for (const bool crop : {false, true}) {
                        const int cw = crop ? std::max(1, ow / 2) : ow, ch = crop ? std::max(1, oh / 3) : oh;
                        // Whole factors only where the sizes divide (extra = 0).
                        const ResizePlan plan = resize_plan(ResizeFilter::Area, iw, ih,
                                                            {ow, oh, crop ? (ow - cw) / 2 : 0, crop ? oh - ch : 0, cw, ch});
                        ImageU8 want(cw, ch, c);
                        cpu::resize(plan, img.view(), want.view());
                        CAPTURE(fx);
                        CAPTURE(fy);
                        CAPTURE(ow);
                        CAPTURE(oh);
                        CAPTURE(c);
                        CAPTURE(extra);
                        CAPTURE(crop);
                        std::string kernel;
                        IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu(plan, img, Way::TensorCores, kernel));
                        CHECK((kernel.find("block means") != std::string::npos) == cpu::resize_takes_blocks(plan, c));
                        compared += kernel.find("block means") != std::string::npos;
                    }
                }
    MESSAGE(compared, " resizes through the block means");
    CHECK(compared > 100);
}

TEST_CASE("resize on the tensor cores: every live tap's weight sits where the MMA fragment layout puts its row and column") {
    // Host only: the fragments the device tables carry, read back through
    // the PTX layout of m16n8k32 (A: a0 = [g][4q..], a1 = [g + 8][4q..],
    // a2 = [g][16 + 4q..], a3 = [g + 8][16 + 4q..]; B: b0 = [4q..][g],
    // b1 = [16 + 4q..][g]), each weight as 256 x its signed high byte + its
    // low byte, and the total of each row or pixel's weights.
    struct Case {
        ResizeFilter f;
        int iw, ih, ow, oh;
    };
    const Case cases[] = {{ResizeFilter::Lanczos3, 640, 480, 320, 240}, {ResizeFilter::Bicubic, 97, 61, 184, 115},
                          {ResizeFilter::Bilinear, 1031, 263, 278, 71}, {ResizeFilter::Lanczos3, 1, 37, 13, 7},
                          {ResizeFilter::Lanczos3, 301, 66, 60, 13}};
    int weights = 0;
    for (const Case& c : cases) {
        const ResizePlan plan = resize_plan(c.f, c.iw, c.ih, {c.ow, c.oh, 0, 0, c.ow, c.oh});
        const cuda::ResizeMmaShape shape = cuda::resize_mma_shape(plan);
        CAPTURE(c.iw);
        CAPTURE(c.ow);
        REQUIRE(shape.k_rows > 0);
        std::vector<std::int32_t> words;
        cuda::append_resize_mma_fragments(plan, shape, words);
        const std::size_t row_words = cuda::resize_mma_words(plan, shape, true);
        REQUIRE(words.size() == row_words + cuda::resize_mma_words(plan, shape, false));
        const auto byte = [&](std::size_t word, int b) { return (static_cast<std::uint32_t>(words[word]) >> (8 * b)) & 255u; };
        const auto value = [](std::uint32_t hi, std::uint32_t lo) { return static_cast<int>(static_cast<std::int8_t>(hi)) * 256 + static_cast<int>(lo); };
        const int ks_rows = shape.k_rows / 32;
        for (int row = 0; row < plan.y.count; ++row) {
            const int G = row / 16, r = row % 16, base = plan.y.start[static_cast<std::size_t>(16 * G)];
            const int start = plan.y.start[static_cast<std::size_t>(row)];
            long long total = 0, want = 0;
            for (int t = 0; t < std::min(plan.y.taps, plan.y.in - start); ++t) {
                const int k = start - base + t, ks = k / 32, kk = k % 32;
                REQUIRE(k < shape.k_rows);
                const int lane = (r % 8) * 4 + (kk % 16) / 4, reg = (r >= 8 ? 1 : 0) + (kk >= 16 ? 2 : 0);
                const std::size_t at = ((static_cast<std::size_t>(G) * ks_rows + ks) * 32 + lane) * 8;
                const int w = value(byte(at + reg, kk % 4), byte(at + 4 + reg, kk % 4));
                CHECK(w == plan.y.weight[static_cast<std::size_t>(row) * plan.y.taps + t]);
                total += w;
                want += plan.y.weight[static_cast<std::size_t>(row) * plan.y.taps + t];
                ++weights;
            }
            CHECK(total == want);
        }
        if (shape.k_cols == 0) continue;
        const int ks_cols = shape.k_cols / 32;
        for (int j = 0; j < plan.x.count; ++j) {
            const int H = j / 8, n = j % 8, base = plan.x.start[static_cast<std::size_t>(8 * H)] & ~3;
            const int start = plan.x.start[static_cast<std::size_t>(j)];
            for (int t = 0; t < std::min(plan.x.taps, plan.x.in - start); ++t) {
                const int k = start - base + t, ks = k / 32, kk = k % 32;
                REQUIRE(k < shape.k_cols);
                const int lane = n * 4 + (kk % 16) / 4, reg = kk >= 16 ? 1 : 0;
                const std::size_t at = row_words + ((static_cast<std::size_t>(H) * ks_cols + ks) * 32 + lane) * 4;
                CHECK(value(byte(at + reg, kk % 4), byte(at + 2 + reg, kk % 4)) ==
                      plan.x.weight[static_cast<std::size_t>(j) * plan.x.taps + t]);
                ++weights;
            }
        }
    }
    MESSAGE(weights, " weights found in place");
}
