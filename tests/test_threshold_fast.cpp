// The fast CPU paths of thresholding, the adaptive threshold and
// equalization (src/ops/simd/intensity_rows.*, src/ops/simd/window_rows.*
// and the sliding window of src/ops/adaptive_threshold.cpp) against plain
// per-pixel references of their contracts: every width 1..70 (every residue
// of any vector width), single rows and columns, every channel count,
// windows up to the image's size, every method, and constant, black, white,
// random and photo-like images; each under every instruction set the
// machine runs (for_each_simd_target).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram_math.hpp"
#include "src/ops/integral.hpp"
#include "src/ops/simd/intensity_rows.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/ops/simd/window_rows.hpp"
#include "src/ops/threshold.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// The adaptive threshold as it was computed before the sliding window:
// summed-area tables of v and v^2, each pixel's window sums through
// axis_ranges and window_sum, then adaptive_decision (the contract's
// double-precision reference, not the single-precision shortcut).
ImageU8 table_adaptive(const ImageU8& src, const AdaptiveSpec& spec) {
    const int width = src.width(), height = src.height(), C = src.channels();
    ImageU8 intensity(width, height, 1);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) intensity.at(x, y, 0) = static_cast<std::uint8_t>(intensity_of(&src.row(y)[x * C], C));
    std::vector<unsigned long long> tables(2 * static_cast<std::size_t>(width + 1) * (height + 1));
    const SumTableView t = sum_table_view(tables.data(), SumType::U64, width, height, 1, true);
    cpu::integral(intensity.view(), t);
    const PlaneTable sums{tables.data(), t.pitch};
    const PlaneTable squares{tables.data() + tables.size() / 2, t.pitch};
    const AdaptiveParams p = adaptive_params(spec);
    const bool replicate = spec.method == AdaptiveMethod::Mean;
    const int radius = spec.window / 2;
    ImageU8 out(width, height, threshold_output_channels(C));
    for (int y = 0; y < height; ++y) {
        const AxisRanges ys = axis_ranges(y, radius, height, replicate);
        for (int x = 0; x < width; ++x) {
            const AxisRanges xs = axis_ranges(x, radius, width, replicate);
            out.at(x, y, 0) = static_cast<std::uint8_t>(
                adaptive_decision(intensity.at(x, y, 0), window_sum(sums, xs, ys), window_sum(squares, xs, ys), p));
            if (out.channels() == 2) out.at(x, y, 1) = src.at(x, y, C - 1);
        }
    }
    return out;
}

ImageU8 fast_adaptive(const ImageU8& src, const AdaptiveSpec& spec) {
    ImageU8 out(src.width(), src.height(), threshold_output_channels(src.channels()));
    cpu::adaptive_threshold(src.view(), out.view(), spec);
    return out;
}

// The images each size is tried with: photo-like, random, black, white and
// a mid grey.
std::vector<ImageU8> images_of(int width, int height, int channels, unsigned seed) {
    std::vector<ImageU8> images;
    images.push_back(test::photo_like_image(width, height, channels, seed));
    images.push_back(test::random_image(width, height, channels, seed + 1));
    images.push_back(test::constant_image(width, height, channels, 0));
    images.push_back(test::constant_image(width, height, channels, 255));
    images.push_back(test::constant_image(width, height, channels, 131));
    return images;
}

ImageU8 threshold_reference(const ImageU8& src, int t) {
    const int C = src.channels();
    ImageU8 out(src.width(), src.height(), threshold_output_channels(C));
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x) {
            const std::uint8_t* px = &src.row(y)[x * C];
            out.at(x, y, 0) = static_cast<std::uint8_t>(threshold_value(intensity_of(px, C), t));
            if (out.channels() == 2) out.at(x, y, 1) = px[C - 1];
        }
    return out;
}

HistogramCounts intensity_counts_reference(const ImageU8& src) {
    HistogramCounts h{};
    for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x) ++h[static_cast<std::size_t>(intensity_of(&src.row(y)[x * src.channels()], src.channels()))];
    return h;
}

// Equalization sample by sample: the tables from brute-force counts, then
// equalize_luma_pixel or each channel's own table.
ImageU8 equalize_reference(const ImageU8& src, EqualizeMode mode) {
    const int C = src.channels(), colour = has_alpha(C) ? C - 1 : C;
    const bool luma = mode == EqualizeMode::Luma && C >= 3;
    ImageU8 out = ImageU8::copy_of(src.view());
    if (luma) {
        const EqualizeLut lut = equalize_lut(intensity_counts_reference(src));
        for (int y = 0; y < src.height(); ++y)
            for (int x = 0; x < src.width(); ++x) {
                int r = src.at(x, y, 0), g = src.at(x, y, 1), b = src.at(x, y, 2);
                equalize_luma_pixel(lut.data(), r, g, b);
                out.at(x, y, 0) = static_cast<std::uint8_t>(r);
                out.at(x, y, 1) = static_cast<std::uint8_t>(g);
                out.at(x, y, 2) = static_cast<std::uint8_t>(b);
            }
        return out;
    }
    for (int c = 0; c < colour; ++c) {
        HistogramCounts h{};
        for (int y = 0; y < src.height(); ++y)
            for (int x = 0; x < src.width(); ++x) ++h[src.at(x, y, c)];
        const EqualizeLut lut = equalize_lut(h);
        for (int y = 0; y < src.height(); ++y)
            for (int x = 0; x < src.width(); ++x) out.at(x, y, c) = lut[src.at(x, y, c)];
    }
    return out;
}

std::vector<std::pair<int, int>> widths_and_edges() {
    std::vector<std::pair<int, int>> sizes;
    for (int w = 1; w <= 70; ++w) sizes.push_back({w, 3 + 2 * (w % 7)});
    for (int n : {1, 2, 5, 33, 97}) {
        sizes.push_back({1, n});
        sizes.push_back({n, 1});
    }
    return sizes;
}

}  // namespace

TEST_CASE("adaptive fast: the mean decision's integer comparison equals adaptive_decision at every boundary") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        // For each window and t = v + offset, the sums on both sides of the
        // decision's edge n (2t - 1) / 2, and the extremes 0 and 255 n.
        std::vector<std::uint32_t> sums;
        std::vector<std::uint8_t> values, got, expected;
        int checked = 0;
        for (int window : {1, 3, 5, 15, 31, 257, 1001, 2045, 2047}) {
            AdaptiveSpec spec;
            spec.window = window;
            for (int offset : {-255, -100, -1, 0, 1, 5, 100, 255}) {
                spec.offset = offset;
                const AdaptiveParams p = adaptive_params(spec);
                const long long n = p.n;
                sums.clear();
                values.clear();
                for (int v = 0; v <= 255; ++v) {
                    const long long t = v + offset, edge = n * (2 * t - 1) / 2;
                    for (long long s : {edge - 2, edge - 1, edge, edge + 1, edge + 2, 0ll, 255 * n, 255 * n - 1, n * v}) {
                        if (s < 0 || s > 255 * n) continue;
                        sums.push_back(static_cast<std::uint32_t>(s));
                        values.push_back(static_cast<std::uint8_t>(v));
                    }
                }
                got.assign(sums.size(), 7);
                simd::mean_decision_row(sums.data(), values.data(), sums.size(), static_cast<std::int32_t>(n), p.offset, got.data());
                for (std::size_t i = 0; i < sums.size(); ++i) {
                    const int want = adaptive_decision(values[i], sums[i], 0, p);
                    CAPTURE(window);
                    CAPTURE(offset);
                    CAPTURE(sums[i]);
                    CAPTURE(int(values[i]));
                    REQUIRE(simd::mean_decision(sums[i], values[i], static_cast<std::int32_t>(n), p.offset) == want);
                    REQUIRE(int(got[i]) == want);
                    ++checked;
                }
            }
        }
        CHECK(checked > 100000);
    });
}

TEST_CASE("adaptive fast: the sliding window equals the summed-area tables at every width, edge and channel count") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        int runs = 0;
        for (const auto& [w, h] : widths_and_edges())
            for (int c = 1; c <= 4; ++c)
                for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack}) {
                    const std::vector<ImageU8> images = images_of(w, h, c, static_cast<unsigned>(runs));
                    for (int window : {1, 3, 5, 7, 9, 15, 33, 69, 97}) {
                        if (window > w || window > h) continue;
                        for (std::size_t i = 0; i < images.size(); ++i) {
                            CAPTURE(w);
                            CAPTURE(h);
                            CAPTURE(c);
                            CAPTURE(adaptive_method_name(m));
                            CAPTURE(window);
                            CAPTURE(i);
                            AdaptiveSpec spec;
                            spec.method = m;
                            spec.window = window;
                            spec.offset = runs % 3 == 0 ? 7.5 : runs % 3 == 1 ? -2.5 : 0;
                            spec.k = m == AdaptiveMethod::Niblack ? -0.3 : 0.25;
                            IMGPAR_CHECK_IMAGES_EQUAL(table_adaptive(images[i], spec), fast_adaptive(images[i], spec));
                            ++runs;
                        }
                    }
                }
        CHECK(runs > 1000);
    });
}

TEST_CASE("adaptive fast: windows as large as the image, and bands that start anywhere") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        // Tall images split into bands by the threads: every band's first rows
        // and the ring of rows wrap at many offsets.
        int runs = 0;
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{9, 9}, {17, 200}, {63, 130}, {200, 37}, {40, 301}})
            for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
                for (int window : {3, 11, 35, 37, 61, 63, 199, 301}) {
                    if (window > w || window > h) continue;
                    const int c = 1 + runs % 4;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(adaptive_method_name(m));
                    CAPTURE(window);
                    AdaptiveSpec spec;
                    spec.method = m;
                    spec.window = window;
                    spec.offset = 3;
                    const ImageU8 img = test::random_image(w, h, c, static_cast<unsigned>(runs));
                    IMGPAR_CHECK_IMAGES_EQUAL(table_adaptive(img, spec), fast_adaptive(img, spec));
                    ++runs;
                }
        CHECK(runs > 30);
        // Windows above 257 take 64-bit window sums of squares.
        AdaptiveSpec spec;
        spec.method = AdaptiveMethod::Sauvola;
        spec.window = 301;
        const ImageU8 white = test::constant_image(310, 305, 1, 255);
        IMGPAR_CHECK_IMAGES_EQUAL(table_adaptive(white, spec), fast_adaptive(white, spec));
    });
}

TEST_CASE("threshold fast: fixed levels and Otsu's equal the per-pixel reference") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        int runs = 0;
        for (const auto& [w, h] : widths_and_edges())
            for (int c = 1; c <= 4; ++c)
                for (const ImageU8& img : images_of(w, h, c, static_cast<unsigned>(w * 8 + c))) {
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CHECK(cpu::intensity_histogram(img.view()) == intensity_counts_reference(img));
                    for (int t : {0, 1, 127, 128, 254, 255}) {
                        CAPTURE(t);
                        IMGPAR_CHECK_IMAGES_EQUAL(threshold_reference(img, t), cpu::threshold(img.view(), threshold_at(t)).image);
                    }
                    const ThresholdResult otsu = cpu::threshold(img.view(), threshold_otsu());
                    CHECK(otsu.threshold == otsu_threshold(intensity_counts_reference(img)));
                    IMGPAR_CHECK_IMAGES_EQUAL(threshold_reference(img, otsu.threshold), otsu.image);
                    ++runs;
                }
        CHECK(runs > 1000);
    });
}

TEST_CASE("threshold fast: luma601 and the luma-mode pixel of every colour, through the vector rows") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        // All 2^24 colours, one row, against the scalar definitions.
        const std::size_t n = std::size_t{1} << 24;
        std::vector<std::uint8_t> rgb(3 * n), luma(n), out(3 * n);
        for (std::size_t i = 0; i < n; ++i) {
            rgb[3 * i] = static_cast<std::uint8_t>(i >> 16);
            rgb[3 * i + 1] = static_cast<std::uint8_t>(i >> 8);
            rgb[3 * i + 2] = static_cast<std::uint8_t>(i);
        }
        simd::intensity_row(rgb.data(), 3, n, luma.data());
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += luma[i] != luma601(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
        CHECK(wrong == 0);
        // A table that moves every luma as far as it can go, both ways.
        std::uint8_t lut[256];
        for (int v = 0; v < 256; ++v) lut[v] = static_cast<std::uint8_t>(v % 2 ? 255 - v : (v * 7) % 256);
        simd::equalize_luma_row(rgb.data(), 3, n, lut, out.data());
        wrong = 0;
        for (std::size_t i = 0; i < n; ++i) {
            int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
            equalize_luma_pixel(lut, r, g, b);
            wrong += out[3 * i] != r || out[3 * i + 1] != g || out[3 * i + 2] != b;
        }
        CHECK(wrong == 0);
    });
}

TEST_CASE("equalize fast: both modes equal the per-pixel reference, out of place and in place") {
    simd::for_each_simd_target([&](const std::string& target) {
        CAPTURE(target);
        int runs = 0;
        for (const auto& [w, h] : widths_and_edges())
            for (int c = 1; c <= 4; ++c)
                for (const ImageU8& img : images_of(w, h, c, static_cast<unsigned>(w * 8 + c)))
                    for (EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::Channels}) {
                        CAPTURE(w);
                        CAPTURE(h);
                        CAPTURE(c);
                        CAPTURE(equalize_mode_name(mode));
                        const ImageU8 expected = equalize_reference(img, mode);
                        IMGPAR_CHECK_IMAGES_EQUAL(expected, cpu::equalize(img.view(), mode));
                        ImageU8 in_place = ImageU8::copy_of(img.view());
                        cpu::equalize(in_place.view(), in_place.view(), mode);
                        IMGPAR_CHECK_IMAGES_EQUAL(expected, in_place);
                        ++runs;
                    }
        CHECK(runs > 1000);
    });
}
