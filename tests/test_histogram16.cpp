// The 16-bit histogram (src/ops/histogram.hpp, 16-BIT CONTRACT) against
// brute-force definitions written here: np.bincount(plane, minlength=65536)
// for the counts, np.histogram(plane, N, range=(0, 65536)) for --bins, and
// numpy's mean / std / median semantics for the statistics, plus the
// reports' 16-bit bin ranges.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram.hpp"
#include "src/report/histogram_report.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

// Counts of every plane, written out: the channels, then luma of colour.
std::vector<std::vector<std::uint64_t>> brute_counts16(ConstViewU16 v) {
    const int planes = v.channels + (v.channels >= 3 ? 1 : 0);
    std::vector<std::vector<std::uint64_t>> counts(static_cast<std::size_t>(planes), std::vector<std::uint64_t>(65536, 0));
    for (int y = 0; y < v.height; ++y)
        for (int x = 0; x < v.width; ++x) {
            const std::uint16_t* p = v.pixel(x, y);
            for (int c = 0; c < v.channels; ++c) ++counts[static_cast<std::size_t>(c)][p[c]];
            if (v.channels >= 3) {
                const long l = (77L * p[0] + 150L * p[1] + 29L * p[2] + 128) / 256;  // Rec. 601, written out
                ++counts[static_cast<std::size_t>(v.channels)][static_cast<std::size_t>(l)];
            }
        }
    return counts;
}

std::string first_difference16(const std::vector<std::vector<std::uint64_t>>& want, const Histogram16& got) {
    if (static_cast<int>(want.size()) != got.planes()) return "planes differ";
    for (int p = 0; p < got.planes(); ++p)
        for (int v = 0; v < 65536; ++v)
            if (want[static_cast<std::size_t>(p)][static_cast<std::size_t>(v)] != got.plane(p)[v])
                return "plane " + std::to_string(p) + " value " + std::to_string(v) + ": " +
                       std::to_string(want[static_cast<std::size_t>(p)][static_cast<std::size_t>(v)]) + " vs " +
                       std::to_string(got.plane(p)[v]);
    return "";
}

void check_counts16(const ImageU16& img, const std::string& label) {
    CAPTURE(label);
    const Histogram16 h = cpu::histogram(img.view());
    CHECK(h.channels == img.channels());
    CHECK(h.luma == (img.channels() >= 3));
    CHECK(h.pixels == img.pixel_count());
    const std::string diff = first_difference16(brute_counts16(img.view()), h);
    CHECK_MESSAGE(diff.empty(), diff);
}

}  // namespace

TEST_CASE("histogram u16: exact counts of every plane at odd sizes and every layout") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            const std::string label = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            check_counts16(test::random_runs_image16(w, h, c, static_cast<unsigned>(w * 31 + h + c)), label + " random");
        }
    for (int c = 1; c <= 4; ++c) {
        check_counts16(test::few_values16(301, 77, c, 5), "few values c=" + std::to_string(c));
        for (std::uint16_t v : {std::uint16_t{0}, std::uint16_t{1}, std::uint16_t{4097}, std::uint16_t{65535}})
            check_counts16(test::flat_image16(129, 65, c, v), "constant " + std::to_string(v));
    }
}

TEST_CASE("histogram u16: luma of extreme colours stays in 0..65535") {
    ImageU16 img(2, 1, 3);
    for (int c = 0; c < 3; ++c) img.at(1, 0, c) = 65535;
    const Histogram16 h = cpu::histogram(img.view());
    CHECK(h.plane(3)[0] == 1);
    CHECK(h.plane(3)[65535] == 1);  // (256 * 65535 + 128) >> 8
    CHECK(h.intensity() == h.plane(3));
    const Histogram16 no_luma = cpu::histogram(img.view(), false);
    CHECK(no_luma.planes() == 3);
    CHECK_THROWS_AS(no_luma.intensity(), Error);
}

TEST_CASE("histogram u16: --bins are powers of two to 65536, bin = v >> (16 - log2 N)") {
    for (int bins = 1; bins <= 65536; bins *= 2) CHECK_NOTHROW(check_histogram_bins16(bins));
    for (int bad : {0, -1, 3, 100, 65535, 131072}) CHECK_THROWS_AS(check_histogram_bins16(bad), Error);

    const ImageU16 img = test::random_runs_image16(97, 211, 1, 9);
    const Histogram16 h = cpu::histogram(img.view());
    for (int log2 = 0; log2 <= 16; ++log2) {
        const int bins = 1 << log2;
        CAPTURE(bins);
        std::vector<std::uint64_t> want(static_cast<std::size_t>(bins), 0);
        for (std::size_t i = 0; i < img.sample_count(); ++i) ++want[img.data()[i] >> (16 - log2)];
        CHECK(rebin(h.plane(0), kHistogramValues16, bins) == want);
    }
}

TEST_CASE("histogram u16: plane statistics as numpy computes them") {
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {17, 31}, {255, 257}}) {
            const ImageU16 img = c % 2 ? test::random_runs_image16(w, h, c, 3) : test::few_values16(w, h, c, 4);
            const Histogram16 hist = cpu::histogram(img.view());
            for (int p = 0; p < c; ++p) {
                CAPTURE(c);
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(p);
                std::vector<int> values;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) values.push_back(img.at(x, y, p));
                std::sort(values.begin(), values.end());
                long double sum = 0;
                for (int v : values) sum += v;
                const long double mean = sum / values.size();
                long double sq = 0;
                for (int v : values) sq += (v - mean) * (v - mean);
                std::map<int, int> freq;
                for (int v : values) ++freq[v];
                int mode = values[0], best = 0;
                for (auto [v, n] : freq)
                    if (n > best) best = n, mode = v;
                const PlaneStats s = plane_stats(hist.plane(p), kHistogramValues16);
                CHECK(s.count == values.size());
                CHECK(s.min == values.front());
                CHECK(s.max == values.back());
                CHECK(s.median == values[(values.size() - 1) / 2]);  // the lower median
                CHECK(s.mode == mode);
                CHECK(s.mean == doctest::Approx(static_cast<double>(mean)).epsilon(1e-15));
                CHECK(s.stddev == doctest::Approx(static_cast<double>(std::sqrt(sq / values.size()))).epsilon(1e-12));
            }
        }
}

TEST_CASE("histogram u16 reports: bin ranges over 0..65535 in text, CSV and JSON") {
    ImageU16 img(3, 1, 1);
    img.at(0, 0, 0) = 0;
    img.at(1, 0, 0) = 4096;
    img.at(2, 0, 0) = 65535;
    const Histogram16 h = cpu::histogram(img.view());
    HistogramSource src{"deep.png", 3, 1, "cpu", "k"};
    HistogramReportOptions opt;
    opt.bins = 16;
    const std::string csv = histogram_csv_rows(src, h, opt);
    CHECK(csv.find("deep.png,gray,0,0,4095,1\n") != std::string::npos);
    CHECK(csv.find("deep.png,gray,1,4096,8191,1\n") != std::string::npos);
    CHECK(csv.find("deep.png,gray,15,61440,65535,1\n") != std::string::npos);

    opt.bins = 65536;
    const std::string exact = histogram_csv_rows(src, h, opt);
    CHECK(exact.find("deep.png,gray,4096,4096,4096,1\n") != std::string::npos);
    CHECK(exact.find("deep.png,gray,65535,65535,65535,1\n") != std::string::npos);

    opt.bins = 4;
    const std::string json = histogram_json(src, h, opt);
    CHECK(test::is_valid_json(json));
    auto j = test::json_members(json);
    CHECK(j["bins"] == "4");
    CHECK(j["bin_width"] == "16384");
    CHECK(j["sample_type"] == "\"u16\"");
    const std::vector<std::string> planes = test::json_array_objects(j["planes"]);
    REQUIRE(planes.size() == 1);
    auto plane = test::json_members(planes[0]);
    CHECK(plane["min"] == "0");
    CHECK(plane["max"] == "65535");
    CHECK(plane["median"] == "4096");
    CHECK(plane["counts"] == "[2,0,0,1]");

    opt.list_bins = true;
    const std::string text = histogram_text(src, h, opt);
    CHECK(text.find("3x1 gray u16") != std::string::npos);
    CHECK(text.find("65535") != std::string::npos);
    CHECK(text.find("49152-65535") != std::string::npos);

    opt.bins = 3;
    CHECK_THROWS_AS(histogram_csv_rows(src, h, opt), Error);
}

TEST_CASE("histogram 8-bit reports keep their members") {
    const ImageU8 img = test::random_image(5, 3, 1, 2);
    HistogramSource src{"a.png", 5, 3, "cpu", "k"};
    HistogramReportOptions opt;
    const std::string json = histogram_json(src, cpu::histogram(img.view()), opt);
    CHECK(json.find("sample_type") == std::string::npos);
    CHECK(json.find("\"bin_width\":1") != std::string::npos);
}
