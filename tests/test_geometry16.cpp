// 16-bit geometry and colour on the CPU against references written plainly
// here: NumPy's slicing, flips, transpose and rot90 on (H, W, C) arrays of
// u16; pad's border rules by folding one period at a time; the colour maps'
// formulas in 64-bit integers and float64. Every channel count, the awkward
// sizes, samples over 0..65535 (0 and 65535 included, most not multiples of
// 257); the jobs keep u16 in their output shape and run on u16.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/geometry.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

ImageU16 slice16(const ImageU16& a, int y0, int y1, int x0, int x1) {
    ImageU16 out(x1 - x0, y1 - y0, a.channels());
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < a.channels(); ++c) out.at(x - x0, y - y0, c) = a.at(x, y, c);
    return out;
}

// The turns as NumPy states them: flip (axis 0), flop (axis 1), transpose,
// and rot90(a, -1) = 90 clockwise = transpose of flip(axis 0).
ImageU16 turned16(const ImageU16& a, Turn t) {
    const int w = a.width(), h = a.height();
    const bool swap = t == Turn::Transpose || t == Turn::Rotate90 || t == Turn::Rotate270;
    ImageU16 out(swap ? h : w, swap ? w : h, a.channels());
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            int sx = x, sy = y;
            switch (t) {
                case Turn::Flip: sy = h - 1 - y; break;
                case Turn::Flop: sx = w - 1 - x; break;
                case Turn::Transpose: sx = y, sy = x; break;
                case Turn::Rotate90: sx = y, sy = h - 1 - x; break;   // out[i][j] = a[h-1-j][i]
                case Turn::Rotate180: sx = w - 1 - x, sy = h - 1 - y; break;
                case Turn::Rotate270: sx = w - 1 - y, sy = x; break;  // out[i][j] = a[j][w-1-i]
                default: break;
            }
            for (int c = 0; c < a.channels(); ++c) out.at(x, y, c) = a.at(sx, sy, c);
        }
    return out;
}

// Where index i of an axis of n lands under a border rule, folding one
// period at a time; -1 for constant outside.
int fold(int i, int n, BorderMode rule) {
    switch (rule) {
        case BorderMode::Constant: return i < 0 || i >= n ? -1 : i;
        case BorderMode::Replicate: return i < 0 ? 0 : i >= n ? n - 1 : i;
        case BorderMode::Wrap:
            while (i < 0) i += n;
            while (i >= n) i -= n;
            return i;
        case BorderMode::Reflect:
            while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
            return i;
        case BorderMode::Reflect101:
            if (n == 1) return 0;
            while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
            return i;
    }
    return -1;
}

ImageU16 padded16(const ImageU16& a, const PadSides& s, BorderMode rule, const std::array<std::uint16_t, 4>& fill) {
    ImageU16 out(a.width() + s.left + s.right, a.height() + s.top + s.bottom, a.channels());
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            const int sx = fold(x - s.left, a.width(), rule), sy = fold(y - s.top, a.height(), rule);
            for (int c = 0; c < a.channels(); ++c)
                out.at(x, y, c) = sx < 0 || sy < 0 ? fill[static_cast<std::size_t>(c)] : a.at(sx, sy, c);
        }
    return out;
}

const Turn kTurns[] = {Turn::None, Turn::Flip, Turn::Flop, Turn::Transpose, Turn::Rotate90, Turn::Rotate180, Turn::Rotate270};
const BorderMode kRules[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap,
                             BorderMode::Constant};

std::unique_ptr<ImageJob> job_of(const char* name, const std::vector<std::pair<std::string, std::string>>& values) {
    const Operation* op = find_operation(name);
    REQUIRE(op != nullptr);
    return op->make_image_job(op->values(values));
}

}  // namespace

TEST_CASE("16-bit crop, turns: NumPy's slices, flips, transpose and rot90 of u16 arrays, every layout and awkward size") {
    int compared = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : test::awkward_sizes()) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w * 31 + h + c));
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            for (Turn t : kTurns) {
                CAPTURE(turn_name(t));
                IMGPAR_CHECK_IMAGES_EQUAL(turned16(img, t), cpu::turn(img.view(), t));
                ++compared;
            }
            const PixelBox b{w / 3, h / 4, w - w / 3 - w / 5, h - h / 4 - h / 7};
            IMGPAR_CHECK_IMAGES_EQUAL(slice16(img, b.y, b.y + b.height, b.x, b.x + b.width), cpu::crop(img.view(), b));
            ++compared;
        }
    CHECK(compared == 4 * static_cast<int>(test::awkward_sizes().size()) * 8);
}

TEST_CASE("16-bit pad: every border rule, pads wider than the image, the background as v * 257") {
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 7}, {7, 1}, {5, 3}, {13, 11}, {64, 3}}) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w + 5 * h + c));
            for (BorderMode rule : kRules)
                for (const PadSides s : {PadSides{2, 3, 4, 5}, PadSides{0, 17, 0, 29}, PadSides{9, 0, 1, 0}}) {
                    PadSpec spec;
                    spec.top = s.top;
                    spec.bottom = s.bottom;
                    spec.left = s.left;
                    spec.right = s.right;
                    spec.border = rule;
                    spec.background = Rgba{255, 1, 128, 77};
                    const std::array<std::uint16_t, 4> fill = pad_fill16(spec, c);
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(static_cast<int>(rule));
                    IMGPAR_CHECK_IMAGES_EQUAL(padded16(img, s, rule, fill), cpu::pad(img.view(), s, rule, fill));
                }
        }
    // The background in 8-bit terms, each sample times 257; gray takes the 8-bit luma times 257.
    PadSpec spec;
    spec.background = Rgba{255, 1, 128, 77};
    CHECK(pad_fill16(spec, 4) == std::array<std::uint16_t, 4>{65535, 257, 128 * 257, 77 * 257});
    CHECK(pad_fill16(spec, 3) == std::array<std::uint16_t, 4>{65535, 257, 128 * 257, 0});
    const int luma = (77 * 255 + 150 * 1 + 29 * 128 + 128) >> 8;
    CHECK(pad_fill16(spec, 2) == std::array<std::uint16_t, 4>{static_cast<std::uint16_t>(luma * 257), 77 * 257, 0, 0});
    spec.background.reset();
    CHECK(pad_fill16(spec, 4) == std::array<std::uint16_t, 4>{0, 0, 0, 0});
}

TEST_CASE("16-bit colour: grayscale, extract-channel, flatten and add-alpha against their formulas on 0..65535") {
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 31}, {31, 1}, {17, 13}, {65, 3}}) {
            const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(3 * w + h + c));
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            for (bool rec709 : {false, true}) {
                ColourPlan p;
                p.op = ColourOp::Grayscale;
                p.weights = rec709 ? LumaWeights::Rec709 : LumaWeights::Rec601;
                const ImageU16 got = cpu::apply_colour(img.view(), p);
                REQUIRE(got.channels() == (c >= 3 ? c - 2 : c));
                long long bad = 0, far = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        if (c < 3) {
                            for (int k = 0; k < c; ++k) bad += got.at(x, y, k) != img.at(x, y, k);
                            continue;
                        }
                        const long long r = img.at(x, y, 0), g = img.at(x, y, 1), b = img.at(x, y, 2);
                        const long long want = rec709 ? (54 * r + 183 * g + 19 * b + 128) / 256 : (77 * r + 150 * g + 29 * b + 128) / 256;
                        bad += got.at(x, y, 0) != want;
                        // And near the exact luma in float64 (the 8-bit weights are within 1/512 each).
                        const double exact = rec709 ? 0.2126 * r + 0.7152 * g + 0.0722 * b : 0.299 * r + 0.587 * g + 0.114 * b;
                        far += std::fabs(got.at(x, y, 0) - exact) > 0.003 * 65535;
                        if (c == 4) bad += got.at(x, y, 1) != img.at(x, y, 3);
                    }
                CHECK(bad == 0);
                CHECK(far == 0);
            }
            for (int k = 0; k < c; ++k) {
                ColourPlan p;
                p.op = ColourOp::ExtractChannel;
                p.channel = std::to_string(k);
                const ImageU16 got = cpu::apply_colour(img.view(), p);
                long long bad = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) bad += got.at(x, y, 0) != img.at(x, y, k);
                CHECK(bad == 0);
            }
            {
                ColourPlan p;
                p.op = ColourOp::Flatten;
                p.background = Rgba{250, 3, 128, 255};
                const ImageU16 got = cpu::apply_colour(img.view(), p);
                const bool alpha = c == 2 || c == 4;
                REQUIRE(got.channels() == (alpha ? c - 1 : c));
                const auto bg = colour_pixel16(p.background, c);
                long long bad = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x)
                        for (int k = 0; k < got.channels(); ++k) {
                            if (!alpha) {
                                bad += got.at(x, y, k) != img.at(x, y, k);
                                continue;
                            }
                            // Nearest integer to (c a + b (65535 - a)) / 65535, in float64 (never halfway).
                            const double a = img.at(x, y, c - 1), v = img.at(x, y, k);
                            const double want = std::floor((v * a + bg[static_cast<std::size_t>(k)] * (65535.0 - a)) / 65535.0 + 0.5);
                            bad += got.at(x, y, k) != want;
                        }
                CHECK(bad == 0);
            }
            {
                ColourPlan p;
                p.op = ColourOp::AddAlpha;
                p.alpha = 255;
                const ImageU16 opaque = cpu::apply_colour(img.view(), p);
                p.alpha = 3;
                const ImageU16 faint = cpu::apply_colour(img.view(), p);
                const bool alpha = c == 2 || c == 4;
                REQUIRE(opaque.channels() == (alpha ? c : c + 1));
                long long bad = 0;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        for (int k = 0; k < c; ++k) bad += opaque.at(x, y, k) != img.at(x, y, k);
                        if (!alpha) bad += opaque.at(x, y, c) != 65535 || faint.at(x, y, c) != 3 * 257;
                    }
                CHECK(bad == 0);
            }
        }
    // Flatten's ends: a = 65535 keeps the colour, a = 0 gives the background.
    ImageU16 ends(2, 1, 2);
    ends.at(0, 0, 0) = 12345, ends.at(0, 0, 1) = 65535;
    ends.at(1, 0, 0) = 12345, ends.at(1, 0, 1) = 0;
    ColourPlan p;
    p.op = ColourOp::Flatten;
    p.background = Rgba{10, 10, 10, 255};
    const ImageU16 flat = cpu::apply_colour(ends.view(), p);
    CHECK(flat.at(0, 0, 0) == 12345);
    CHECK(flat.at(1, 0, 0) == 2570);
}

TEST_CASE("16-bit jobs: crop, flip, flop, transpose, rotate 90, pad and the colour commands keep u16 and run on it") {
    const ImageU16 img = test::layout_image16(23, 17, 4, 9);
    const ImageShape in{23, 17, 4, SampleType::U16};
    const std::vector<std::pair<const char*, std::vector<std::pair<std::string, std::string>>>> jobs = {
        {"crop", {{"width", "9"}, {"height", "5"}, {"x", "3"}, {"y", "2"}}},
        {"flip", {}},
        {"flop", {}},
        {"transpose", {}},
        {"rotate", {{"angle", "90"}}},
        {"rotate", {{"angle", "30"}}},
        {"pad", {{"top", "2"}, {"left", "3"}, {"border", "reflect"}}},
        {"grayscale", {}},
        {"extract-channel", {{"channel", "alpha"}}},
        {"flatten", {}},
        {"add-alpha", {}},
    };
    for (const auto& [name, values] : jobs) {
        CAPTURE(name);
        const std::unique_ptr<ImageJob> job = job_of(name, values);
        CHECK(job->takes_u16());
        const ImageShape out = job->output_shape(in);
        CHECK(out.type == SampleType::U16);
        CHECK(job->output_shape(ImageShape{23, 17, 4, SampleType::U8}).type == SampleType::U8);
        RunNotes notes;
        const ImageU16 got = job->run_cpu(img.view(), notes);
        CHECK(got.width() == out.width);
        CHECK(got.height() == out.height);
        CHECK(got.channels() == out.channels);
        CHECK_FALSE(notes.kernel.empty());
    }
    // The exact turns through the jobs are the references' bytes.
    RunNotes notes;
    IMGPAR_CHECK_IMAGES_EQUAL(turned16(img, Turn::Rotate90), job_of("rotate", {{"angle", "90"}})->run_cpu(img.view(), notes));
    IMGPAR_CHECK_IMAGES_EQUAL(turned16(img, Turn::Flop), job_of("flop", {})->run_cpu(img.view(), notes));
}

TEST_CASE("16-bit: every declared example of the geometry, resize and colour commands runs on u16 and keeps u16") {
    int runs = 0;
    for (const char* name : {"crop", "flip", "flop", "transpose", "rotate", "pad", "resize", "thumbnail", "grayscale",
                             "extract-channel", "flatten", "add-alpha"}) {
        const Operation* op = find_operation(name);
        REQUIRE(op != nullptr);
        for (const Example& e : op->examples)
            for (int c = 1; c <= 4; ++c) {
                const std::unique_ptr<ImageJob> job = op->make_image_job(op->values(e.values));
                CAPTURE(name);
                CAPTURE(e.label);
                CAPTURE(c);
                REQUIRE(job->takes_u16());
                const ImageShape in{37, 23, c, SampleType::U16};
                try {
                    job->check_input(in, "image");
                } catch (const Error&) {
                    continue;  // a channel this layout lacks
                }
                const ImageShape out = job->output_shape(in);
                CHECK(out.type == SampleType::U16);
                const ImageU16 img = test::layout_image16(37, 23, c, static_cast<unsigned>(runs + 1));
                RunNotes notes;
                const ImageU16 got = job->run_cpu(img.view(), notes);
                CHECK(got.width() == out.width);
                CHECK(got.height() == out.height);
                CHECK(got.channels() == out.channels);
                ++runs;
            }
    }
    CHECK(runs > 100);
}
