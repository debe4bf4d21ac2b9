#include "src/report/stats_report.hpp"

#include <cstdio>

#include "src/ops/histogram.hpp"
#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {
namespace {

// One row of a report: a channel, or "all".
struct StatsRow {
    std::string name;
    ChannelSums sums;
    ChannelMoments moments;
    long long min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};

std::vector<StatsRow> report_rows(const ImageStats& st, const StatsChannels& selected) {
    std::vector<int> channels = selected;
    if (channels.empty())
        for (int c = 0; c < st.channels; ++c) channels.push_back(c);
    std::vector<StatsRow> rows;
    const auto row = [&](std::string name, const ChannelSums& s) {
        StatsRow r;
        r.name = std::move(name);
        r.sums = s;
        r.moments = stats_moments(s);
        if (s.has_extremes()) {
            const std::uint64_t w = static_cast<std::uint64_t>(st.width);
            r.min_x = static_cast<long long>(s.min_index % w);
            r.min_y = static_cast<long long>(s.min_index / w);
            r.max_x = static_cast<long long>(s.max_index % w);
            r.max_y = static_cast<long long>(s.max_index / w);
        }
        rows.push_back(r);
    };
    for (int c : channels) row(histogram_plane_name(st.channels, c), st.combined({c}));
    row("all", st.combined(channels));
    return rows;
}

std::string fixed(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string at(long long x, long long y) { return "(" + std::to_string(x) + ", " + std::to_string(y) + ")"; }

std::string pad_left(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

std::string header_line(const StatsSource& src, const ImageStats& st) {
    const std::uint64_t pixels = static_cast<std::uint64_t>(st.width) * static_cast<std::uint64_t>(st.height);
    std::string out = src.file.empty() ? std::string("(image)") : escape_control(src.file);
    out += ": " + std::to_string(st.width) + "x" + std::to_string(st.height) + " " + channel_layout_name(st.channels) +
           (st.type == SampleType::U16 ? " u16" : "") + ", " + std::to_string(pixels) + " pixels";
    if (st.masked)
        out += ", mask " + (src.mask.empty() ? std::string("(mask)") : src.mask) + ": " + std::to_string(st.selected) +
               " of " + std::to_string(pixels) + " pixels";
    if (!src.backend.empty()) out += ", backend " + src.backend;
    return out + "\n";
}

}  // namespace

std::string stats_text(const StatsSource& src, const ImageStats& st, const StatsChannels& channels) {
    const std::vector<StatsRow> rows = report_rows(st, channels);
    std::string out = header_line(src, st);
    // 16-bit values need two more columns for min and max.
    const std::size_t wide = st.type == SampleType::U16 ? 2 : 0;
    out += "  " + pad_right("channel", 8) + pad_left("count", 12) + pad_left("min", 5 + wide) + "  " + pad_right("at (x, y)", 14) +
           pad_left("max", 4 + wide) + "  " + pad_right("at (x, y)", 14) + pad_left("sum", 14) + pad_left("sum of squares", 18) +
           pad_left("mean", 10) + pad_left("stddev(pop)", 13) + pad_left("non-zero", 12) + "\n";
    for (const StatsRow& r : rows) {
        const bool e = r.sums.has_extremes();
        out += "  " + pad_right(r.name, 8) + pad_left(std::to_string(r.sums.count), 12) +
               pad_left(e ? std::to_string(r.sums.min) : "-", 5 + wide) + "  " + pad_right(e ? at(r.min_x, r.min_y) : "-", 14) +
               pad_left(e ? std::to_string(r.sums.max) : "-", 4 + wide) + "  " + pad_right(e ? at(r.max_x, r.max_y) : "-", 14) +
               pad_left(std::to_string(r.sums.sum), 14) + pad_left(std::to_string(r.sums.sum_squares), 18) +
               pad_left(r.moments.empty ? "-" : fixed(r.moments.mean), 10) +
               pad_left(r.moments.empty ? "-" : fixed(r.moments.stddev), 13) + pad_left(std::to_string(r.sums.nonzero), 12) +
               "\n";
    }
    return out;
}

std::string stats_csv_header() {
    return "file,channel,count,min,min_x,min_y,max,max_x,max_y,sum,sum_squares,mean,stddev_population,nonzero\n";
}

std::string stats_csv_rows(const StatsSource& src, const ImageStats& st, const StatsChannels& channels) {
    std::string out;
    for (const StatsRow& r : report_rows(st, channels)) {
        const bool e = r.sums.has_extremes();
        const auto opt = [e](const std::string& s) { return e ? s : std::string(); };
        out += csv_row({src.file, r.name, std::to_string(r.sums.count), opt(std::to_string(r.sums.min)),
                        opt(std::to_string(r.min_x)), opt(std::to_string(r.min_y)), opt(std::to_string(r.sums.max)),
                        opt(std::to_string(r.max_x)), opt(std::to_string(r.max_y)), std::to_string(r.sums.sum),
                        std::to_string(r.sums.sum_squares), opt(json_number(r.moments.mean)),
                        opt(json_number(r.moments.stddev)), std::to_string(r.sums.nonzero)}) +
               "\n";
    }
    return out;
}

std::string stats_json(const StatsSource& src, const ImageStats& st, const StatsChannels& channels) {
    JsonObject o;
    o.add("schema", kStatsJsonSchema);
    o.add("file", src.file);
    o.add("ok", true);
    o.add("width", st.width);
    o.add("height", st.height);
    o.add("channels", st.channels);
    o.add("layout", channel_layout_name(st.channels));
    // 16-bit reports say so; 8-bit ones keep their members as they were.
    if (st.type == SampleType::U16) o.add("sample_type", "u16");
    o.add("pixels", static_cast<unsigned long long>(st.width) * static_cast<unsigned long long>(st.height));
    if (st.masked)
        o.add("mask", src.mask);
    else
        o.add_null("mask");
    o.add("selected_pixels", static_cast<unsigned long long>(st.selected));
    o.add_text_or_null("backend", src.backend);
    o.add_text_or_null("kernel", src.kernel);
    o.merge(src.extra);
    o.add("stddev", "population");
    JsonArray list;
    for (const StatsRow& r : report_rows(st, channels)) {
        JsonObject ro;
        ro.add("channel", r.name);
        ro.add("count", static_cast<unsigned long long>(r.sums.count));
        if (r.sums.has_extremes()) {
            ro.add("min", r.sums.min).add("min_x", r.min_x).add("min_y", r.min_y);
            ro.add("max", r.sums.max).add("max_x", r.max_x).add("max_y", r.max_y);
        } else {
            for (const char* key : {"min", "min_x", "min_y", "max", "max_x", "max_y"}) ro.add_null(key);
        }
        ro.add("sum", static_cast<unsigned long long>(r.sums.sum));
        ro.add("sum_squares", static_cast<unsigned long long>(r.sums.sum_squares));
        if (r.moments.empty) {
            ro.add_null("mean");
            ro.add_null("stddev_population");
        } else {
            ro.add("mean", r.moments.mean);
            ro.add("stddev_population", r.moments.stddev);
        }
        ro.add("nonzero", static_cast<unsigned long long>(r.sums.nonzero));
        list.push(ro);
    }
    o.add("stats", list);
    return o.str() + "\n";
}

}  // namespace imgpar
