// GPU geometry and colour against the CPU reference beyond the declared
// examples: every byte alignment of a crop's offset and of pad's sides (the
// remap kernel's shifted loads), every turn on sizes around the 64-pixel
// tiles, rotation at many angles with both interpolations and backgrounds,
// the colour maps; then unaligned and pitched device images (the byte paths)
// and a photo-sized image.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "src/error.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/rotate.hpp"
#include "tests/support/gpu_histogram_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::UnalignedDeviceImage;

namespace {

using GpuRun = std::function<void(gpu::Session&, ConstDeviceViewU8, DeviceViewU8)>;

// The session's Input and Output slots, the output shaped as given.
ImageU8 on_gpu(ConstViewU8 src, int ow, int oh, int oc, const GpuRun& run) {
    gpu::Session& s = test::session();
    const DeviceViewU8 in = s.image<std::uint8_t>(gpu::Session::Slot::Input, src.width, src.height, src.channels);
    const DeviceViewU8 out = s.image<std::uint8_t>(gpu::Session::Slot::Output, ow, oh, oc);
    s.upload(src, in);
    run(s, in, out);
    ImageU8 result(ow, oh, oc);
    s.download(ConstDeviceViewU8(out), result.view());
    return result;
}

// The same through device images whose rows start one byte past 16-byte
// alignment with an odd pitch (input, output or both).
ImageU8 on_gpu_unaligned(const ImageU8& src, int ow, int oh, int oc, bool in_unaligned, bool out_unaligned,
                         const GpuRun& run) {
    const cudaStream_t st = test::stream();
    UnalignedDeviceImage in(src.width(), src.height(), src.channels(), st, &src);
    UnalignedDeviceImage out(ow, oh, oc, st);
    gpu::Session& s = test::session();
    const DeviceViewU8 a = in_unaligned ? in.ref : s.image<std::uint8_t>(gpu::Session::Slot::Input, src.width(), src.height(), src.channels());
    const DeviceViewU8 b = out_unaligned ? out.ref : s.image<std::uint8_t>(gpu::Session::Slot::Output, ow, oh, oc);
    if (!in_unaligned) s.upload(src.view(), a);
    run(s, a, b);
    if (out_unaligned) return out.download(st);
    ImageU8 result(ow, oh, oc);
    s.download(ConstDeviceViewU8(b), result.view());
    return result;
}

ImageU8 input(int w, int h, int c, unsigned seed) {
    return has_alpha(c) ? test::alpha_image(w, h, c, seed) : test::random_image(w, h, c, seed);
}

const std::pair<int, int> kSizes[] = {{1, 1}, {1, 19}, {19, 1}, {15, 17}, {16, 16}, {17, 15},
                                      {63, 65}, {64, 64}, {65, 63}, {129, 130}, {257, 31}, {1031, 17}};

const BorderMode kRules[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap,
                             BorderMode::Constant};

}  // namespace

TEST_CASE("gpu geometry: crop at every byte alignment of its offset gives the CPU's bytes") {
    int runs = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : {std::pair<int, int>{97, 23}, {300, 9}, {33, 33}}) {
            const ImageU8 img = input(w, h, c, static_cast<unsigned>(w + c));
            for (int x = 0; x < 18 && x < w; ++x)
                for (int bw : {1, 5, 16, 17, 40, w - x}) {
                    if (bw < 1 || x + bw > w) continue;
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(x);
                    CAPTURE(bw);
                    const PixelBox b{x, h / 3, bw, h - h / 3};
                    const ImageU8 want = cpu::crop(img.view(), b);
                    const ImageU8 got = on_gpu(img.view(), bw, b.height, c, [&](gpu::Session& s, auto in, auto out) {
                        gpu::crop(s, in, out, b.x, b.y);
                    });
                    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                    ++runs;
                }
        }
    MESSAGE(runs, " crops compared");
}

TEST_CASE("gpu geometry: every turn on sizes around the tiles, every layout") {
    const Turn turns[] = {Turn::None, Turn::Flip, Turn::Flop, Turn::Transpose, Turn::Rotate90, Turn::Rotate180, Turn::Rotate270};
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c)
            for (Turn t : turns) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(turn_name(t));
                const ImageU8 img = input(w, h, c, static_cast<unsigned>(w * 3 + h + c));
                const bool swap = turn_swaps_sides(t);
                const ImageU8 got = on_gpu(img.view(), swap ? h : w, swap ? w : h, c,
                                           [&](gpu::Session& s, auto in, auto out) { gpu::turn(s, in, out, t); });
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::turn(img.view(), t), got);
            }
}

TEST_CASE("gpu geometry: pad with every rule and sides at every alignment, wider than the image") {
    for (const auto& [w, h] : {std::pair<int, int>{1, 1}, {7, 5}, {37, 11}, {70, 3}})
        for (int c = 1; c <= 4; ++c)
            for (BorderMode m : kRules)
                for (int left : {0, 1, 3, 7, 15, 16, 17, 90}) {
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(static_cast<int>(m));
                    CAPTURE(left);
                    const ImageU8 img = input(w, h, c, static_cast<unsigned>(w + h + c + left));
                    const PadSides s{left % 5, 2 * h + 1, left, 33 - left % 17};
                    const std::array<std::uint8_t, 4> fill{9, 99, 199, 77};
                    const ImageU8 want = cpu::pad(img.view(), s, m, fill);
                    const ImageU8 got = on_gpu(img.view(), want.width(), want.height(), c,
                                               [&](gpu::Session& ss, auto in, auto out) { gpu::pad(ss, in, out, s, m, fill); });
                    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                }
}

TEST_CASE("gpu geometry: rotation by any angle, both interpolations, gives the CPU's bytes") {
    const double angles[] = {0.5, 1, 17.5, 30, 45, 89.9, 90.1, 135, 200, 271, 333.3, -60};
    int runs = 0;
    for (const auto& [w, h] : {std::pair<int, int>{1, 1}, {1, 9}, {9, 1}, {17, 13}, {64, 64}, {131, 67}})
        for (int c = 1; c <= 4; ++c)
            for (double a : angles)
                for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(a);
                    CAPTURE(interpolation_name(in));
                    const ImageU8 img = input(w, h, c, static_cast<unsigned>(w + h * 5 + c));
                    RotateSpec s;
                    s.degrees = a;
                    s.interpolation = in;
                    if (runs % 3 == 1) s.background = Rgba{250, 128, 3, 200};
                    const ImageU8 want = cpu::rotate(img.view(), s);
                    const ImageU8 got = on_gpu(img.view(), want.width(), want.height(), c,
                                               [&](gpu::Session& ss, auto i, auto o) { gpu::rotate(ss, i, o, s); });
                    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                    ++runs;
                }
    MESSAGE(runs, " rotations compared");
}

TEST_CASE("gpu geometry: rotation's tile and per-pixel kernels give the CPU's bytes around the tiles' edges") {
    // Outputs whose sides fall on, one short of and one past the 64x32 tiles
    // (3-4 channels) and the 64x64 ones (1-2 channels), angles near the axes
    // (boxes one or two pixels thick) and far from them.
    const double angles[] = {0.01, 3, 33.3, 45, 89.99, 120, 179.5, 225, 269.9, 301};
    const std::pair<int, int> sizes[] = {{1, 300}, {300, 1}, {62, 30}, {63, 33}, {64, 32},  {65, 31},
                                         {63, 65}, {64, 64}, {65, 63}, {97, 200}, {200, 97}};
    int runs = 0;
    for (const auto& [w, h] : sizes)
        for (int c = 1; c <= 4; ++c)
            for (double a : angles)
                for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(a);
                    CAPTURE(interpolation_name(in));
                    const ImageU8 img = input(w, h, c, static_cast<unsigned>(w * 3 + h + c + runs));
                    RotateSpec s;
                    s.degrees = a;
                    s.interpolation = in;
                    if (runs % 2 == 1) s.background = Rgba{7, 200, 90, static_cast<std::uint8_t>(255 - runs % 256)};
                    const ImageU8 want = cpu::rotate(img.view(), s);
                    for (gpu::RotateKernel k : {gpu::RotateKernel::Tiles, gpu::RotateKernel::PerPixel}) {
                        std::string name;
                        const ImageU8 got = on_gpu(img.view(), want.width(), want.height(), c,
                                                   [&](gpu::Session& ss, auto i, auto o) { gpu::rotate(ss, i, o, s, &name, k); });
                        IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                        CHECK((name.find("rotate_tile_kernel") == 0) == (k == gpu::RotateKernel::Tiles));
                    }
                    ++runs;
                }
    MESSAGE(runs, " rotations compared, each on both kernels");
}

TEST_CASE("gpu colour: every map on every layout and size") {
    std::vector<ColourPlan> plans;
    for (LumaWeights wts : {LumaWeights::Rec601, LumaWeights::Rec709}) {
        ColourPlan p;
        p.weights = wts;
        plans.push_back(p);
    }
    for (const char* ch : {"0", "1", "2", "3", "alpha", "green"}) {
        ColourPlan p;
        p.op = ColourOp::ExtractChannel;
        p.channel = ch;
        plans.push_back(p);
    }
    for (Rgba bg : {Rgba{255, 255, 255, 255}, Rgba{51, 102, 153, 255}}) {
        ColourPlan p;
        p.op = ColourOp::Flatten;
        p.background = bg;
        plans.push_back(p);
    }
    for (int v : {0, 255}) {
        ColourPlan p;
        p.op = ColourOp::AddAlpha;
        p.alpha = v;
        plans.push_back(p);
    }
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c)
            for (const ColourPlan& p : plans) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(p.describe());
                const ImageU8 img = input(w, h, c, static_cast<unsigned>(w + 2 * h + c));
                if (p.op == ColourOp::ExtractChannel) {
                    try {
                        (void)resolve_channel(p.channel, c);
                    } catch (const Error&) {
                        continue;
                    }
                }
                const ImageU8 got = on_gpu(img.view(), w, h, p.output_channels(c),
                                           [&](gpu::Session& s, auto in, auto out) { gpu::apply_colour(s, in, out, p); });
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_colour(img.view(), p), got);
            }
}

TEST_CASE("gpu geometry and colour: unaligned and odd-pitched device images take the byte paths, same bytes") {
    for (const auto& [w, h] : {std::pair<int, int>{1, 1}, {37, 21}, {130, 67}})
        for (int c = 1; c <= 4; ++c)
            for (int mode = 0; mode < 3; ++mode) {
                const bool in_u = mode != 1, out_u = mode != 0;
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(mode);
                const ImageU8 img = input(w, h, c, static_cast<unsigned>(w + h + c + mode));
                for (Turn t : {Turn::Flip, Turn::Flop, Turn::Transpose, Turn::Rotate90, Turn::Rotate180, Turn::Rotate270}) {
                    CAPTURE(turn_name(t));
                    const bool swap = turn_swaps_sides(t);
                    IMGPAR_CHECK_IMAGES_EQUAL(cpu::turn(img.view(), t),
                                              on_gpu_unaligned(img, swap ? h : w, swap ? w : h, c, in_u, out_u,
                                                               [&](gpu::Session& s, auto i, auto o) { gpu::turn(s, i, o, t); }));
                }
                const PixelBox b{w / 4, h / 5, w - w / 4, h - h / 5};
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::crop(img.view(), b),
                                          on_gpu_unaligned(img, b.width, b.height, c, in_u, out_u,
                                                           [&](gpu::Session& s, auto i, auto o) { gpu::crop(s, i, o, b.x, b.y); }));
                for (BorderMode m : kRules) {
                    const PadSides ps{3, 1, 21, 5};
                    const std::array<std::uint8_t, 4> fill{1, 2, 3, 4};
                    const ImageU8 want = cpu::pad(img.view(), ps, m, fill);
                    IMGPAR_CHECK_IMAGES_EQUAL(want, on_gpu_unaligned(img, want.width(), want.height(), c, in_u, out_u,
                                                                     [&](gpu::Session& s, auto i, auto o) {
                                                                         gpu::pad(s, i, o, ps, m, fill);
                                                                     }));
                }
                RotateSpec rs;
                rs.degrees = 23;
                rs.interpolation = Interpolation::Bicubic;
                const ImageU8 rw = cpu::rotate(img.view(), rs);
                IMGPAR_CHECK_IMAGES_EQUAL(rw, on_gpu_unaligned(img, rw.width(), rw.height(), c, in_u, out_u,
                                                               [&](gpu::Session& s, auto i, auto o) { gpu::rotate(s, i, o, rs); }));
                ColourPlan gp;
                IMGPAR_CHECK_IMAGES_EQUAL(cpu::apply_colour(img.view(), gp),
                                          on_gpu_unaligned(img, w, h, gp.output_channels(c), in_u, out_u,
                                                           [&](gpu::Session& s, auto i, auto o) { gpu::apply_colour(s, i, o, gp); }));
            }
}

TEST_CASE("gpu geometry: a photo-sized image through every turn, a crop, a pad and a rotation") {
    const ImageU8 img = test::photo_like_image(2111, 1409, 3, 7);
    for (Turn t : {Turn::Flop, Turn::Transpose, Turn::Rotate90, Turn::Rotate270, Turn::Rotate180}) {
        CAPTURE(turn_name(t));
        const bool swap = turn_swaps_sides(t);
        IMGPAR_CHECK_IMAGES_EQUAL(cpu::turn(img.view(), t),
                                  on_gpu(img.view(), swap ? 1409 : 2111, swap ? 2111 : 1409, 3,
                                         [&](gpu::Session& s, auto i, auto o) { gpu::turn(s, i, o, t); }));
    }
    const PixelBox b{333, 101, 1501, 999};
    IMGPAR_CHECK_IMAGES_EQUAL(cpu::crop(img.view(), b),
                              on_gpu(img.view(), b.width, b.height, 3, [&](gpu::Session& s, auto i, auto o) { gpu::crop(s, i, o, b.x, b.y); }));
    const PadSides ps{100, 7, 301, 2500};
    const ImageU8 pw = cpu::pad(img.view(), ps, BorderMode::Reflect, {0, 0, 0, 0});
    IMGPAR_CHECK_IMAGES_EQUAL(pw, on_gpu(img.view(), pw.width(), pw.height(), 3, [&](gpu::Session& s, auto i, auto o) {
                                  gpu::pad(s, i, o, ps, BorderMode::Reflect, {0, 0, 0, 0});
                              }));
    RotateSpec rs;
    rs.degrees = -33.3;
    const ImageU8 rw = cpu::rotate(img.view(), rs);
    IMGPAR_CHECK_IMAGES_EQUAL(rw, on_gpu(img.view(), rw.width(), rw.height(), 3,
                                         [&](gpu::Session& s, auto i, auto o) { gpu::rotate(s, i, o, rs); }));
}
