#include "src/report/histogram_report.hpp"

#include <algorithm>
#include <cstdio>

#include "src/error.hpp"
#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {
namespace {

std::vector<int> report_planes(const Histogram& h, const HistogramReportOptions& opt) {
    if (opt.planes.empty()) return select_histogram_planes(h, "all");
    for (int p : opt.planes) h.plane(p);  // range check
    return opt.planes;
}

std::string format(const char* fmt, double v) {
    if (v != v) return "-";  // NaN: an empty plane
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string pad_left(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

}  // namespace

std::string histogram_bar(const HistogramCounts& counts, int columns, bool ascii) {
    static const char* const blocks[] = {" ",  "\u2581", "\u2582", "\u2583", "\u2584",
                                         "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char ramp[] = " .:-=+*#@";
    const std::vector<std::uint64_t> bins = rebin(counts, columns);
    const std::uint64_t top = *std::max_element(bins.begin(), bins.end());
    std::string out;
    for (std::uint64_t c : bins) {
        int level = 0;
        if (c > 0 && top > 0) {
            // ceil(8 c / top) in integers: 1..8, so every non-empty column shows.
            level = static_cast<int>((static_cast<unsigned __int128>(c) * 8 + top - 1) / top);
            level = std::clamp(level, 1, 8);
        }
        if (ascii)
            out += ramp[level];
        else
            out += blocks[level];
    }
    return out;
}

std::string histogram_text(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    check_histogram_bins(opt.bins);
    const std::vector<int> planes = report_planes(h, opt);
    const int columns = std::min(opt.bins, 32);
    std::string out = src.file.empty() ? std::string("(image)") : escape_control(src.file);
    out += ": " + std::to_string(src.width) + "x" + std::to_string(src.height) + " " + channel_layout_name(h.channels) +
           ", " + std::to_string(h.pixels) + " pixels";
    if (!src.backend.empty()) out += ", backend " + src.backend;
    out += "\n";
    out += "  " + pad_right("channel", 8) + pad_left("count", 12) + pad_left("min", 5) + pad_left("max", 5) +
           pad_left("mean", 9) + pad_left("stddev", 9) + pad_left("median", 8) + pad_left("mode", 6) + "  " +
           (columns >= 5 ? " 0" + std::string(static_cast<std::size_t>(columns) - 4, ' ') + "255" : " 0-255") + "\n";
    for (int p : planes) {
        const HistogramCounts& c = h.plane(p);
        const PlaneStats s = plane_stats(c);
        out += "  " + pad_right(h.plane_name(p), 8) + pad_left(std::to_string(s.count), 12) +
               pad_left(std::to_string(s.min), 5) + pad_left(std::to_string(s.max), 5) +
               pad_left(format("%.2f", s.mean), 9) + pad_left(format("%.2f", s.stddev), 9) +
               pad_left(std::to_string(s.median), 8) + pad_left(std::to_string(s.mode), 6) + "  |" +
               histogram_bar(c, columns, opt.ascii) + "|\n";
    }
    if (opt.list_bins) {
        std::vector<std::vector<std::uint64_t>> binned;
        for (int p : planes) binned.push_back(rebin(h.plane(p), opt.bins));
        out += "\n  " + pad_left("bin", 5) + "  " + pad_right("values", 9);
        for (int p : planes) out += pad_left(h.plane_name(p), 12);
        out += "\n";
        for (int i = 0; i < opt.bins; ++i) {
            const int lo = bin_lower(i, opt.bins), hi = bin_upper(i, opt.bins);
            out += "  " + pad_left(std::to_string(i), 5) + "  " +
                   pad_right(lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi), 9);
            for (const auto& b : binned) out += pad_left(std::to_string(b[static_cast<std::size_t>(i)]), 12);
            out += "\n";
        }
    }
    return out;
}

std::string histogram_csv_header() { return "file,channel,bin,low,high,count\n"; }

std::string histogram_csv_rows(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    check_histogram_bins(opt.bins);
    std::string out;
    for (int p : report_planes(h, opt)) {
        const std::vector<std::uint64_t> bins = rebin(h.plane(p), opt.bins);
        const std::string name = h.plane_name(p);
        for (int i = 0; i < opt.bins; ++i)
            out += csv_row({src.file, name, std::to_string(i), std::to_string(bin_lower(i, opt.bins)),
                            std::to_string(bin_upper(i, opt.bins)), std::to_string(bins[static_cast<std::size_t>(i)])}) +
                   "\n";
    }
    return out;
}

std::string histogram_json(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    check_histogram_bins(opt.bins);
    JsonObject o;
    o.add("schema", kHistogramJsonSchema);
    o.add("file", src.file);
    o.add("ok", true);
    o.add("width", src.width);
    o.add("height", src.height);
    o.add("channels", h.channels);
    o.add("layout", channel_layout_name(h.channels));
    o.add("pixels", static_cast<unsigned long long>(h.pixels));
    o.add_text_or_null("backend", src.backend);
    o.add_text_or_null("kernel", src.kernel);
    o.merge(src.extra);
    o.add("bins", opt.bins);
    o.add("bin_width", kHistogramValues / opt.bins);
    JsonArray planes;
    for (int p : report_planes(h, opt)) {
        const HistogramCounts& c = h.plane(p);
        const PlaneStats s = plane_stats(c);
        JsonObject po;
        po.add("name", h.plane_name(p));
        po.add("count", static_cast<unsigned long long>(s.count));
        po.add("min", s.min);
        po.add("max", s.max);
        po.add("mean", s.mean);
        po.add("stddev", s.stddev);
        po.add("median", s.median);
        po.add("mode", s.mode);
        JsonArray counts;
        for (std::uint64_t n : rebin(c, opt.bins)) counts.push(static_cast<long long>(n));
        po.add("counts", counts);
        planes.push(po);
    }
    o.add("planes", planes);
    return o.str() + "\n";
}

}  // namespace imgpar
