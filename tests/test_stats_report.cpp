// Reports of image statistics (src/report/stats_report.hpp): text, CSV and
// JSON, with channel selections, masks and empty selections.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "src/ops/stats.hpp"
#include "src/report/stats_report.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < s.size()) {
        const std::size_t end = s.find('\n', start);
        out.push_back(s.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

std::vector<std::string> split_csv(const std::string& row) {
    std::vector<std::string> out(1);
    for (char c : row) {
        if (c == ',')
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

ImageStats stats_with_mask(const ImageU8& img, const ImageU8& mask) {
    ConstViewU8 mv = mask.view();
    return cpu::stats(img.view(), &mv);
}

}  // namespace

TEST_CASE("stats JSON: one valid line, schema-versioned, every field, 'all' last") {
    const ImageU8 img = test::load_sample("chelsea_alpha.png");
    const ImageStats st = cpu::stats(img.view());
    const std::string text = stats_json({"dir/a \"b\".png", "", "gpu", "one pass"}, st, {});
    CHECK(text.back() == '\n');
    CHECK(text.find('\n') == text.size() - 1);
    std::string why;
    REQUIRE_MESSAGE(test::is_valid_json(text, &why), why);
    auto j = test::json_members(text);
    CHECK(j["schema"] == "\"imgpar.stats/1\"");
    CHECK(j["file"] == "\"dir/a \\\"b\\\".png\"");
    CHECK(j["ok"] == "true");
    CHECK(j["width"] == std::to_string(img.width()));
    CHECK(j["channels"] == "4");
    CHECK(j["layout"] == "\"RGBA\"");
    CHECK(j["pixels"] == std::to_string(img.pixel_count()));
    CHECK(j["mask"] == "null");
    CHECK(j["selected_pixels"] == std::to_string(img.pixel_count()));
    CHECK(j["backend"] == "\"gpu\"");
    CHECK(j["kernel"] == "\"one pass\"");
    CHECK(j["stddev"] == "\"population\"");
    const std::vector<std::string> rows = test::json_array_objects(j["stats"]);
    REQUIRE(rows.size() == 5);
    const char* names[] = {"\"red\"", "\"green\"", "\"blue\"", "\"alpha\"", "\"all\""};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto r = test::json_members(rows[i]);
        CHECK(r["channel"] == names[i]);
        for (const char* key : {"count", "min", "min_x", "min_y", "max", "max_x", "max_y", "sum", "sum_squares", "mean",
                                "stddev_population", "nonzero"})
            CHECK_MESSAGE(r.count(key) == 1, key);
    }
    auto red = test::json_members(rows[0]);
    const ChannelSums& s = st.channel[0];
    CHECK(red["sum"] == std::to_string(s.sum));
    CHECK(red["sum_squares"] == std::to_string(s.sum_squares));
    CHECK(red["min_x"] == std::to_string(s.min_index % static_cast<std::uint64_t>(img.width())));
    CHECK(red["min_y"] == std::to_string(s.min_index / static_cast<std::uint64_t>(img.width())));
    CHECK(std::stod(red["mean"]) == stats_moments(s).mean);  // round-trip digits
    CHECK(std::stod(red["stddev_population"]) == stats_moments(s).stddev);
    auto all = test::json_members(rows[4]);
    CHECK(all["count"] == std::to_string(4 * img.pixel_count()));
}

TEST_CASE("stats reports: an empty mask selection prints absent values, never NaN") {
    const ImageU8 img = test::random_image(20, 10, 3, 1);
    const ImageU8 none(20, 10, 1);
    const ImageStats st = stats_with_mask(img, none);
    const StatsSource src{"a.png", "m.png", "cpu", ""};

    const std::string json = stats_json(src, st, {});
    std::string why;
    REQUIRE_MESSAGE(test::is_valid_json(json, &why), why);
    CHECK(json.find("nan") == std::string::npos);
    auto j = test::json_members(json);
    CHECK(j["mask"] == "\"m.png\"");
    CHECK(j["selected_pixels"] == "0");
    CHECK(j["kernel"] == "null");
    for (const std::string& row : test::json_array_objects(j["stats"])) {
        auto r = test::json_members(row);
        CHECK(r["count"] == "0");
        for (const char* key : {"min", "min_x", "min_y", "max", "max_x", "max_y", "mean", "stddev_population"})
            CHECK_MESSAGE(r[key] == "null", key);
        CHECK(r["sum"] == "0");
    }

    const auto csv = lines_of(stats_csv_rows(src, st, {}));
    REQUIRE(csv.size() == 4);
    CHECK(csv[0] == "a.png,red,0,,,,,,,0,0,,,0");
    CHECK(csv[3] == "a.png,all,0,,,,,,,0,0,,,0");

    const std::string text = stats_text(src, st, {});
    CHECK(text.find("nan") == std::string::npos);
    CHECK(text.find("mask m.png: 0 of 200 pixels") != std::string::npos);
}

TEST_CASE("stats CSV: one header, a row per channel and 'all', quoted names, round-trip numbers") {
    CHECK(stats_csv_header() ==
          "file,channel,count,min,min_x,min_y,max,max_x,max_y,sum,sum_squares,mean,stddev_population,nonzero\n");
    const ImageU8 img = test::load_sample("chelsea.png");
    const ImageStats st = cpu::stats(img.view());
    const auto rows = lines_of(stats_csv_rows({"my, \"cat\".png", "", "cpu", ""}, st, {2, 0}));
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].rfind("\"my, \"\"cat\"\".png\",blue,", 0) == 0);
    CHECK(rows[1].find(",red,") != std::string::npos);
    CHECK(rows[2].find(",all,") != std::string::npos);
    const auto f = split_csv(lines_of(stats_csv_rows({"c.png", "", "cpu", ""}, st, {0}))[0]);
    REQUIRE(f.size() == 14);
    const ChannelSums& s = st.channel[0];
    CHECK(f[2] == std::to_string(s.count));
    CHECK(f[3] == std::to_string(s.min));
    CHECK(f[9] == std::to_string(s.sum));
    CHECK(std::stod(f[11]) == stats_moments(s).mean);
    CHECK(std::stod(f[12]) == stats_moments(s).stddev);
    // 'all' covers the reported channels: blue and red here.
    const auto all = split_csv(lines_of(stats_csv_rows({"c.png", "", "cpu", ""}, st, {2, 0}))[2]);
    CHECK(all[9] == std::to_string(st.channel[0].sum + st.channel[2].sum));
}

TEST_CASE("stats text: header line, a row per channel, positions as (x, y)") {
    ImageU8 img(5, 4, 1);
    img.fill(10);
    img.at(3, 2, 0) = 200;
    img.at(1, 1, 0) = 0;
    const std::string text = stats_text({"t.png", "", "cpu", ""}, cpu::stats(img.view()), {});
    const auto rows = lines_of(text);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == "t.png: 5x4 gray, 20 pixels, backend cpu");
    CHECK(rows[1].find("stddev(pop)") != std::string::npos);
    CHECK(rows[2].find("gray") != std::string::npos);
    CHECK(rows[2].find("(1, 1)") != std::string::npos);
    CHECK(rows[2].find("(3, 2)") != std::string::npos);
    CHECK(rows[3].find("all") != std::string::npos);
}
