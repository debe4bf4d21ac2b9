// Geometry on the CPU against references written independently here: NumPy's
// definitions (slicing, np.flip, .T, np.rot90 as NumPy composes it from flips
// and a transpose), pad's border rules by folding one period at a time,
// ImageMagick's gravity by hand-computed corners. Rotation by any angle:
// tests/test_rotate.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/rotate.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// --- NumPy, written out ---------------------------------------------------------

ImageU8 np_slice(const ImageU8& a, int y0, int y1, int x0, int x1) {
    ImageU8 out(x1 - x0, y1 - y0, a.channels());
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < a.channels(); ++c) out.at(x - x0, y - y0, c) = a.at(x, y, c);
    return out;
}

ImageU8 np_flip(const ImageU8& a, int axis) {
    ImageU8 out(a.width(), a.height(), a.channels());
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            for (int c = 0; c < a.channels(); ++c)
                out.at(x, y, c) = axis == 0 ? a.at(x, a.height() - 1 - y, c) : a.at(a.width() - 1 - x, y, c);
    return out;
}

// a.transpose(1, 0, 2): out[i][j] = a[j][i].
ImageU8 np_transpose(const ImageU8& a) {
    ImageU8 out(a.height(), a.width(), a.channels());
    for (int i = 0; i < out.height(); ++i)
        for (int j = 0; j < out.width(); ++j)
            for (int c = 0; c < a.channels(); ++c) out.at(j, i, c) = a.at(i, j, c);
    return out;
}

// numpy.rot90(m, k) for axes (0, 1), as NumPy's own source composes it.
ImageU8 np_rot90(const ImageU8& m, int k) {
    k = ((k % 4) + 4) % 4;
    if (k == 0) return ImageU8::copy_of(m.view());
    if (k == 2) return np_flip(np_flip(m, 0), 1);
    if (k == 1) return np_transpose(np_flip(m, 1));
    return np_flip(np_transpose(m), 1);
}

// pad's border rules by folding one period at a time (-1: the background).
int folded(int i, int n, BorderMode mode) {
    if (mode == BorderMode::Constant) return i >= 0 && i < n ? i : -1;
    if (mode == BorderMode::Replicate) return i < 0 ? 0 : (i >= n ? n - 1 : i);
    if (mode == BorderMode::Reflect101 && n == 1) return 0;
    while (i < 0 || i >= n) {
        if (mode == BorderMode::Reflect) i = i < 0 ? -1 - i : 2 * n - 1 - i;
        if (mode == BorderMode::Reflect101) i = i < 0 ? -i : 2 * n - 2 - i;
        if (mode == BorderMode::Wrap) i = i < 0 ? i + n : i - n;
    }
    return i;
}

ImageU8 padded(const ImageU8& a, int t, int b, int l, int r, BorderMode mode, const std::array<std::uint8_t, 4>& fill) {
    ImageU8 out(a.width() + l + r, a.height() + t + b, a.channels());
    for (int y = 0; y < out.height(); ++y)
        for (int x = 0; x < out.width(); ++x) {
            const int sx = folded(x - l, a.width(), mode), sy = folded(y - t, a.height(), mode);
            for (int c = 0; c < a.channels(); ++c)
                out.at(x, y, c) = sx < 0 || sy < 0 ? fill[static_cast<std::size_t>(c)] : a.at(sx, sy, c);
        }
    return out;
}

const std::vector<std::pair<int, int>> kSizes = {{1, 1}, {1, 7}, {7, 1}, {2, 3}, {13, 31}, {31, 13},
                                                 {17, 16}, {64, 64}, {65, 63}, {97, 211}, {127, 3}, {1, 130}};

const BorderMode kRules[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap,
                             BorderMode::Constant};

}  // namespace

TEST_CASE("geometry: flip, flop, transpose and the rotations by 90 are NumPy's, on every size and layout") {
    int checked = 0;
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(w);
            CAPTURE(h);
            CAPTURE(c);
            const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w * 31 + h + c));
            IMGPAR_CHECK_IMAGES_EQUAL(np_flip(a, 0), cpu::turn(a.view(), Turn::Flip));
            IMGPAR_CHECK_IMAGES_EQUAL(np_flip(a, 1), cpu::turn(a.view(), Turn::Flop));
            IMGPAR_CHECK_IMAGES_EQUAL(np_transpose(a), cpu::turn(a.view(), Turn::Transpose));
            IMGPAR_CHECK_IMAGES_EQUAL(np_rot90(a, -1), cpu::turn(a.view(), Turn::Rotate90));  // clockwise
            IMGPAR_CHECK_IMAGES_EQUAL(np_rot90(a, 2), cpu::turn(a.view(), Turn::Rotate180));
            IMGPAR_CHECK_IMAGES_EQUAL(np_rot90(a, 1), cpu::turn(a.view(), Turn::Rotate270));
            IMGPAR_CHECK_IMAGES_EQUAL(a, cpu::turn(a.view(), Turn::None));
            ++checked;
        }
    CHECK(checked == static_cast<int>(kSizes.size()) * 4);
}

TEST_CASE("geometry: rotate 90 is clockwise as displayed: the top-left pixel goes to the top right") {
    ImageU8 a(3, 2, 1);  // rows: 1 2 3 / 4 5 6
    for (int i = 0; i < 6; ++i) a.data()[i] = static_cast<std::uint8_t>(i + 1);
    const ImageU8 r = cpu::turn(a.view(), Turn::Rotate90);
    REQUIRE(r.width() == 2);
    REQUIRE(r.height() == 3);
    // 4 1 / 5 2 / 6 3
    const int want[6] = {4, 1, 5, 2, 6, 3};
    for (int i = 0; i < 6; ++i) CHECK(r.data()[i] == want[i]);
    const ImageU8 t = cpu::turn(a.view(), Turn::Transpose);  // 1 4 / 2 5 / 3 6
    const int want_t[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; ++i) CHECK(t.data()[i] == want_t[i]);
}

TEST_CASE("geometry: angles that are multiples of 90 are exact turns, modulo 360; others are not") {
    CHECK(turn_of_angle(90) == Turn::Rotate90);
    CHECK(turn_of_angle(-90) == Turn::Rotate270);
    CHECK(turn_of_angle(270) == Turn::Rotate270);
    CHECK(turn_of_angle(-270) == Turn::Rotate90);
    CHECK(turn_of_angle(180) == Turn::Rotate180);
    CHECK(turn_of_angle(-180) == Turn::Rotate180);
    CHECK(turn_of_angle(0) == Turn::None);
    CHECK(turn_of_angle(360) == Turn::None);
    CHECK(turn_of_angle(-720) == Turn::None);
    CHECK(turn_of_angle(450) == Turn::Rotate90);
    CHECK(turn_of_angle(9e15) == Turn::None);  // 9e15 = 25e12 x 360
    CHECK_FALSE(turn_of_angle(30).has_value());
    CHECK_FALSE(turn_of_angle(90.000001).has_value());
    CHECK_FALSE(turn_of_angle(-1e-300).has_value());
    CHECK_FALSE(turn_of_angle(std::nan("")).has_value());
}

TEST_CASE("geometry: gravity places a box as ImageMagick's GravityAdjustGeometry does") {
    // A 7x5 box in a 20x11 image, offsets (2, 1).
    struct Case {
        Gravity g;
        long long x, y;
    } cases[] = {{Gravity::NorthWest, 2, 1},   {Gravity::North, 2 + 10 - 3, 1},      {Gravity::NorthEast, 20 - 7 - 2, 1},
                 {Gravity::West, 2, 1 + 5 - 2}, {Gravity::Center, 2 + 7, 1 + 3},      {Gravity::East, 11, 4},
                 {Gravity::SouthWest, 2, 11 - 5 - 1}, {Gravity::South, 9, 5}, {Gravity::SouthEast, 11, 5}};
    for (const Case& k : cases) {
        CAPTURE(gravity_name(k.g));
        const Corner c = gravity_corner(k.g, 20, 11, 7, 5, 2, 1);
        CHECK(c.x == k.x);
        CHECK(c.y == k.y);
    }
    // Each half truncated on its own: a 1-wide box centred in 4 starts at 2 - 0.
    CHECK(gravity_corner(Gravity::Center, 4, 4, 1, 1, 0, 0).x == 2);
    CHECK(gravity_corner(Gravity::Center, 5, 4, 2, 1, 0, 0).x == 1);
    for (const std::string& n : gravity_names()) CHECK(gravity_name(parse_gravity(n)) == n);
    CHECK_THROWS_WITH_AS(parse_gravity("middle"), doctest::Contains("--gravity"), Error);
}

TEST_CASE("geometry: crop is NumPy slicing of the box clipped to the image; a box outside fails") {
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c) {
            const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w + 7 * h + c));
            for (int bw : {0, 1, 3, 40})
                for (int bh : {0, 2, 5})
                    for (long long x : {-3LL, 0LL, 1LL, 6LL})
                        for (long long y : {-1LL, 0LL, 2LL})
                            for (Gravity g : {Gravity::NorthWest, Gravity::Center, Gravity::SouthEast}) {
                                CAPTURE(w);
                                CAPTURE(h);
                                CAPTURE(c);
                                const CropSpec s{bw, bh, x, y, g};
                                CAPTURE(crop_text(s));
                                const long long ew = bw == 0 ? w : bw, eh = bh == 0 ? h : bh;
                                const Corner k = gravity_corner(g, w, h, ew, eh, x, y);
                                const long long x0 = std::max(0LL, k.x), x1 = std::min<long long>(w, k.x + ew);
                                const long long y0 = std::max(0LL, k.y), y1 = std::min<long long>(h, k.y + eh);
                                if (x1 <= x0 || y1 <= y0) {
                                    CHECK_THROWS_WITH_AS(crop_box(s, w, h), doctest::Contains("lies outside"), Error);
                                    continue;
                                }
                                const PixelBox b = crop_box(s, w, h);
                                const ImageU8 got = cpu::crop(a.view(), b);
                                IMGPAR_CHECK_IMAGES_EQUAL(np_slice(a, static_cast<int>(y0), static_cast<int>(y1),
                                                                   static_cast<int>(x0), static_cast<int>(x1)),
                                                          got);
                            }
        }
    // By hand: 100x100+10+20 of a 50x60 image keeps [20:60, 10:50].
    const PixelBox b = crop_box(CropSpec{100, 100, 10, 20, Gravity::NorthWest}, 50, 60);
    CHECK(b.x == 10);
    CHECK(b.y == 20);
    CHECK(b.width == 40);
    CHECK(b.height == 40);
    CHECK_THROWS_AS(crop_box(CropSpec{10, 10, 50, 0, Gravity::NorthWest}, 50, 60), Error);
    CHECK_THROWS_AS(crop_box(CropSpec{10, 10, -10, 0, Gravity::NorthWest}, 50, 60), Error);
    CHECK_NOTHROW(crop_box(CropSpec{10, 10, -9, 0, Gravity::NorthWest}, 50, 60));
}

TEST_CASE("geometry: crop's job refuses an image its box misses as that file's input error, and sizes the rest") {
    const auto job = test::image_job("crop", {{"width", "10"}, {"height", "10"}, {"x", "30"}, {"y", "0"}});
    CHECK(job->output_shape({50, 20, 3, SampleType::U8}) == ImageShape{10, 10, 3, SampleType::U8});
    CHECK(job->output_shape({35, 5, 1, SampleType::U8}) == ImageShape{5, 5, 1, SampleType::U8});
    try {
        job->check_input({20, 20, 3, SampleType::U8}, "small.png");
        FAIL("a box outside the image was accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("small.png") != std::string::npos);
        CHECK(std::string(e.what()).find("outside the 20x20 image") != std::string::npos);
    }
    // The geometry argument: WxH+X+Y, WxH-X-Y, WxH.
    const Operation& crop = *find_operation("crop");
    ParamValues v = crop.values();
    crop.extra.apply("30x20-4+7", v);
    CHECK(v.integer("width") == 30);
    CHECK(v.integer("x") == -4);
    CHECK(v.integer("y") == 7);
    for (const char* bad : {"30x", "x20", "30x20+4", "30x20+4+", "30x20++4+1", "0x30x20", "30X20", "a", "30x20+4+1x"}) {
        CAPTURE(bad);
        ParamValues w = crop.values();
        CHECK_THROWS_AS(crop.extra.apply(bad, w), Error);
    }
    ParamValues both = crop.values({{"width", "3"}});
    CHECK_THROWS_AS(crop.extra.apply("30x20", both), Error);
    CHECK_THROWS_WITH_AS(crop.make_image_job(crop.values()), doctest::Contains("give a box"), Error);
}

TEST_CASE("geometry: pad equals the border rules folded period by period, for pads wider than the image") {
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c)
            for (BorderMode mode : kRules) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(static_cast<int>(mode));
                const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(3 * w + h + c));
                const std::array<std::uint8_t, 4> fill{11, 22, 33, 44};
                const int t = 1 + (w % 5), b = 2 * h + 3, l = 3 * w + 1, r = 17;  // several periods
                const ImageU8 got = cpu::pad(a.view(), {t, b, l, r}, mode, fill);
                IMGPAR_CHECK_IMAGES_EQUAL(padded(a, t, b, l, r, mode, fill), got);
                const ImageU8 one_side = cpu::pad(a.view(), {0, 0, 0, 70}, mode, fill);
                IMGPAR_CHECK_IMAGES_EQUAL(padded(a, 0, 0, 0, 70, mode, fill), one_side);
            }
}

TEST_CASE("geometry: pad's rules on one row read as the border table's strips (docs/exactness.md)") {
    ImageU8 a(3, 1, 1);  // a b c
    for (int i = 0; i < 3; ++i) a.data()[i] = static_cast<std::uint8_t>('a' + i);
    const auto strip = [&](BorderMode m) {
        const ImageU8 p = cpu::pad(a.view(), {0, 0, 6, 6}, m, {'.', 0, 0, 0});
        return std::string(reinterpret_cast<const char*>(p.data()), p.sample_count());
    };
    CHECK(strip(BorderMode::Replicate) == "aaaaaaabccccccc");
    CHECK(strip(BorderMode::Reflect) == "abccbaabccbaabc");     // the image and its mirror alternate
    CHECK(strip(BorderMode::Reflect101) == "cbabcbabcbabcba");  // period 2n - 2
    CHECK(strip(BorderMode::Wrap) == "abcabcabcabcabc");
    CHECK(strip(BorderMode::Constant) == "......abc......");
}

TEST_CASE("geometry: pad to a size places the image by gravity; a smaller size fails that file") {
    PadSpec s;
    s.to_size = true;
    s.width = 10;
    s.height = 7;
    s.gravity = Gravity::Center;  // 10/2 - 3/2 = 4 left, 7/2 - 2/2 = 2 top
    PadSides p = pad_sides(s, 3, 2);
    CHECK(p.left == 4);
    CHECK(p.right == 3);
    CHECK(p.top == 2);
    CHECK(p.bottom == 3);
    s.gravity = Gravity::SouthEast;
    p = pad_sides(s, 3, 2);
    CHECK(p.left == 7);
    CHECK(p.right == 0);
    CHECK(p.top == 5);
    CHECK(p.bottom == 0);
    s.gravity = Gravity::NorthWest;
    p = pad_sides(s, 10, 7);
    CHECK(p.left + p.right + p.top + p.bottom == 0);
    CHECK_THROWS_WITH_AS(pad_sides(s, 11, 7), doctest::Contains("smaller than the 11x7 image"), Error);
    for (Gravity g : {Gravity::North, Gravity::Center, Gravity::East, Gravity::South})
        for (int iw = 1; iw <= 10; ++iw) {
            s.gravity = g;
            p = pad_sides(s, iw, 7);
            CHECK(p.left >= 0);
            CHECK(p.right >= 0);
            CHECK(p.left + p.right + iw == 10);
        }
    const auto job = test::image_job("pad", {{"size", "64x48"}, {"gravity", "center"}});
    CHECK(job->output_shape({30, 40, 2, SampleType::U8}) == ImageShape{64, 48, 2, SampleType::U8});
    CHECK_THROWS_AS(job->check_input({65, 40, 2, SampleType::U8}, "wide.png"), Error);
    try {
        job->check_input({65, 40, 2, SampleType::U8}, "wide.png");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
    }
    int w = 0, h = 0;
    parse_pad_size("1920x1080", w, h);
    CHECK(w == 1920);
    CHECK(h == 1080);
    for (const char* bad : {"0x10", "10x0", "10", "10x", "x10", "-5x5", "5x5x5", "1e3x5", "1000000x5"})
        CHECK_THROWS_WITH_AS(parse_pad_size(bad, w, h), doctest::Contains("--size"), Error);
}

TEST_CASE("geometry: pad's options: sides or a size, at least one side, the default background per layout") {
    const Operation& pad = *find_operation("pad");
    CHECK_THROWS_WITH_AS(pad.make_image_job(pad.values()), doctest::Contains("--top"), Error);
    CHECK_THROWS_WITH_AS(pad.make_image_job(pad.values({{"top", "0"}})), doctest::Contains("every side is 0"), Error);
    CHECK_THROWS_WITH_AS(pad.make_image_job(pad.values({{"top", "1"}, {"size", "5x5"}})), doctest::Contains("--size"),
                         Error);
    CHECK_THROWS_WITH_AS(pad.make_image_job(pad.values({{"top", "1"}, {"border", "constant:3"}})),
                         doctest::Contains("--border"), Error);
    PadSpec s;
    CHECK(pad_fill(s, 1) == std::array<std::uint8_t, 4>{0, 0, 0, 0});
    CHECK(pad_fill(s, 4) == std::array<std::uint8_t, 4>{0, 0, 0, 0});
    s.background = Rgba{255, 0, 0, 255};
    CHECK(pad_fill(s, 1)[0] == 77);  // (77 * 255 + 128) >> 8
    CHECK(pad_fill(s, 2) == std::array<std::uint8_t, 4>{77, 255, 0, 0});
    CHECK(pad_fill(s, 3) == std::array<std::uint8_t, 4>{255, 0, 0, 0});
    CHECK(pad_fill(s, 4) == std::array<std::uint8_t, 4>{255, 0, 0, 255});
}

// --- rotation by any angle ----------------------------------------------------------

TEST_CASE("geometry and colour: every example runs on every layout and size, 1x1 included, as declared") {
    const char* names[] = {"crop", "flip", "flop", "transpose", "rotate", "pad", "grayscale", "extract-channel",
                           "flatten", "add-alpha"};
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 7}, {7, 1}, {23, 17}, {131, 67}};
    int refused = 0, runs = 0;
    for (const char* name : names) {
        const Operation& op = *find_operation(name);
        for (const Example& e : op.examples)
            for (int c = 1; c <= 4; ++c)
                for (const auto& [w, h] : sizes) {
                    CAPTURE(name);
                    CAPTURE(e.label);
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    const auto job = op.make_image_job(op.values(e.values));
                    const ImageShape in{w, h, c, SampleType::U8};
                    try {
                        job->check_input(in, "img");
                    } catch (const Error& err) {
                        CHECK(err.kind() == ErrorKind::Input);
                        ++refused;
                        continue;
                    }
                    const ImageU8 img = test::layout_image(w, h, c, static_cast<unsigned>(w + h + c));
                    RunNotes notes;
                    const ImageU8 out = job->run(BackendChoice{}, img.view(), notes);
                    CHECK(ImageShape{out.width(), out.height(), out.channels(), SampleType::U8} == job->output_shape(in));
                    CHECK_FALSE(notes.kernel.empty());
                    ++runs;
                }
    }
    // The examples are chosen to fit every image up to 131x67 (crop boxes that
    // reach into any image; pad's boxes larger than these), so the GPU suite
    // compares bytes on all of them rather than two refusals.
    CHECK(refused == 0);
    CHECK(runs > 500);
}
