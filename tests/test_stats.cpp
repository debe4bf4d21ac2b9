// CPU reference of image statistics (src/ops/stats.hpp) against a direct
// computation written here from the contract: one sample at a time, in
// row-major order, in 64-bit integers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "src/error.hpp"
#include "src/ops/stats.hpp"
#include "src/parallel.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ImageStats direct_stats(ConstViewU8 img, const ConstViewU8* mask) {
    ImageStats st;
    st.width = img.width;
    st.height = img.height;
    st.channels = img.channels;
    st.masked = mask != nullptr;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            if (mask && mask->row(y)[x] == 0) continue;
            ++st.selected;
            const std::uint64_t index = static_cast<std::uint64_t>(y) * img.width + x;
            for (int c = 0; c < img.channels; ++c) {
                const int v = img.pixel(x, y)[c];
                ChannelSums& s = st.channel[static_cast<std::size_t>(c)];
                ++s.count;
                s.sum += static_cast<std::uint64_t>(v);
                s.sum_squares += static_cast<std::uint64_t>(v * v);
                s.nonzero += v != 0;
                if (v < s.min) {
                    s.min = v;
                    s.min_index = index;
                }
                if (v > s.max) {
                    s.max = v;
                    s.max_index = index;
                }
            }
        }
    return st;
}

void check_stats(const ImageU8& img, const std::string& label, const ImageU8* mask = nullptr) {
    CAPTURE(label);
    ConstViewU8 mv;
    if (mask) mv = mask->view();
    const ImageStats want = direct_stats(img.view(), mask ? &mv : nullptr);
    const ImageStats got = cpu::stats(img.view(), mask ? &mv : nullptr);
    CHECK_MESSAGE(got == want, stats_difference(want, got));
}

// 0 or 1 per pixel, about `percent` % ones.
ImageU8 random_mask(int w, int h, int percent, unsigned seed) {
    ImageU8 m(w, h, 1);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < m.size_bytes(); ++i) m.data()[i] = static_cast<int>(rng() % 100) < percent ? 1 : 0;
    return m;
}

}  // namespace

TEST_CASE("stats: equal to the direct computation on photos, random images and awkward sizes, every channel count") {
    check_stats(test::load_sample("camera.png"), "camera.png");
    check_stats(test::load_sample("chelsea.png"), "chelsea.png");
    check_stats(test::load_sample("chelsea_alpha.png"), "chelsea_alpha.png");
    for (int c = 1; c <= 4; ++c) {
        for (auto [w, h] : test::awkward_sizes()) {
            const std::string size = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            check_stats(test::random_image(w, h, c, static_cast<unsigned>(w * 7 + h + c)), "random " + size);
            check_stats(test::photo_like_image(w, h, c, 5), "photo-like " + size);
        }
        // Every tail length of a 16-pixel block, and rows longer than a
        // segment (65536 pixels), whose positions come from the second one.
        for (int w = 1; w <= 40; ++w) check_stats(test::random_image(w, 3, c, static_cast<unsigned>(w)), "width " + std::to_string(w));
        ImageU8 wide = test::random_image(65536 + 77, 2, c, 9);
        check_stats(wide, "wide");
        for (int k = 0; k < c; ++k) {
            wide.at(65536 + 50, 0, k) = 0;  // the only minimum and maximum, in the second segment
            wide.at(65536 + 60, 1, k) = 255;
        }
        for (int x = 0; x < wide.width(); ++x)
            for (int y = 0; y < 2; ++y)
                for (int k = 0; k < c; ++k)
                    if ((x != 65536 + 50 || y != 0) && (x != 65536 + 60 || y != 1))
                        wide.at(x, y, k) = static_cast<std::uint8_t>(1 + (x + y + k) % 250);
        check_stats(wide, "wide, extremes in the second segment");
        const ImageStats ws = cpu::stats(wide.view());
        CHECK(ws.channel[0].min_index == 65536 + 50);
        CHECK(ws.channel[0].max_index == static_cast<std::uint64_t>(wide.width()) + 65536 + 60);
    }
}

TEST_CASE("stats: 1x1, 1xN, Nx1, constant, black and white images") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 1, 77, 254, 255})
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 301}, {301, 1}, {33, 17}}) {
                const ImageU8 img = test::constant_image(w, h, c, v);
                check_stats(img, "constant " + std::to_string(v));
                const ImageStats st = cpu::stats(img.view());
                const std::uint64_t n = static_cast<std::uint64_t>(w) * h;
                for (int k = 0; k < c; ++k) {
                    const ChannelSums& s = st.channel[static_cast<std::size_t>(k)];
                    CHECK(s.count == n);
                    CHECK(s.min == v);
                    CHECK(s.max == v);
                    CHECK(s.min_index == 0);  // the first pixel, on ties
                    CHECK(s.max_index == 0);
                    CHECK(s.nonzero == (v ? n : 0));
                    const ChannelMoments m = stats_moments(s);
                    CHECK(m.mean == v);
                    CHECK(m.stddev == 0);
                }
            }
}

TEST_CASE("stats: sums past 32 bits are exact (5000x4000 white RGB)") {
    const ImageU8 white = test::constant_image(5000, 4000, 3, 255);
    const ImageStats st = cpu::stats(white.view());
    const std::uint64_t n = 20'000'000;
    for (int c = 0; c < 3; ++c) {
        const ChannelSums& s = st.channel[static_cast<std::size_t>(c)];
        CHECK(s.count == n);
        CHECK(s.sum == n * 255);                // 5.1e9 > 2^32
        CHECK(s.sum_squares == n * 255 * 255);  // 1.3e12
        CHECK(s.nonzero == n);
        CHECK(stats_moments(s).mean == 255);
        CHECK(stats_moments(s).stddev == 0);
    }
    const ChannelSums all = st.combined({0, 1, 2});
    CHECK(all.sum_squares == 3 * n * 255 * 255);
    CHECK(all.count == 3 * n);
    // One black pixel at the end: min moves there, and the sums stay exact.
    ImageU8 img = white;
    img.at(4999, 3999, 1) = 0;
    const ImageStats s2 = cpu::stats(img.view());
    CHECK(s2.channel[1].min == 0);
    CHECK(s2.channel[1].min_index == n - 1);
    CHECK(s2.channel[1].sum == (n - 1) * 255);
    CHECK(s2.channel[1].sum_squares == (n - 1) * 255 * 255);
    CHECK(s2.channel[0].min == 255);
}

TEST_CASE("stats: masks select pixels; an empty selection has no extremes and no moments") {
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 57}, {57, 1}, {131, 67}, {65536 + 19, 2}}) {
            const std::string size = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            const ImageU8 img = test::photo_like_image(w, h, c, 2);
            for (int percent : {0, 1, 50, 99, 100}) {
                const ImageU8 m = random_mask(w, h, percent, static_cast<unsigned>(percent + c));
                check_stats(img, "mask " + std::to_string(percent) + "% " + size, &m);
            }
        }
    const ImageU8 img = test::random_image(40, 30, 3, 1);
    const ImageU8 none(40, 30, 1);
    ConstViewU8 nv = none.view();
    const ImageStats st = cpu::stats(img.view(), &nv);
    CHECK(st.masked);
    CHECK(st.selected == 0);
    for (int c = 0; c < 3; ++c) {
        CHECK(st.channel[static_cast<std::size_t>(c)].count == 0);
        CHECK_FALSE(st.channel[static_cast<std::size_t>(c)].has_extremes());
        CHECK(stats_moments(st.channel[static_cast<std::size_t>(c)]).empty);
    }
    CHECK(stats_moments(st.combined({0, 1, 2})).empty);
    // One selected pixel: its values and position.
    ImageU8 one(40, 30, 1);
    one.at(17, 9, 0) = 200;
    ConstViewU8 ov = one.view();
    const ImageStats s1 = cpu::stats(img.view(), &ov);
    CHECK(s1.selected == 1);
    CHECK(s1.channel[2].min == img.at(17, 9, 2));
    CHECK(s1.channel[2].min_index == 9 * 40 + 17);
    CHECK(s1.channel[2].max_index == 9 * 40 + 17);
    // A mask of another size or with several channels is refused by the library.
    const ImageU8 small(39, 30, 1), rgb(40, 30, 3);
    ConstViewU8 sv = small.view(), rv = rgb.view();
    CHECK_THROWS_AS(cpu::stats(img.view(), &sv), Error);
    CHECK_THROWS_AS(cpu::stats(img.view(), &rv), Error);
}

TEST_CASE("stats: mask planes count a pixel where any channel of the mask is non-zero") {
    ImageU8 m(4, 1, 4);
    m.at(1, 0, 0) = 1;    // red only
    m.at(2, 0, 3) = 255;  // alpha only: alpha is a channel too
    m.at(3, 0, 1) = 9;
    const ImageU8 plane = mask_plane(m.view());
    REQUIRE(plane.channels() == 1);
    CHECK(plane.at(0, 0, 0) == 0);
    CHECK(plane.at(1, 0, 0) == 1);
    CHECK(plane.at(2, 0, 0) == 1);
    CHECK(plane.at(3, 0, 0) == 1);
}

TEST_CASE("stats: the same result on one thread and on many, and from parts added in any order") {
    const ImageU8 img = test::photo_like_image(1031, 517, 3, 8);
    const ImageStats many = cpu::stats(img.view());
    ImageStats one;
    {
        CpuThreadLimit limit(1);
        one = cpu::stats(img.view());
    }
    CHECK_MESSAGE(one == many, stats_difference(one, many));
    // Halves, added either way round, give the whole.
    const ImageStats top = cpu::stats(img.view().rows(0, 300));
    ImageStats bottom = cpu::stats(img.view().rows(300, 217));
    for (int c = 0; c < 3; ++c) {
        ChannelSums b = bottom.channel[static_cast<std::size_t>(c)];
        b.min_index += 300ull * 1031;
        b.max_index += 300ull * 1031;
        ChannelSums ab = top.channel[static_cast<std::size_t>(c)], ba = b;
        ab.add(b);
        ba.add(top.channel[static_cast<std::size_t>(c)]);
        CHECK(ab == many.channel[static_cast<std::size_t>(c)]);
        CHECK(ba == many.channel[static_cast<std::size_t>(c)]);
    }
}

TEST_CASE("stats: mean and population deviation from the integer sums") {
    ChannelSums s;  // 0 and 255, half each: mean 127.5, population deviation 127.5
    s.count = 4;
    s.sum = 510;
    s.sum_squares = 2 * 255 * 255;
    ChannelMoments m = stats_moments(s);
    CHECK_FALSE(m.empty);
    CHECK(m.mean == 127.5);
    CHECK(m.stddev == 127.5);
    // Against the two-pass definition on a photo (long double, so the
    // reference itself is not the less exact one).
    const ImageU8 cam = test::load_sample("camera.png");
    const ChannelSums c = cpu::stats(cam.view()).channel[0];
    long double mean = 0, var = 0;
    for (std::size_t i = 0; i < cam.size_bytes(); ++i) mean += cam.data()[i];
    mean /= cam.size_bytes();
    for (std::size_t i = 0; i < cam.size_bytes(); ++i) var += (cam.data()[i] - mean) * (cam.data()[i] - mean);
    var /= cam.size_bytes();
    m = stats_moments(c);
    CHECK(m.mean == doctest::Approx(static_cast<double>(mean)).epsilon(1e-15));
    CHECK(m.stddev == doctest::Approx(static_cast<double>(std::sqrt(var))).epsilon(1e-14));
    CHECK(stats_moments(ChannelSums{}).empty);
}

TEST_CASE("stats: --channel takes channel names and indices, not luma") {
    for (const char* ok : {"all", "gray", "red,green", "r, b ,a", "0", "3", "alpha", "grey", "ALL"})
        CHECK_NOTHROW(check_stats_channels(ok));
    for (const char* bad : {"", " ", "luma", "l", "y", "4", "purple", "red,", "red,,blue"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(check_stats_channels(bad), Error);
    }
    CHECK(select_stats_channels(3, "all") == std::vector<int>{0, 1, 2});
    CHECK(select_stats_channels(4, "alpha,r,red") == std::vector<int>{3, 0});
    CHECK(select_stats_channels(1, "gray") == std::vector<int>{0});
    CHECK(select_stats_channels(2, "a") == std::vector<int>{1});
    CHECK_THROWS_AS(select_stats_channels(1, "red"), Error);
    CHECK_THROWS_AS(select_stats_channels(3, "3"), Error);
}
