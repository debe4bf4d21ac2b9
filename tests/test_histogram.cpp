// CPU reference of histograms, equalization and thresholding, checked against
// brute-force definitions written here from the contracts in
// src/ops/histogram.hpp, src/ops/equalize.hpp and src/ops/threshold.hpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "src/error.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/pixel_math.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

Histogram brute_histogram(ConstViewU8 v) {
    Histogram h;
    h.channels = v.channels;
    h.luma = v.channels >= 3;
    h.pixels = static_cast<std::uint64_t>(v.width) * v.height;
    for (int y = 0; y < v.height; ++y)
        for (int x = 0; x < v.width; ++x) {
            const std::uint8_t* p = v.pixel(x, y);
            for (int c = 0; c < v.channels; ++c) ++h.counts[c][p[c]];
            if (h.luma) {
                const int l = (77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8;  // Rec. 601, written out
                ++h.counts[v.channels][l];
            }
        }
    return h;
}

std::string first_difference(const Histogram& a, const Histogram& b) {
    if (a.channels != b.channels || a.luma != b.luma || a.pixels != b.pixels) return "shape differs";
    for (int p = 0; p < a.planes(); ++p)
        for (int v = 0; v < 256; ++v)
            if (a.counts[p][v] != b.counts[p][v])
                return "plane " + std::to_string(p) + " value " + std::to_string(v) + ": " +
                       std::to_string(a.counts[p][v]) + " vs " + std::to_string(b.counts[p][v]);
    return "";
}

void check_counts(const ImageU8& img, const std::string& label) {
    CAPTURE(label);
    const Histogram h = cpu::histogram(img.view());
    const Histogram ref = brute_histogram(img.view());
    CHECK_MESSAGE(first_difference(ref, h).empty(), first_difference(ref, h));
    for (int p = 0; p < h.planes(); ++p) CHECK(total_count(h.plane(p)) == img.pixel_count());
}

// Otsu straight from the pixels: for every T, the within-class variance
// n0*var0 + n1*var1 from exact integer sums of v and v^2 over each class;
// the lowest T minimizing it (equivalently maximizing the between-class
// variance). Returns -1 when no T splits the samples.
std::vector<int> intensity_samples(ConstViewU8 v) {
    std::vector<int> samples;
    for (int y = 0; y < v.height; ++y)
        for (int x = 0; x < v.width; ++x) samples.push_back(intensity_of(v.pixel(x, y), v.channels));
    return samples;
}

// n * within-class variance at level t, or -1 if a class is empty.
long double within_variance(const std::vector<int>& samples, int t) {
    unsigned long long n0 = 0, n1 = 0, s0 = 0, s1 = 0, q0 = 0, q1 = 0;
    for (int s : samples) {
        const unsigned long long u = static_cast<unsigned long long>(s);
        if (s <= t) {
            ++n0;
            s0 += u;
            q0 += u * u;
        } else {
            ++n1;
            s1 += u;
            q1 += u * u;
        }
    }
    if (n0 == 0 || n1 == 0) return -1;
    return (q0 - static_cast<long double>(s0) * s0 / n0) + (q1 - static_cast<long double>(s1) * s1 / n1);
}

int brute_otsu(const std::vector<int>& samples) {
    int best_t = -1;
    long double best = 0;
    for (int t = 0; t < 255; ++t) {
        const long double w = within_variance(samples, t);
        if (w < 0) continue;
        if (best_t < 0 || w < best) {
            best = w;
            best_t = t;
        }
    }
    return best_t;
}

ImageU8 bimodal_image(int w, int h, int c, int low, int high, unsigned seed) {
    ImageU8 img(w, h, c);
    std::mt19937 rng(seed);
    std::normal_distribution<double> n1(low, 12), n2(high, 15);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool fg = ((x / 9) + (y / 5)) % 3 == 0;
            const int v = std::clamp(static_cast<int>(std::lround(fg ? n2(rng) : n1(rng))), 0, 255);
            for (int k = 0; k < c; ++k) img.at(x, y, k) = static_cast<std::uint8_t>(v);
            if (has_alpha(c)) img.at(x, y, c - 1) = static_cast<std::uint8_t>((x * 31 + y) & 255);
        }
    return img;
}

}  // namespace

TEST_CASE("histogram: counts match brute force on real photos") {
    check_counts(test::load_sample("camera.png"), "camera.png");
    check_counts(test::load_sample("chelsea.png"), "chelsea.png");
    ImageU8 chelsea = test::load_sample("chelsea.png");
    const Histogram h = cpu::histogram(chelsea.view());
    CHECK(h.channels == 3);
    CHECK(h.luma);
    CHECK(h.planes() == 4);
    CHECK(h.plane_name(3) == "luma");
    CHECK(cpu::histogram(chelsea.view(), false).planes() == 3);
}

TEST_CASE("histogram: constant, black, white, awkward sizes and every channel count") {
    for (int c = 1; c <= 4; ++c) {
        for (int value : {0, 255, 77}) {
            ImageU8 img = test::constant_image(37, 23, c, value);
            check_counts(img, "constant " + std::to_string(value) + " c=" + std::to_string(c));
            const Histogram h = cpu::histogram(img.view());
            for (int p = 0; p < c; ++p) CHECK(h.counts[p][value] == img.pixel_count());
            if (c >= 3) CHECK(h.counts[c][value] == img.pixel_count());  // luma of gray colour is the gray
        }
        for (auto [w, hh] : test::awkward_sizes())
            check_counts(test::random_image(w, hh, c, static_cast<unsigned>(w * 131 + hh + c)),
                         std::to_string(w) + "x" + std::to_string(hh) + " c=" + std::to_string(c));
        check_counts(test::photo_like_image(301, 199, c, 5), "photo-like c=" + std::to_string(c));
        if (has_alpha(c)) check_counts(test::alpha_image(64, 48, c, 9), "alpha c=" + std::to_string(c));
    }
}

TEST_CASE("histogram: sub-views with a stride larger than the row") {
    ImageU8 big = test::random_image(50, 40, 3, 4);
    ConstViewU8 tile = big.view().sub(7, 5, 19, 23);
    const Histogram h = cpu::histogram(tile);
    const Histogram ref = brute_histogram(ImageU8::copy_of(tile).view());
    CHECK(first_difference(ref, h).empty());
    CHECK(h.pixels == 19u * 23u);
}

TEST_CASE("histogram: bins") {
    ImageU8 img = test::load_sample("camera.png");
    const Histogram h = cpu::histogram(img.view());
    for (int bins = 1; bins <= 256; bins *= 2) {
        CAPTURE(bins);
        CHECK_NOTHROW(check_histogram_bins(bins));
        const auto b = rebin(h.counts[0], bins);
        REQUIRE(b.size() == static_cast<std::size_t>(bins));
        std::uint64_t sum = 0;
        for (auto n : b) sum += n;
        CHECK(sum == img.pixel_count());
        // bin i holds exactly the values bin_lower..bin_upper
        for (int i = 0; i < bins; ++i) {
            std::uint64_t expect = 0;
            for (int v = bin_lower(i, bins); v <= bin_upper(i, bins); ++v) expect += h.counts[0][v];
            CHECK(b[static_cast<std::size_t>(i)] == expect);
        }
        CHECK(bin_lower(0, bins) == 0);
        CHECK(bin_upper(bins - 1, bins) == 255);
    }
    CHECK(rebin(h.counts[0], 256) == std::vector<std::uint64_t>(h.counts[0].begin(), h.counts[0].end()));
    for (int bad : {0, -1, 3, 100, 255, 257, 512}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(check_histogram_bins(bad), Error);
        CHECK_THROWS_AS(rebin(h.counts[0], bad), Error);
    }
    try {
        check_histogram_bins(3);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        CHECK(std::string(e.what()).find("--bins") != std::string::npos);
        CHECK(std::string(e.what()).find("256") != std::string::npos);
    }
}

TEST_CASE("histogram: statistics") {
    HistogramCounts c{};
    c[0] = 1;
    c[10] = 2;
    c[20] = 1;
    PlaneStats s = plane_stats(c);
    CHECK(s.count == 4);
    CHECK(s.min == 0);
    CHECK(s.max == 20);
    CHECK(s.mean == doctest::Approx(10.0));
    CHECK(s.stddev == doctest::Approx(std::sqrt(50.0)));
    CHECK(s.median == 10);
    CHECK(s.mode == 10);

    // lower median for an even count; mode ties resolve to the smaller value
    HistogramCounts d{};
    d[3] = 2;
    d[200] = 2;
    s = plane_stats(d);
    CHECK(s.median == 3);
    CHECK(s.mode == 3);
    CHECK(s.mean == doctest::Approx(101.5));
    CHECK(s.stddev == doctest::Approx(98.5));

    // single value
    HistogramCounts e{};
    e[255] = 1000;
    s = plane_stats(e);
    CHECK(s.min == 255);
    CHECK(s.max == 255);
    CHECK(s.median == 255);
    CHECK(s.stddev == 0.0);

    // empty plane: NaN mean, zeros elsewhere
    s = plane_stats(HistogramCounts{});
    CHECK(s.count == 0);
    CHECK(std::isnan(s.mean));

    // against direct computation on a photo
    ImageU8 img = test::load_sample("camera.png");
    s = plane_stats(cpu::histogram(img.view()).counts[0]);
    double sum = 0, sq = 0;
    int mn = 255, mx = 0;
    std::vector<int> all;
    for (std::size_t i = 0; i < img.size_bytes(); ++i) {
        const int v = img.data()[i];
        sum += v;
        sq += static_cast<double>(v) * v;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        all.push_back(v);
    }
    const double n = static_cast<double>(img.size_bytes());
    CHECK(s.mean == doctest::Approx(sum / n));
    CHECK(s.stddev == doctest::Approx(std::sqrt(sq / n - (sum / n) * (sum / n))).epsilon(1e-9));
    CHECK(s.min == mn);
    CHECK(s.max == mx);
    std::sort(all.begin(), all.end());
    CHECK(s.median == all[(all.size() - 1) / 2]);
}

TEST_CASE("histogram: plane names and --channel selection") {
    ImageU8 rgba = test::random_image(4, 4, 4, 1);
    const Histogram h = cpu::histogram(rgba.view());
    CHECK(h.plane_name(0) == "red");
    CHECK(h.plane_name(1) == "green");
    CHECK(h.plane_name(2) == "blue");
    CHECK(h.plane_name(3) == "alpha");
    CHECK(h.plane_name(4) == "luma");
    CHECK(select_histogram_planes(h, "all") == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(select_histogram_planes(h, "") == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(select_histogram_planes(h, "luma") == std::vector<int>{4});
    CHECK(select_histogram_planes(h, "b, r,b") == std::vector<int>{2, 0});
    CHECK(select_histogram_planes(h, "Green,A,y") == std::vector<int>{1, 3, 4});
    CHECK(select_histogram_planes(h, "1") == std::vector<int>{1});
    CHECK_THROWS_AS(select_histogram_planes(h, "gray"), Error);
    CHECK_THROWS_AS(select_histogram_planes(h, "5"), Error);
    CHECK_THROWS_AS(select_histogram_planes(h, "red,"), Error);
    try {
        select_histogram_planes(h, "purple");
    } catch (const Error& e) {
        const std::string m = e.what();
        CHECK(m.find("purple") != std::string::npos);
        CHECK(m.find("RGBA") != std::string::npos);
        CHECK(m.find("luma") != std::string::npos);
    }
    ImageU8 gray = test::random_image(4, 4, 1, 1);
    const Histogram g = cpu::histogram(gray.view());
    CHECK(g.planes() == 1);
    CHECK(g.plane_name(0) == "gray");
    CHECK(select_histogram_planes(g, "gray") == std::vector<int>{0});
    CHECK_THROWS_AS(select_histogram_planes(g, "luma"), Error);
    CHECK_THROWS_AS(g.plane(1), Error);
    ImageU8 ga = test::random_image(4, 4, 2, 1);
    CHECK(cpu::histogram(ga.view()).plane_name(1) == "alpha");
}

TEST_CASE("otsu: bimodal synthetic images against a direct computation") {
    for (int c = 1; c <= 4; ++c) {
        CAPTURE(c);
        ImageU8 img = bimodal_image(90, 70, c, 60, 180, static_cast<unsigned>(c));
        const int t = otsu_threshold(cpu::histogram(img.view()));
        CHECK(t == brute_otsu(intensity_samples(img.view())));
        CHECK(t > 80);
        CHECK(t < 160);
    }
}

TEST_CASE("otsu: camera.png against a direct computation") {
    ImageU8 img = test::load_sample("camera.png");
    const int t = otsu_threshold(cpu::histogram(img.view()));
    const std::vector<int> samples = intensity_samples(img.view());
    const int ref = brute_otsu(samples);
    if (t != ref) {
        // Only a near tie that floating rounding orders differently may
        // separate them: both levels must then be optimal to 12 digits.
        const long double a = within_variance(samples, t), b = within_variance(samples, ref);
        INFO("otsu ", t, " vs direct ", ref, ", within-class variances ", static_cast<double>(a), " and ",
             static_cast<double>(b));
        CHECK(std::abs(a - b) <= 1e-12L * b);
    }
    CHECK(t > 40);
    CHECK(t < 200);
}

TEST_CASE("otsu: degenerate histograms") {
    HistogramCounts c{};
    CHECK(otsu_threshold(c) == 0);  // empty
    c[77] = 500;
    CHECK(otsu_threshold(c) == 77);  // one value: T = v, output all 0
    HistogramCounts two{};
    two[0] = 10;
    two[255] = 10;
    CHECK(otsu_threshold(two) == 0);  // every T in 0..254 splits the same: the lowest
    HistogramCounts gap{};
    gap[50] = 100;
    gap[200] = 300;
    CHECK(otsu_threshold(gap) == 50);
    ImageU8 gray = test::constant_image(5, 5, 1, 77);
    CHECK_THROWS_AS(otsu_threshold(cpu::histogram(test::constant_image(3, 3, 3, 1).view(), false)), Error);
    CHECK(otsu_threshold(cpu::histogram(gray.view())) == 77);
}

TEST_CASE("threshold: binary output, channels and alpha") {
    for (int c = 1; c <= 4; ++c) {
        CAPTURE(c);
        ImageU8 img = has_alpha(c) ? test::alpha_image(41, 29, c, 3) : test::random_image(41, 29, c, 3);
        for (int t : {0, 1, 100, 128, 254, 255}) {
            CAPTURE(t);
            ThresholdResult r = cpu::threshold(img.view(), threshold_at(t));
            CHECK(r.threshold == t);
            REQUIRE(r.image.channels() == (has_alpha(c) ? 2 : 1));
            CHECK(r.image.width() == 41);
            CHECK(r.image.height() == 29);
            bool ok = true;
            for (int y = 0; y < 29; ++y)
                for (int x = 0; x < 41; ++x) {
                    const std::uint8_t* p = img.view().pixel(x, y);
                    const int v = c >= 3 ? luma601(p[0], p[1], p[2]) : p[0];
                    ok = ok && r.image.at(x, y, 0) == (v > t ? 255 : 0);
                    if (has_alpha(c)) ok = ok && r.image.at(x, y, 1) == p[c - 1];
                }
            CHECK(ok);
        }
        ThresholdResult o = cpu::threshold(img.view(), threshold_otsu());
        CHECK(o.threshold == otsu_threshold(cpu::histogram(img.view())));
    }
    ImageU8 cam = test::load_sample("camera.png");
    ThresholdResult o = cpu::threshold(cam.view(), threshold_otsu());
    const Histogram out = cpu::histogram(o.image.view());
    CHECK(out.counts[0][0] + out.counts[0][255] == cam.pixel_count());
    CHECK(out.counts[0][0] > 0);
    CHECK(out.counts[0][255] > 0);
    // constant: everything at or below T
    ThresholdResult k = cpu::threshold(test::constant_image(9, 9, 3, 200).view(), threshold_otsu());
    CHECK(k.threshold == 200);
    CHECK(cpu::histogram(k.image.view()).counts[0][0] == 81);
    CHECK_THROWS_AS(threshold_at(-1), Error);
    CHECK_THROWS_AS(threshold_at(256), Error);
    ImageU8 wrong(41, 29, 3);
    CHECK_THROWS_AS(cpu::threshold(cam.view(), wrong.view(), threshold_at(3)), Error);
}

TEST_CASE("equalize: lookup table properties") {
    ImageU8 cam = test::load_sample("camera.png");
    const Histogram h = cpu::histogram(cam.view());
    const EqualizeLut lut = equalize_lut(h.counts[0]);
    const PlaneStats s = plane_stats(h.counts[0]);
    for (int v = 1; v < 256; ++v) CHECK(lut[v] >= lut[v - 1]);
    CHECK(lut[s.min] == 0);
    CHECK(lut[s.max] == 255);
    // the formula, in long double
    std::uint64_t cdf = 0, n = s.count, cmin = h.counts[0][s.min];
    for (int v = s.min; v <= s.max; ++v) {
        cdf += h.counts[0][v];
        const long double exact = static_cast<long double>(cdf - cmin) * 255 / (n - cmin);
        CHECK(std::abs(static_cast<long double>(lut[v]) - exact) <= 0.5L);
    }
    // constant plane: identity
    HistogramCounts k{};
    k[90] = 12;
    const EqualizeLut id = equalize_lut(k);
    for (int v = 0; v < 256; ++v) CHECK(id[v] == v);
    // two values: 0 and 255
    HistogramCounts two{};
    two[10] = 5;
    two[20] = 7;
    const EqualizeLut t = equalize_lut(two);
    CHECK(t[10] == 0);
    CHECK(t[20] == 255);
    CHECK(t[5] == 0);
    CHECK(equalize_lut_value(3, 0, 5, 12) == 0);
}

TEST_CASE("equalize: constant images are unchanged, alpha untouched, modes") {
    for (int c = 1; c <= 4; ++c)
        for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
            CAPTURE(c);
            ImageU8 k = test::constant_image(13, 7, c, 140);
            IMGPAR_CHECK_IMAGES_EQUAL(k, cpu::equalize(k.view(), m));
        }
    for (int c : {2, 4}) {
        ImageU8 a = test::alpha_image(33, 21, c, 7);
        for (EqualizeMode m : {EqualizeMode::Luma, EqualizeMode::Channels}) {
            ImageU8 out = cpu::equalize(a.view(), m);
            bool same_alpha = true;
            for (int y = 0; y < 21; ++y)
                for (int x = 0; x < 33; ++x) same_alpha = same_alpha && out.at(x, y, c - 1) == a.at(x, y, c - 1);
            CHECK(same_alpha);
        }
    }
    // gray: the table applied to every sample, in either mode
    ImageU8 cam = test::load_sample("camera.png");
    const EqualizeLut lut = equalize_lut(cpu::histogram(cam.view()).counts[0]);
    ImageU8 eq = cpu::equalize(cam.view());
    bool ok = true;
    for (std::size_t i = 0; i < cam.size_bytes(); ++i) ok = ok && eq.data()[i] == lut[cam.data()[i]];
    CHECK(ok);
    IMGPAR_CHECK_IMAGES_EQUAL(eq, cpu::equalize(cam.view(), EqualizeMode::Channels));

    // RGB with r = g = b: luma mode equals gray equalization on each channel
    ImageU8 rgb(cam.width(), cam.height(), 3);
    for (int y = 0; y < cam.height(); ++y)
        for (int x = 0; x < cam.width(); ++x)
            for (int k = 0; k < 3; ++k) rgb.at(x, y, k) = cam.at(x, y, 0);
    ImageU8 rgb_eq = cpu::equalize(rgb.view(), EqualizeMode::Luma);
    ok = true;
    for (int y = 0; y < cam.height(); ++y)
        for (int x = 0; x < cam.width(); ++x)
            for (int k = 0; k < 3; ++k) ok = ok && rgb_eq.at(x, y, k) == eq.at(x, y, 0);
    CHECK(ok);

    // channels mode: each channel equalized on its own
    ImageU8 chelsea = test::load_sample("chelsea.png");
    ImageU8 ch_eq = cpu::equalize(chelsea.view(), EqualizeMode::Channels);
    const Histogram hc = cpu::histogram(chelsea.view());
    ok = true;
    for (int k = 0; k < 3; ++k) {
        const EqualizeLut l = equalize_lut(hc.counts[k]);
        for (int y = 0; y < chelsea.height(); ++y)
            for (int x = 0; x < chelsea.width(); ++x) ok = ok && ch_eq.at(x, y, k) == l[chelsea.at(x, y, k)];
    }
    CHECK(ok);

    // luma mode: c' = clamp(c + lut[Y] - Y)
    ImageU8 l_eq = cpu::equalize(chelsea.view(), EqualizeMode::Luma);
    const EqualizeLut ll = equalize_lut(hc.counts[3]);
    ok = true;
    for (int y = 0; y < chelsea.height(); ++y)
        for (int x = 0; x < chelsea.width(); ++x) {
            const int r = chelsea.at(x, y, 0), g = chelsea.at(x, y, 1), b = chelsea.at(x, y, 2);
            const int Y = luma601(r, g, b), d = ll[Y] - Y;
            ok = ok && l_eq.at(x, y, 0) == clamp_u8(r + d) && l_eq.at(x, y, 1) == clamp_u8(g + d) &&
                 l_eq.at(x, y, 2) == clamp_u8(b + d);
        }
    CHECK(ok);
    // the equalized luma spreads over the whole range
    const PlaneStats after = plane_stats(cpu::histogram(l_eq.view()).counts[3]);
    CHECK(after.min <= 5);
    CHECK(after.max >= 250);
}

TEST_CASE("equalize: in place equals out of place; shape errors; mode names") {
    for (int c = 1; c <= 4; ++c) {
        ImageU8 img = test::photo_like_image(67, 45, c, 2);
        ImageU8 out = cpu::equalize(img.view());
        ImageU8 in_place = ImageU8::copy_of(img.view());
        cpu::equalize(in_place.view(), in_place.view());
        IMGPAR_CHECK_IMAGES_EQUAL(out, in_place);
    }
    ImageU8 a(5, 5, 3), b(5, 4, 3);
    CHECK_THROWS_AS(cpu::equalize(a.view(), b.view()), Error);
    CHECK(parse_equalize_mode("luma") == EqualizeMode::Luma);
    CHECK(parse_equalize_mode("channels") == EqualizeMode::Channels);
    CHECK(std::string(equalize_mode_name(EqualizeMode::Channels)) == "channels");
    CHECK_THROWS_AS(parse_equalize_mode("rgb"), Error);
}
