// 16-bit geometry, rotation and colour on the GPU against the CPU reference,
// byte for byte: crops at every sample alignment of their offset (the remap
// kernel's shifted 16-byte loads of 2-8-byte pixels), every turn on sizes
// around the 64-pixel tiles, pad's rules, rotation at several angles with
// both interpolations and backgrounds, the colour maps; through the
// session's aligned slots and through device images at an odd address
// (2 bytes past alignment) with a pitch that is not a multiple of 16 (the
// kernels' sample-by-sample paths). A mismatch is reported as (x, y,
// channel, cpu, gpu).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/op/operation.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/rotate.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

using GpuRun16 = std::function<void(gpu::Session&, ConstDeviceViewU16, DeviceViewU16)>;

// A 16-bit device image 2 bytes past 16-byte alignment, its pitch the row
// plus 6 bytes (even, not a multiple of 16), the slack filled with 0xEE.
struct Unaligned16 {
    cuda::DeviceBuffer<std::uint8_t> buffer;
    DeviceViewU16 ref;
    Unaligned16(int w, int h, int c, cudaStream_t s, const ImageU16* src = nullptr) {
        const std::size_t pitch = static_cast<std::size_t>(w) * c * 2 + 6;
        buffer.reserve(pitch * static_cast<std::size_t>(h) + 16);
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(buffer.get(), 0xEE, buffer.bytes(), s));
        ref = {reinterpret_cast<std::uint16_t*>(buffer.get() + 2), w, h, c, pitch};
        if (src)
            IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(ref.data, ref.pitch, src->data(), src->stride(), src->row_bytes(),
                                                static_cast<std::size_t>(h), cudaMemcpyHostToDevice, s));
    }
    ImageU16 download(cudaStream_t s) const {
        ImageU16 out(ref.width, ref.height, ref.channels);
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(out.data(), out.stride(), ref.data, ref.pitch, out.row_bytes(),
                                            static_cast<std::size_t>(ref.height), cudaMemcpyDeviceToHost, s));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
        return out;
    }
};

// Through the session's Input and Output slots (16-byte aligned rows), or
// through unaligned device images (input, output or both).
ImageU16 on_gpu16(const ImageU16& src, int ow, int oh, int oc, const GpuRun16& run, bool in_unaligned = false,
                  bool out_unaligned = false) {
    const cudaStream_t st = test::stream();
    gpu::Session& s = test::session();
    Unaligned16 in(src.width(), src.height(), src.channels(), st, &src);
    Unaligned16 out(ow, oh, oc, st);
    const DeviceViewU16 a = in_unaligned
                                ? in.ref
                                : s.image<std::uint16_t>(gpu::Session::Slot::Input, src.width(), src.height(), src.channels());
    const DeviceViewU16 b = out_unaligned ? out.ref : s.image<std::uint16_t>(gpu::Session::Slot::Output, ow, oh, oc);
    if (!in_unaligned) s.upload(src.view(), a);
    run(s, a, b);
    if (out_unaligned) return out.download(st);
    ImageU16 result(ow, oh, oc);
    s.download(ConstDeviceViewU16(b), result.view());
    return result;
}

#define CHECK_SAME16(cpu_image, gpu_image)                                                          \
    do {                                                                                            \
        const PixelMismatch mm_ = first_mismatch((cpu_image).view(), (gpu_image).view());            \
        CHECK_MESSAGE(!mm_.found, "GPU differs from CPU (expected = cpu, actual = gpu): ", mm_.describe()); \
    } while (0)

const std::pair<int, int> kSizes[] = {{1, 1}, {1, 19}, {19, 1}, {7, 5}, {15, 17}, {16, 16}, {17, 15},
                                      {63, 65}, {64, 64}, {65, 63}, {129, 130}, {257, 31}, {1031, 17}};

const BorderMode kRules[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap,
                             BorderMode::Constant};

const Turn kTurns[] = {Turn::None, Turn::Flip, Turn::Flop, Turn::Transpose, Turn::Rotate90, Turn::Rotate180, Turn::Rotate270};

}  // namespace

TEST_CASE("gpu 16-bit turns: every turn, layout and size around the tiles gives the CPU's samples") {
    int runs = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : kSizes) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w * 3 + h + c));
            for (Turn t : kTurns) {
                const ImageU16 want = cpu::turn(img.view(), t);
                for (int mode = 0; mode < 3; ++mode) {  // aligned; input unaligned; output unaligned
                    const ImageU16 got = on_gpu16(
                        img, want.width(), want.height(), c,
                        [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::turn(s, a, b, t); }, mode == 1,
                        mode == 2);
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(turn_name(t));
                    CAPTURE(mode);
                    CHECK_SAME16(want, got);
                    ++runs;
                }
            }
        }
    CHECK(runs == 4 * 13 * 7 * 3);
}

TEST_CASE("gpu 16-bit crop: every sample alignment of the offset and several widths") {
    int runs = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{97, 23}, {300, 9}, {33, 33}}) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + c));
            for (int x = 0; x < 10 && x < w; ++x)
                for (int bw : {1, 5, 8, 9, 40, w - x}) {
                    if (bw < 1 || x + bw > w) continue;
                    const PixelBox box{x, 1, bw, h - 2};
                    const ImageU16 want = cpu::crop(img.view(), box);
                    for (bool unaligned : {false, true}) {
                        const ImageU16 got = on_gpu16(
                            img, bw, h - 2, c,
                            [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::crop(s, a, b, box.x, box.y); },
                            unaligned, unaligned);
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(x);
                        CAPTURE(bw);
                        CAPTURE(unaligned);
                        CHECK_SAME16(want, got);
                        ++runs;
                    }
                }
        }
    CHECK(runs > 300);
}

TEST_CASE("gpu 16-bit pad: every rule, sides at every sample alignment, the background as v * 257") {
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {7, 5}, {61, 17}, {64, 3}})
            for (BorderMode rule : kRules)
                for (const PadSides s : {PadSides{2, 3, 4, 5}, PadSides{0, 9, 1, 33}, PadSides{1, 0, 70, 3}, PadSides{5, 5, 0, 0}}) {
                    const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + h + c));
                    PadSpec spec;
                    spec.background = Rgba{255, 7, 128, 77};
                    const std::array<std::uint16_t, 4> fill = pad_fill16(spec, c);
                    const ImageU16 want = cpu::pad(img.view(), s, rule, fill);
                    for (bool unaligned : {false, true}) {
                        const ImageU16 got = on_gpu16(
                            img, want.width(), want.height(), c,
                            [&](gpu::Session& ss, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::pad(ss, a, b, s, rule, fill); },
                            unaligned, unaligned);
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(h);
                        CAPTURE(static_cast<int>(rule));
                        CAPTURE(s.left);
                        CAPTURE(unaligned);
                        CHECK_SAME16(want, got);
                    }
                }
}

TEST_CASE("gpu 16-bit rotate: angles, both interpolations, backgrounds, every layout, odd sizes") {
    int runs = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {17, 13}, {64, 63}, {131, 40}})
            for (double degrees : {30.0, -17.5, 45.0, 123.0, 271.5})
                for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
                    const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + 3 * h + c));
                    RotateSpec spec;
                    spec.degrees = degrees;
                    spec.interpolation = in;
                    if (runs % 2) spec.background = Rgba{255, 7, 200, 128};
                    const ImageU16 want = cpu::rotate(img.view(), spec);
                    for (bool unaligned : {false, true}) {
                        const ImageU16 got = on_gpu16(
                            img, want.width(), want.height(), c,
                            [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::rotate(s, a, b, spec); },
                            unaligned, false);
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(h);
                        CAPTURE(degrees);
                        CAPTURE(interpolation_name(in));
                        CAPTURE(unaligned);
                        CHECK_SAME16(want, got);
                    }
                    ++runs;
                }
    CHECK(runs == 4 * 5 * 5 * 2);
}

TEST_CASE("gpu 16-bit colour: grayscale, extract-channel, flatten and add-alpha on every layout") {
    std::vector<ColourPlan> plans;
    for (LumaWeights weights : {LumaWeights::Rec601, LumaWeights::Rec709}) {
        ColourPlan p;
        p.op = ColourOp::Grayscale;
        p.weights = weights;
        plans.push_back(p);
    }
    for (const char* channel : {"0", "1", "2", "3", "alpha"}) {
        ColourPlan p;
        p.op = ColourOp::ExtractChannel;
        p.channel = channel;
        plans.push_back(p);
    }
    {
        ColourPlan p;
        p.op = ColourOp::Flatten;
        p.background = Rgba{250, 3, 128, 255};
        plans.push_back(p);
        p.op = ColourOp::AddAlpha;
        p.alpha = 255;
        plans.push_back(p);
        p.alpha = 3;
        plans.push_back(p);
    }
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 33}, {33, 1}, {17, 16}, {257, 9}})
            for (const ColourPlan& p : plans) {
                if (p.op == ColourOp::ExtractChannel) {
                    try {
                        (void)resolve_channel(p.channel, c);
                    } catch (const Error&) {
                        continue;  // a channel this layout lacks
                    }
                }
                const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + h + c));
                const ImageU16 want = cpu::apply_colour(img.view(), p);
                for (bool unaligned : {false, true}) {
                    const ImageU16 got = on_gpu16(
                        img, w, h, want.channels(),
                        [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::apply_colour(s, a, b, p); },
                        unaligned, unaligned);
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(p.describe());
                    CAPTURE(unaligned);
                    CHECK_SAME16(want, got);
                }
            }
}

TEST_CASE("gpu 16-bit geometry: a photo-sized RGBA image through every turn and a 30 degree rotation") {
    const ImageU16 img = test::smooth_image16(1917, 1083, 4, 3);
    for (Turn t : kTurns) {
        const ImageU16 want = cpu::turn(img.view(), t);
        const ImageU16 got = on_gpu16(img, want.width(), want.height(), 4,
                                      [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::turn(s, a, b, t); });
        CAPTURE(turn_name(t));
        CHECK_SAME16(want, got);
    }
    RotateSpec spec;
    spec.degrees = 30;
    spec.interpolation = Interpolation::Bicubic;
    const ImageU16 want = cpu::rotate(img.view(), spec);
    const ImageU16 got = on_gpu16(img, want.width(), want.height(), 4,
                                  [&](gpu::Session& s, ConstDeviceViewU16 a, DeviceViewU16 b) { gpu::rotate(s, a, b, spec); });
    CHECK_SAME16(want, got);
}

TEST_CASE("gpu 16-bit jobs: the geometry and colour commands on u16 through a session equal their CPU runs") {
    const std::vector<std::pair<const char*, std::vector<std::pair<std::string, std::string>>>> jobs = {
        {"crop", {{"width", "9"}, {"height", "5"}, {"x", "3"}, {"y", "2"}}},
        {"crop", {{"width", "4000"}, {"height", "3000"}, {"x", "3"}, {"y", "1"}, {"gravity", "center"}}},
        {"flip", {}},
        {"flop", {}},
        {"transpose", {}},
        {"rotate", {{"angle", "90"}}},
        {"rotate", {{"angle", "-90"}}},
        {"rotate", {{"angle", "180"}}},
        {"rotate", {{"angle", "30"}}},
        {"rotate", {{"angle", "-17.5"}, {"interpolation", "bicubic"}, {"background", "#ff000080"}}},
        {"pad", {{"top", "2"}, {"bottom", "3"}, {"left", "4"}, {"right", "5"}, {"background", "#ff000080"}}},
        {"pad", {{"top", "40"}, {"bottom", "40"}, {"left", "40"}, {"right", "40"}, {"border", "reflect"}}},
        {"grayscale", {}},
        {"grayscale", {{"rec709", ""}}},
        {"extract-channel", {{"channel", "0"}}},
        {"flatten", {}},
        {"add-alpha", {}},
    };
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {37, 23}, {300, 129}}) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + h + c));
            for (const auto& [name, values] : jobs) {
                const Operation* op = find_operation(name);
                REQUIRE(op != nullptr);
                std::unique_ptr<ImageJob> job;
                try {
                    job = op->make_image_job(op->values(values));
                } catch (const Error& e) {
                    FAIL_CHECK(name << ": " << e.what());  // a parameter this test names wrongly
                    continue;
                }
                REQUIRE(job->takes_u16());
                try {
                    job->check_input(ImageShape{w, h, c, SampleType::U16}, "image");
                } catch (const Error&) {
                    continue;  // a box that misses this image, a channel it lacks
                }
                RunNotes cpu_notes, gpu_notes;
                const ImageU16 want = job->run_cpu(img.view(), cpu_notes);
                const ImageU16 got = job->run(test::gpu_backend(), img.view(), gpu_notes);
                CAPTURE(name);
                CAPTURE(job->describe());
                CAPTURE(c);
                CAPTURE(w);
                CAPTURE(h);
                CHECK_SAME16(want, got);
                CHECK_FALSE(gpu_notes.kernel.empty());
            }
        }
}

TEST_CASE("gpu 16-bit: every declared example of the geometry, resize and colour commands equals its CPU run on u16") {
    int runs = 0;
    for (const char* name : {"crop", "flip", "flop", "transpose", "rotate", "pad", "resize", "thumbnail", "grayscale",
                             "extract-channel", "flatten", "add-alpha"}) {
        const Operation* op = find_operation(name);
        REQUIRE(op != nullptr);
        for (const Example& e : op->examples)
            for (int c = 1; c <= 4; ++c)
                for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {37, 23}, {301, 129}}) {
                    const std::unique_ptr<ImageJob> job = op->make_image_job(op->values(e.values));
                    REQUIRE(job->takes_u16());
                    try {
                        job->check_input(ImageShape{w, h, c, SampleType::U16}, "image");
                    } catch (const Error&) {
                        continue;  // a box that misses this image, a channel it lacks
                    }
                    const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(runs + 1));
                    RunNotes cpu_notes, gpu_notes;
                    const ImageU16 want = job->run_cpu(img.view(), cpu_notes);
                    const ImageU16 got = job->run(test::gpu_backend(), img.view(), gpu_notes);
                    CAPTURE(name);
                    CAPTURE(e.label);
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(gpu_notes.kernel);
                    CHECK_SAME16(want, got);
                    ++runs;
                }
    }
    CHECK(runs > 300);
}
