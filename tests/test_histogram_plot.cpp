// The histogram plot's parts that are read or counted, not drawn: --plot-size
// strictly, the count axis's round ticks, and the legend naming each plane in
// its colour (the drawing itself: tests/test_histogram_report.cpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram.hpp"
#include "src/report/histogram_plot.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Pixels of exactly `rgb` in rows [y0, y1).
int pixels_of(const ImageU8& img, int y0, int y1, const int (&rgb)[3]) {
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.at(x, y, 0) == rgb[0] && img.at(x, y, 1) == rgb[1] && img.at(x, y, 2) == rgb[2];
    return n;
}

}  // namespace

TEST_CASE("histogram plot: --plot-size is digits x digits within range, never wrapped round") {
    HistogramPlotOptions o;
    parse_plot_size("800X400", o);
    CHECK(o.width == 800);
    CHECK(o.height == 400);
    for (const char* bad : {"4294967808x300", "512x4294967396", "99999999999999999999x300", " 512x300", "512x300 ",
                            "+512x300", "-512x300", "0x200x300", "512x", "x300", "512*300", "5.5x300"}) {
        CAPTURE(bad);
        try {
            parse_plot_size(bad, o);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            CHECK(std::string(e.what()).find("--plot-size") != std::string::npos);
        }
    }
    CHECK(o.width == 800);
}


TEST_CASE("histogram plot: count ticks are round numbers up to the first at or above the peak") {
    CHECK(plot_count_ticks(2077, false) == std::vector<double>{0, 500, 1000, 1500, 2000, 2500});
    CHECK(plot_count_ticks(1000, false) == std::vector<double>{0, 200, 400, 600, 800, 1000});
    CHECK(plot_count_ticks(56789, false) == std::vector<double>{0, 10000, 20000, 30000, 40000, 50000, 60000});
    CHECK(plot_count_ticks(3, false) == std::vector<double>{0, 1, 2, 3});
    CHECK(plot_count_ticks(0, false) == std::vector<double>{0, 1});
    CHECK(plot_count_ticks(2077, true) == std::vector<double>{0, 1, 10, 100, 1000, 10000});
    CHECK(plot_count_ticks(1, true) == std::vector<double>{0, 1});
    for (std::uint64_t peak : {1ull, 7ull, 99ull, 519ull, 1039ull, 123456ull, 262144ull, 98765432ull}) {
        CAPTURE(peak);
        const std::vector<double> t = plot_count_ticks(peak, false);
        CHECK(t.back() >= static_cast<double>(peak));
        CHECK(t.size() >= 2);
        CHECK(t.size() <= 9);
        const double step = t[1];
        double mantissa = step;
        while (mantissa >= 10) mantissa /= 10;
        CHECK((mantissa == 1 || mantissa == 2 || mantissa == 5));
    }
}


TEST_CASE("histogram plot: a legend above the plot names each plotted plane beside its colour") {
    const Histogram h = cpu::histogram(test::load_sample("chelsea_alpha.png").view());
    const int red[3] = {220, 40, 40}, green[3] = {40, 160, 40}, blue[3] = {40, 80, 220}, alpha[3] = {150, 100, 200},
              luma[3] = {128, 128, 128}, axis[3] = {60, 60, 60};
    HistogramPlotOptions o;
    ImageU8 plot = plot_histogram(h, o);
    // The legend's row: above the plot area, where no curve reaches.
    const int legend_rows = 10;
    for (const auto* c : {&red, &green, &blue, &alpha, &luma}) CHECK(pixels_of(plot, 0, legend_rows, *c) == 25);
    CHECK(pixels_of(plot, 0, legend_rows, axis) > 60);  // the names
    // Only the planes plotted.
    o.planes = {4};
    plot = plot_histogram(h, o);
    CHECK(pixels_of(plot, 0, legend_rows, luma) == 25);
    CHECK(pixels_of(plot, 0, legend_rows, red) == 0);
    // The smallest plot still holds the five names.
    o.planes.clear();
    o.width = kPlotMinWidth;
    o.height = kPlotMinHeight;
    plot = plot_histogram(h, o);
    for (const auto* c : {&red, &green, &blue, &alpha, &luma}) CHECK(pixels_of(plot, 0, legend_rows, *c) == 25);
}

TEST_CASE("histogram plot: a 16-bit image's value axis is labelled in 16-bit values, the curves alike") {
    const Histogram h = cpu::histogram(test::load_sample("chelsea_alpha.png").view());
    HistogramPlotOptions o;
    const ImageU8 eight = plot_histogram(h, o);
    o.value_bits = 16;
    const ImageU8 sixteen = plot_histogram(h, o);
    const int axis[3] = {60, 60, 60};
    // The labels' rows (below the axis) differ, and hold more ink: five digits against three.
    const int labels = eight.height() - 12;
    CHECK(pixels_of(sixteen, labels, sixteen.height(), axis) > pixels_of(eight, labels, eight.height(), axis));
    // Above them, the same picture.
    for (int y = 0; y < labels - 2; ++y)
        for (int x = 0; x < eight.width(); ++x)
            for (int c = 0; c < 3; ++c) REQUIRE(eight.at(x, y, c) == sixteen.at(x, y, c));
}
