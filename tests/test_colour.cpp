// The colour family on the CPU against formulas written out here in floating
// point or plain integers (luma, compositing), channel names, and the one
// colour parser every --background shares.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/colour_spec.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ColourPlan plan(ColourOp op) {
    ColourPlan p;
    p.op = op;
    return p;
}

const std::pair<int, int> kSizes[] = {{1, 1}, {1, 9}, {9, 1}, {17, 13}, {31, 2}, {64, 3}};

}  // namespace

TEST_CASE("colour spec: every form is read, anything else is refused naming the option") {
    struct Case {
        const char* text;
        Rgba want;
    } cases[] = {{"#f80", {255, 136, 0, 255}},       {"#FF8800", {255, 136, 0, 255}}, {"#ff880080", {255, 136, 0, 128}},
                 {"#00000000", {0, 0, 0, 0}},        {"12,34,56", {12, 34, 56, 255}}, {"12,34,56,7", {12, 34, 56, 7}},
                 {"0,0,0,0", {0, 0, 0, 0}},           {"255,255,255", {255, 255, 255, 255}},
                 {"black", {0, 0, 0, 255}},          {"White", {255, 255, 255, 255}}, {"gray", {128, 128, 128, 255}},
                 {"grey", {128, 128, 128, 255}},     {"red", {255, 0, 0, 255}},       {"green", {0, 128, 0, 255}},
                 {"BLUE", {0, 0, 255, 255}},         {"transparent", {0, 0, 0, 0}}};
    for (const Case& c : cases) {
        CAPTURE(c.text);
        CHECK(parse_colour(c.text, "--background") == c.want);
    }
    for (const char* bad : {"", "#", "#ff", "#ffff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "ff8800", "1,2",
                            "1,2,3,4,5", "256,0,0", "-1,0,0", "1, 2, 3", "1,,3", "1.5,2,3", "0x10,0,0", "purple",
                            "rgb(1,2,3)", " black", "1000,0,0"}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(parse_colour(bad, "--background"), doctest::Contains("--background"), Error);
    }
    CHECK(colour_text(Rgba{1, 2, 254, 255}) == "#0102feff");
    // On an image: gray takes the Rec. 601 luma, alpha where there is alpha.
    const Rgba c{200, 100, 50, 60};
    const int y = (77 * 200 + 150 * 100 + 29 * 50 + 128) / 256;
    CHECK(colour_pixel(c, 1) == std::array<std::uint8_t, 4>{static_cast<std::uint8_t>(y), 0, 0, 0});
    CHECK(colour_pixel(c, 2) == std::array<std::uint8_t, 4>{static_cast<std::uint8_t>(y), 60, 0, 0});
    CHECK(colour_pixel(c, 3) == std::array<std::uint8_t, 4>{200, 100, 50, 0});
    CHECK(colour_pixel(c, 4) == std::array<std::uint8_t, 4>{200, 100, 50, 60});
}

TEST_CASE("grayscale: Rec. 601 and Rec. 709 luma as stated, alpha kept, gray unchanged") {
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c)
            for (bool rec709 : {false, true}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(rec709);
                const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w + h + c));
                ColourPlan p = plan(ColourOp::Grayscale);
                p.weights = rec709 ? LumaWeights::Rec709 : LumaWeights::Rec601;
                const ImageU8 g = cpu::apply_colour(a.view(), p);
                if (c <= 2) {
                    IMGPAR_CHECK_IMAGES_EQUAL(a, g);
                    continue;
                }
                REQUIRE(g.channels() == c - 2);
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        const int r = a.at(x, y, 0), gr = a.at(x, y, 1), b = a.at(x, y, 2);
                        // floor(weighted sum / 256 + 1/2), the weights rounded from the standards'
                        const int want = rec709 ? static_cast<int>(std::floor((54.0 * r + 183.0 * gr + 19.0 * b) / 256.0 + 0.5))
                                                : static_cast<int>(std::floor((77.0 * r + 150.0 * gr + 29.0 * b) / 256.0 + 0.5));
                        REQUIRE(g.at(x, y, 0) == want);
                        if (c == 4) REQUIRE(g.at(x, y, 1) == a.at(x, y, 3));
                    }
            }
    // The weights are the standards' rounded to 1/256 and sum to 256: gray stays gray.
    CHECK(std::lround(0.299 * 256) == 77);
    CHECK(std::lround(0.587 * 256) == 150);
    CHECK(std::lround(0.114 * 256) == 29);
    CHECK(std::lround(0.2126 * 256) == 54);
    CHECK(std::lround(0.7152 * 256) == 183);
    CHECK(std::lround(0.0722 * 256) == 18);  // 19 makes the sum 256 (0.0722 is the smallest share)
    ImageU8 grays(256, 1, 3);
    for (int v = 0; v < 256; ++v)
        for (int k = 0; k < 3; ++k) grays.at(v, 0, k) = static_cast<std::uint8_t>(v);
    for (LumaWeights wts : {LumaWeights::Rec601, LumaWeights::Rec709}) {
        ColourPlan p = plan(ColourOp::Grayscale);
        p.weights = wts;
        const ImageU8 g = cpu::apply_colour(grays.view(), p);
        for (int v = 0; v < 256; ++v) CHECK(g.at(v, 0, 0) == v);
    }
}

TEST_CASE("extract-channel: indices and names per layout; a channel the image lacks is refused") {
    struct Case {
        const char* spec;
        int want[4];  // index for 1..4 channels, -1: refused
    } cases[] = {{"0", {0, 0, 0, 0}},         {"1", {-1, 1, 1, 1}},      {"2", {-1, -1, 2, 2}},
                 {"3", {-1, -1, -1, 3}},      {"gray", {0, 0, -1, -1}},  {"red", {-1, -1, 0, 0}},
                 {"green", {-1, -1, 1, 1}},   {"blue", {-1, -1, 2, 2}},  {"alpha", {-1, 1, -1, 3}}};
    for (const Case& k : cases)
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(k.spec);
            CAPTURE(c);
            const ImageU8 a = test::layout_image(7, 5, c, 3);
            ColourPlan p = plan(ColourOp::ExtractChannel);
            p.channel = k.spec;
            const int want = k.want[c - 1];
            if (want < 0) {
                CHECK_THROWS_WITH_AS(resolve_channel(k.spec, c), doctest::Contains("--channel"), Error);
                CHECK_THROWS_AS(cpu::apply_colour(a.view(), p), Error);
                continue;
            }
            CHECK(resolve_channel(k.spec, c) == want);
            const ImageU8 e = cpu::apply_colour(a.view(), p);
            REQUIRE(e.channels() == 1);
            for (int y = 0; y < 5; ++y)
                for (int x = 0; x < 7; ++x) REQUIRE(e.at(x, y, 0) == a.at(x, y, want));
        }
    for (const char* bad : {"4", "-1", "r", "Red", "luma", "", "01"})
        CHECK_THROWS_WITH_AS(check_channel_spec(bad), doctest::Contains("--channel"), Error);
    // The job: the file fails alone, with its name; the positional N.
    const Operation& op = *find_operation("extract-channel");
    const auto job = op.make_image_job(op.values({{"channel", "alpha"}}));
    try {
        job->check_input({5, 5, 3, SampleType::U8}, "opaque.png");
        FAIL("a channel the image lacks was accepted");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("opaque.png") != std::string::npos);
    }
    CHECK_NOTHROW(job->check_input({5, 5, 4, SampleType::U8}, "ok.png"));
    ParamValues v = op.values();
    op.extra.apply("blue", v);
    CHECK(v.text("channel") == "blue");
    CHECK_THROWS_WITH_AS(op.make_image_job(op.values()), doctest::Contains("--channel"), Error);
}

TEST_CASE("flatten: (c a + b (255 - a) + 127) / 255 is the rounded composite, for every c, a, b") {
    long long checked = 0;
    for (int a = 0; a < 256; ++a)
        for (int c = 0; c < 256; ++c)
            for (int b = 0; b < 256; b += 5) {
                const double exact = (c * a + b * (255.0 - a)) / 255.0;
                REQUIRE(std::fabs(exact - std::floor(exact) - 0.5) > 1e-9);  // never a tie
                REQUIRE(flatten_sample(c, a, b) == static_cast<int>(std::lround(exact)));
                ++checked;
            }
    CHECK(checked == 256LL * 256 * 52);
    CHECK(flatten_sample(17, 255, 200) == 17);
    CHECK(flatten_sample(17, 0, 200) == 200);
}

TEST_CASE("flatten: drops alpha onto the background (gray: its luma); images without alpha unchanged") {
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c) {
            CAPTURE(c);
            const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w * h + c));
            ColourPlan p = plan(ColourOp::Flatten);
            p.background = Rgba{51, 102, 153, 255};
            const ImageU8 f = cpu::apply_colour(a.view(), p);
            if (!has_alpha(c)) {
                IMGPAR_CHECK_IMAGES_EQUAL(a, f);
                continue;
            }
            REQUIRE(f.channels() == c - 1);
            const int bg[3] = {c == 2 ? (77 * 51 + 150 * 102 + 29 * 153 + 128) / 256 : 51, 102, 153};
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    const int al = a.at(x, y, c - 1);
                    for (int k = 0; k < c - 1; ++k) {
                        const int want = static_cast<int>(std::lround((a.at(x, y, k) * al + bg[k] * (255.0 - al)) / 255.0));
                        REQUIRE(f.at(x, y, k) == want);
                    }
                }
        }
    const Operation& op = *find_operation("flatten");
    CHECK_THROWS_WITH_AS(op.make_image_job(op.values({{"background", "#ffffff80"}})), doctest::Contains("opaque"), Error);
    CHECK_NOTHROW(op.make_image_job(op.values({{"background", "#336699"}})));
}

TEST_CASE("add-alpha: gray and RGB gain an alpha of V; images with alpha are unchanged") {
    for (const auto& [w, h] : kSizes)
        for (int c = 1; c <= 4; ++c)
            for (int value : {0, 128, 255}) {
                CAPTURE(c);
                CAPTURE(value);
                const ImageU8 a = test::layout_image(w, h, c, static_cast<unsigned>(w + c));
                ColourPlan p = plan(ColourOp::AddAlpha);
                p.alpha = value;
                const ImageU8 r = cpu::apply_colour(a.view(), p);
                if (has_alpha(c)) {
                    IMGPAR_CHECK_IMAGES_EQUAL(a, r);
                    continue;
                }
                REQUIRE(r.channels() == c + 1);
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        for (int k = 0; k < c; ++k) REQUIRE(r.at(x, y, k) == a.at(x, y, k));
                        REQUIRE(r.at(x, y, c) == value);
                    }
            }
}

TEST_CASE("colour: output channel counts per operation and layout") {
    const int want[4][4] = {{1, 2, 1, 2},   // grayscale
                            {1, 1, 1, 1},   // extract-channel
                            {1, 1, 3, 3},   // flatten
                            {2, 2, 4, 4}};  // add-alpha
    const ColourOp ops[4] = {ColourOp::Grayscale, ColourOp::ExtractChannel, ColourOp::Flatten, ColourOp::AddAlpha};
    for (int o = 0; o < 4; ++o)
        for (int c = 1; c <= 4; ++c) CHECK(plan(ops[o]).output_channels(c) == want[o][c - 1]);
}
