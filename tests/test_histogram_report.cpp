// Histogram reports: text summary, CSV, JSON (parsed structurally by a small
// strict JSON reader written here) and the plot image.
#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/histogram.hpp"
#include "src/report/histogram_plot.hpp"
#include "src/report/histogram_report.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// --- A strict JSON reader (RFC 8259 grammar; enough to prove validity and to
// --- walk the structure) --------------------------------------------------

struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<Json> items;
    std::map<std::string, Json> fields;
    const Json& operator[](const std::string& k) const {
        static const Json missing;
        auto it = fields.find(k);
        return it == fields.end() ? missing : it->second;
    }
    bool has(const std::string& k) const { return fields.count(k) != 0; }
};

class JsonReader {
public:
    explicit JsonReader(const std::string& text) : s_(text) {}
    // Throws std::runtime_error naming the offset on any error.
    Json document() {
        Json v = value();
        ws();
        if (i_ != s_.size()) fail("trailing characters");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& why) {
        throw std::runtime_error("invalid JSON at offset " + std::to_string(i_) + ": " + why);
    }
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool eat(char c) {
        ws();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail(std::string("expected '") + c + "'");
    }
    bool literal(const char* w) {
        std::size_t n = std::char_traits<char>::length(w);
        if (s_.compare(i_, n, w) == 0) {
            i_ += n;
            return true;
        }
        return false;
    }
    Json value() {
        ws();
        if (i_ >= s_.size()) fail("unexpected end");
        Json v;
        const char c = s_[i_];
        if (c == '{') {
            ++i_;
            v.kind = Json::Object;
            if (eat('}')) return v;
            do {
                ws();
                std::string k = string();
                expect(':');
                if (v.fields.count(k)) fail("duplicate key " + k);
                v.fields[k] = value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            ++i_;
            v.kind = Json::Array;
            if (eat(']')) return v;
            do v.items.push_back(value());
            while (eat(','));
            expect(']');
        } else if (c == '"') {
            v.kind = Json::String;
            v.str = string();
        } else if (literal("true")) {
            v.kind = Json::Bool;
            v.b = true;
        } else if (literal("false")) {
            v.kind = Json::Bool;
        } else if (literal("null")) {
            v.kind = Json::Null;
        } else {
            v.kind = Json::Number;
            v.num = number();
        }
        return v;
    }
    std::string string() {
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string");
        ++i_;
        std::string out;
        while (true) {
            if (i_ >= s_.size()) fail("unterminated string");
            const unsigned char c = static_cast<unsigned char>(s_[i_++]);
            if (c == '"') return out;
            if (c < 0x20) fail("control character in string");
            if (c == '\\') {
                if (i_ >= s_.size()) fail("bad escape");
                const char e = s_[i_++];
                if (e == 'u') {
                    for (int k = 0; k < 4; ++k)
                        if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_++]))) fail("bad \\u");
                    out += '?';
                } else if (std::string("\"\\/bfnrt").find(e) != std::string::npos) {
                    out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                } else {
                    fail("bad escape");
                }
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    double number() {
        const std::size_t start = i_;
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) fail("bad number");
        if (s_[i_] == '0') ++i_;
        else
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        if (i_ < s_.size() && s_[i_] == '.') {
            ++i_;
            if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) fail("bad fraction");
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) fail("bad exponent");
            while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        return std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
    }
    const std::string& s_;
    std::size_t i_ = 0;
};

Json parse_json(const std::string& text) { return JsonReader(text).document(); }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> split_csv_simple(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

HistogramSource source_of(const std::string& file, const ImageU8& img, const std::string& backend = "cpu") {
    HistogramSource s;
    s.file = file;
    s.width = img.width();
    s.height = img.height();
    s.backend = backend;
    return s;
}

}  // namespace

TEST_CASE("JSON reader used below rejects invalid documents") {
    CHECK_NOTHROW(parse_json("{\"a\":[1,2.5,-3e2,true,null,\"x\\n\"]}"));
    CHECK_THROWS(parse_json("{\"a\":NaN}"));
    CHECK_THROWS(parse_json("{\"a\":1,}"));
    CHECK_THROWS(parse_json("[1 2]"));
    CHECK_THROWS(parse_json("{\"a\":01}"));
    CHECK_THROWS(parse_json("{\"a\":1}{"));
    CHECK_THROWS(parse_json("{\"a\":inf}"));
}

TEST_CASE("histogram CSV: header and one row per bin and plane") {
    ImageU8 img = test::load_sample("chelsea.png");
    const Histogram h = cpu::histogram(img.view());
    CHECK(histogram_csv_header() == "file,channel,bin,low,high,count\n");
    for (int bins : {256, 16, 1}) {
        CAPTURE(bins);
        HistogramReportOptions opt;
        opt.bins = bins;
        const std::vector<std::string> rows = lines_of(histogram_csv_rows(source_of("my, \"cat\".png", img), h, opt));
        REQUIRE(rows.size() == static_cast<std::size_t>(4 * bins));
        std::map<std::string, std::uint64_t> sums;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto f = split_csv_simple(rows[i]);
            REQUIRE(f.size() == 6);
            CHECK(f[0] == "my, \"cat\".png");
            const int bin = std::stoi(f[2]);
            CHECK(bin == static_cast<int>(i % static_cast<std::size_t>(bins)));
            CHECK(std::stoi(f[3]) == bin_lower(bin, bins));
            CHECK(std::stoi(f[4]) == bin_upper(bin, bins));
            sums[f[1]] += std::stoull(f[5]);
        }
        CHECK(sums.size() == 4);
        for (const char* name : {"red", "green", "blue", "luma"}) CHECK(sums[name] == img.pixel_count());
    }
    HistogramReportOptions one;
    one.planes = {1};
    const auto rows = lines_of(histogram_csv_rows(source_of("a.png", img), h, one));
    CHECK(rows.size() == 256);
    CHECK(split_csv_simple(rows[0])[1] == "green");
    CHECK(split_csv_simple(rows[200])[5] == std::to_string(h.counts[1][200]));
    HistogramReportOptions bad;
    bad.bins = 7;
    CHECK_THROWS_AS(histogram_csv_rows(source_of("a.png", img), h, bad), Error);
}

TEST_CASE("histogram JSON: valid, schema-versioned, complete") {
    for (const char* sample : {"camera.png", "chelsea.png"}) {
        CAPTURE(sample);
        ImageU8 img = test::load_sample(sample);
        const Histogram h = cpu::histogram(img.view());
        for (int bins : {256, 32, 2}) {
            HistogramReportOptions opt;
            opt.bins = bins;
            const std::string text = histogram_json(source_of(std::string("dir/") + sample + "\t\"q\"", img, "gpu"), h, opt);
            REQUIRE(!text.empty());
            CHECK(text.back() == '\n');
            CHECK(text.find('\n') == text.size() - 1);  // one line: JSON Lines for many inputs
            Json j;
            REQUIRE_NOTHROW(j = parse_json(text));
            REQUIRE(j.kind == Json::Object);
            CHECK(j["schema"].str == "imgpar.histo/1");
            CHECK(j["file"].str == std::string("dir/") + sample + "\t\"q\"");
            CHECK(j["width"].num == img.width());
            CHECK(j["height"].num == img.height());
            CHECK(j["channels"].num == img.channels());
            CHECK(j["layout"].str == channel_layout_name(img.channels()));
            CHECK(j["pixels"].num == static_cast<double>(img.pixel_count()));
            CHECK(j["backend"].str == "gpu");
            CHECK(j["bins"].num == bins);
            CHECK(j["bin_width"].num == 256 / bins);
            const Json& planes = j["planes"];
            REQUIRE(planes.kind == Json::Array);
            REQUIRE(planes.items.size() == static_cast<std::size_t>(h.planes()));
            for (int p = 0; p < h.planes(); ++p) {
                const Json& pl = planes.items[static_cast<std::size_t>(p)];
                CHECK(pl["name"].str == h.plane_name(p));
                const PlaneStats s = plane_stats(h.plane(p));
                CHECK(pl["count"].num == static_cast<double>(s.count));
                CHECK(pl["min"].num == s.min);
                CHECK(pl["max"].num == s.max);
                CHECK(pl["median"].num == s.median);
                CHECK(pl["mode"].num == s.mode);
                CHECK(pl["mean"].num == doctest::Approx(s.mean));
                CHECK(pl["stddev"].num == doctest::Approx(s.stddev));
                const Json& counts = pl["counts"];
                REQUIRE(counts.items.size() == static_cast<std::size_t>(bins));
                const auto b = rebin(h.plane(p), bins);
                for (int i = 0; i < bins; ++i) CHECK(counts.items[static_cast<std::size_t>(i)].num == static_cast<double>(b[static_cast<std::size_t>(i)]));
            }
        }
    }
    // Unknown backend -> null; empty planes -> null mean, still valid.
    Histogram empty;
    empty.channels = 1;
    HistogramSource src;
    src.file = "-";
    const Json j = parse_json(histogram_json(src, empty, HistogramReportOptions{}));
    CHECK(j["backend"].kind == Json::Null);
    CHECK(j["planes"].items[0]["mean"].kind == Json::Null);
    CHECK(j["planes"].items[0]["stddev"].kind == Json::Null);
    // --channel selection
    ImageU8 rgb = test::load_sample("chelsea.png");
    HistogramReportOptions sel;
    sel.planes = {3, 0};
    const Json k = parse_json(histogram_json(source_of("c.png", rgb), cpu::histogram(rgb.view()), sel));
    REQUIRE(k["planes"].items.size() == 2);
    CHECK(k["planes"].items[0]["name"].str == "luma");
    CHECK(k["planes"].items[1]["name"].str == "red");
}

TEST_CASE("histogram text summary") {
    ImageU8 img = test::load_sample("camera.png");
    const Histogram h = cpu::histogram(img.view());
    const PlaneStats s = plane_stats(h.counts[0]);
    HistogramReportOptions opt;
    const std::string text = histogram_text(source_of("camera.png", img), h, opt);
    const auto lines = lines_of(text);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].find("camera.png") == 0);
    CHECK(lines[0].find("512x512 gray") != std::string::npos);
    CHECK(lines[0].find("262144 pixels") != std::string::npos);
    CHECK(lines[0].find("backend cpu") != std::string::npos);
    for (const char* col : {"channel", "count", "min", "max", "mean", "stddev", "median", "mode"})
        CHECK(lines[1].find(col) != std::string::npos);
    CHECK(lines[2].find("gray") != std::string::npos);
    CHECK(lines[2].find("262144") != std::string::npos);
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.2f", s.mean);
    CHECK(lines[2].find(mean) != std::string::npos);
    CHECK(lines[2].find(" " + std::to_string(s.median) + " ") != std::string::npos);
    // the bar: 32 Unicode block characters between '|' marks (3 bytes each)
    const std::size_t bar0 = lines[2].find('|'), bar1 = lines[2].rfind('|');
    REQUIRE(bar0 != std::string::npos);
    CHECK(bar1 - bar0 - 1 == 32 * 3);
    CHECK(lines[2].find("\u2588") != std::string::npos);  // the tallest column is full

    // ASCII bars, several planes, columns aligned
    ImageU8 rgb = test::load_sample("chelsea.png");
    HistogramReportOptions a;
    a.ascii = true;
    const auto rl = lines_of(histogram_text(source_of("chelsea.png", rgb), cpu::histogram(rgb.view()), a));
    REQUIRE(rl.size() == 6);
    for (std::size_t i = 2; i < rl.size(); ++i) {
        for (unsigned char c : rl[i]) CHECK(c < 0x80);
        CHECK(rl[i].size() == rl[2].size());
        CHECK(rl[i].find('@') != std::string::npos);
    }
    CHECK(rl[5].find("luma") != std::string::npos);
    CHECK(histogram_bar(h.counts[0], 32, true).size() == 32);
    CHECK(histogram_bar(h.counts[0], 4, true).size() == 4);
    HistogramCounts one{};
    one[0] = 1000000;
    one[255] = 1;
    const std::string bar = histogram_bar(one, 32, true);
    CHECK(bar.front() == '@');
    CHECK(bar.back() == '.');  // rare but present values stay visible
    CHECK(bar[10] == ' ');

    // bin list
    HistogramReportOptions lb;
    lb.bins = 4;
    lb.list_bins = true;
    const auto bl = lines_of(histogram_text(source_of("camera.png", img), h, lb));
    REQUIRE(bl.size() == 3 + 2 + 4);
    CHECK(bl[5].find("0-63") != std::string::npos);
    CHECK(bl[8].find("192-255") != std::string::npos);
    CHECK(bl[5].find(std::to_string(rebin(h.counts[0], 4)[0])) != std::string::npos);
}

TEST_CASE("histogram plot: size, colours, not blank") {
    ImageU8 rgb = test::load_sample("chelsea.png");
    const Histogram h = cpu::histogram(rgb.view());
    ImageU8 plot = plot_histogram(h);
    CHECK(plot.width() == 512);
    CHECK(plot.height() == 300);
    CHECK(plot.channels() == 3);
    std::size_t non_white = 0, reddish = 0, greenish = 0, bluish = 0, dark = 0;
    for (int y = 0; y < plot.height(); ++y)
        for (int x = 0; x < plot.width(); ++x) {
            const int r = plot.at(x, y, 0), g = plot.at(x, y, 1), b = plot.at(x, y, 2);
            if (r != 255 || g != 255 || b != 255) ++non_white;
            if (r > g + 60 && r > b + 60) ++reddish;
            if (g > r + 60 && g > b + 40) ++greenish;
            if (b > r + 60 && b > g + 60) ++bluish;
            if (r < 80 && g < 80 && b < 80) ++dark;
        }
    CHECK(non_white > 5000);
    CHECK(reddish > 100);
    CHECK(greenish > 100);
    CHECK(bluish > 100);
    CHECK(dark > 500);  // axes, ticks, labels
    CHECK(plot.at(2, 2, 0) == 255);  // background

    ImageU8 gray = test::load_sample("camera.png");
    HistogramPlotOptions o;
    o.width = 800;
    o.height = 400;
    o.bins = 32;
    o.log_scale = true;
    ImageU8 g = plot_histogram(cpu::histogram(gray.view()), o);
    CHECK(g.width() == 800);
    CHECK(g.height() == 400);
    std::size_t ink = 0;
    for (std::size_t i = 0; i < g.size_bytes(); ++i) ink += g.data()[i] != 255;
    CHECK(ink > 10000);

    // constant image: one bar, still drawn
    ImageU8 k = test::constant_image(10, 10, 1, 0);
    ImageU8 kp = plot_histogram(cpu::histogram(k.view()));
    CHECK(kp.width() == 512);

    HistogramPlotOptions bad;
    bad.width = 10;
    CHECK_THROWS_AS(plot_histogram(h, bad), Error);
    bad = {};
    bad.bins = 5;
    CHECK_THROWS_AS(plot_histogram(h, bad), Error);
    HistogramPlotOptions ps;
    parse_plot_size("640x360", ps);
    CHECK(ps.width == 640);
    CHECK(ps.height == 360);
    CHECK_THROWS_AS(parse_plot_size("640", ps), Error);
    CHECK_THROWS_AS(parse_plot_size("640x", ps), Error);
    CHECK_THROWS_AS(parse_plot_size("640x360x2", ps), Error);
    CHECK_THROWS_AS(parse_plot_size("20000x300", ps), Error);
    CHECK(ps.width == 640);
}
