// 16-bit statistics (src/ops/stats.hpp, 16-BIT CONTRACT) against a plain
// pass over the samples written here: exact sums, squares, non-zero counts,
// extremes at the first pixel in row-major order, with and without a mask;
// the mean and population deviation as numpy's np.mean / np.std (float64)
// give them; and the reports' 16-bit columns.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/stats.hpp"
#include "src/report/stats_report.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

ImageStats brute_stats16(const ImageU16& img, const ImageU8* mask) {
    ImageStats st;
    st.width = img.width();
    st.height = img.height();
    st.channels = img.channels();
    st.masked = mask != nullptr;
    st.type = SampleType::U16;
    for (int c = 0; c < img.channels(); ++c) {
        ChannelSums& s = st.channel[static_cast<std::size_t>(c)];
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                if (mask && mask->at(x, y, 0) == 0) continue;
                const std::uint64_t v = img.at(x, y, c);
                const std::uint64_t index = static_cast<std::uint64_t>(y) * img.width() + x;
                if (s.count == 0 || static_cast<int>(v) < s.min) s.min = static_cast<int>(v), s.min_index = index;
                if (s.count == 0 || static_cast<int>(v) > s.max) s.max = static_cast<int>(v), s.max_index = index;
                ++s.count;
                s.sum += v;
                s.sum_squares += v * v;
                s.nonzero += v != 0;
            }
    }
    st.selected = st.channel[0].count;
    return st;
}

ImageU8 random_mask16(int w, int h, int percent, unsigned seed) {
    ImageU8 m(w, h, 1);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < m.size_bytes(); ++i)
        m.data()[i] = static_cast<int>(rng() % 100) < percent ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
    return m;
}

void check_stats16(const ImageU16& img, const std::string& label, const ImageU8* mask = nullptr) {
    CAPTURE(label);
    ConstViewU8 mv;
    if (mask) mv = mask->view();
    const ImageStats want = brute_stats16(img, mask);
    const ImageStats got = cpu::stats(img.view(), mask ? &mv : nullptr);
    CHECK_MESSAGE(got == want, stats_difference(want, got));
}

}  // namespace

TEST_CASE("stats u16: exact accumulators at odd sizes and every layout, masked or not") {
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c) {
            const std::string label = std::to_string(w) + "x" + std::to_string(h) + " c=" + std::to_string(c);
            const ImageU16 img = test::random_runs_image16(w, h, c, static_cast<unsigned>(w + 7 * h + c));
            check_stats16(img, label);
            const ImageU8 mask = random_mask16(w, h, 50, static_cast<unsigned>(w * h + c));
            check_stats16(img, label + " masked", &mask);
        }
    for (int c = 1; c <= 4; ++c) {
        check_stats16(test::few_values16(301, 77, c, 2), "few values (ties far apart)");
        for (std::uint16_t v : {std::uint16_t{0}, std::uint16_t{300}, std::uint16_t{65535}})
            check_stats16(test::flat_image16(65, 63, c, v), "constant " + std::to_string(v));
        const ImageU8 none(17, 5, 1);  // selects nothing
        const ConstViewU8 nv = none.view();
        const ImageStats s = cpu::stats(test::random_runs_image16(17, 5, c).view(), &nv);
        CHECK(s.selected == 0);
        CHECK(!s.channel[0].has_extremes());
    }
}

TEST_CASE("stats u16: the 'all' row keeps 16-bit extremes above 256") {
    ImageU16 img(2, 2, 2);
    img.at(0, 0, 0) = 1000;
    img.at(1, 0, 0) = 2000;
    img.at(0, 1, 0) = 3000;
    img.at(1, 1, 0) = 4000;
    img.at(0, 0, 1) = 500;
    img.at(1, 0, 1) = 60000;
    img.at(0, 1, 1) = 700;
    img.at(1, 1, 1) = 800;
    const ImageStats s = cpu::stats(img.view());
    const ChannelSums all = s.combined({0, 1});
    CHECK(all.min == 500);
    CHECK(all.min_index == 0);
    CHECK(all.max == 60000);
    CHECK(all.max_index == 1);
    CHECK(all.count == 8);
}

TEST_CASE("stats u16: mean and deviation equal numpy's float64 figures") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 img = test::random_runs_image16(255, 257, c, 11);
        const ImageStats s = cpu::stats(img.view());
        for (int ch = 0; ch < c; ++ch) {
            // np.mean: float64 sums of integers below 2^53 are exact, then one division.
            double sum = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) sum += img.at(x, y, ch);
            const double n = static_cast<double>(img.pixel_count());
            const double mean = sum / n;
            double sq = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) sq += (img.at(x, y, ch) - mean) * (img.at(x, y, ch) - mean);
            const ChannelMoments m = stats_moments(s.channel[static_cast<std::size_t>(ch)]);
            CHECK(m.mean == mean);
            CHECK(m.stddev == doctest::Approx(std::sqrt(sq / n)).epsilon(1e-12));
        }
    }
}

TEST_CASE("stats u16 reports: u16 in the header, wide min and max, sample_type in JSON") {
    ImageU16 img(3, 1, 1);
    img.at(0, 0, 0) = 12345;
    img.at(1, 0, 0) = 65535;
    img.at(2, 0, 0) = 257;
    const ImageStats st = cpu::stats(img.view());
    StatsSource src{"deep.png", "", "cpu", "k"};
    const std::string text = stats_text(src, st, {0});
    CHECK(text.find("3x1 gray u16") != std::string::npos);
    CHECK(text.find("65535") != std::string::npos);
    const std::string json = stats_json(src, st, {0});
    CHECK(test::is_valid_json(json));
    CHECK(test::json_members(json)["sample_type"] == "\"u16\"");
    CHECK(json.find("\"max\":65535") != std::string::npos);
    CHECK(json.find("\"min\":257") != std::string::npos);
    const std::string csv = stats_csv_rows(src, st, {0});
    CHECK(csv.find(",257,2,0,65535,1,0,") != std::string::npos);

    const ImageU8 img8 = test::random_image(3, 2, 1, 1);
    CHECK(stats_json(src, cpu::stats(img8.view()), {0}).find("sample_type") == std::string::npos);
}
