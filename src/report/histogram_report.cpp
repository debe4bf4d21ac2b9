#include "src/report/histogram_report.hpp"

#include <algorithm>
#include <cstdio>

#include "src/error.hpp"
#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {
namespace {

// An 8-bit or a 16-bit histogram, as the reports read it: its planes'
// counters over `values` values (256 or 65536).
struct Counted {
    Histogram layout;  // channels, luma, pixels (counts unused)
    int values = kHistogramValues;
    std::vector<const std::uint64_t*> planes;

    explicit Counted(const Histogram& h) : layout(h) {
        for (int p = 0; p < h.planes(); ++p) planes.push_back(h.plane(p).data());
    }
    explicit Counted(const Histogram16& h) : layout(h.layout()), values(kHistogramValues16) {
        for (int p = 0; p < h.planes(); ++p) planes.push_back(h.plane(p));
    }
    const std::uint64_t* plane(int p) const {
        layout.plane(p);  // range check
        return planes[static_cast<std::size_t>(p)];
    }
    std::string plane_name(int p) const { return layout.plane_name(p); }
    int bin_width(int bins) const { return values / bins; }
    int lower(int i, int bins) const { return i * bin_width(bins); }
    int upper(int i, int bins) const { return (i + 1) * bin_width(bins) - 1; }
};

void check_bins(const Counted& h, int bins) {
    if (h.values == kHistogramValues)
        check_histogram_bins(bins);
    else
        check_histogram_bins16(bins);
}

std::vector<int> report_planes(const Counted& h, const HistogramReportOptions& opt) {
    if (opt.planes.empty()) return select_histogram_planes(h.layout, "all");
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
    return histogram_bar(counts.data(), kHistogramValues, columns, ascii);
}

std::string histogram_bar(const std::uint64_t* counts, int values, int columns, bool ascii) {
    static const char* const blocks[] = {" ",  "\u2581", "\u2582", "\u2583", "\u2584",
                                         "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char ramp[] = " .:-=+*#@";
    const std::vector<std::uint64_t> bins = rebin(counts, values, columns);
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

namespace {

std::string text_of(const HistogramSource& src, const Counted& h, const HistogramReportOptions& opt) {
    check_bins(h, opt.bins);
    const std::vector<int> planes = report_planes(h, opt);
    // 16-bit values need one more column for min and max.
    const std::size_t vw = h.values == kHistogramValues ? 5 : 6;
    const std::string top = std::to_string(h.values - 1);
    const int columns = std::min(opt.bins, 32);
    std::string out = src.file.empty() ? std::string("(image)") : escape_control(src.file);
    out += ": " + std::to_string(src.width) + "x" + std::to_string(src.height) + " " +
           channel_layout_name(h.layout.channels) + (h.values == kHistogramValues ? "" : " u16") + ", " +
           std::to_string(h.layout.pixels) + " pixels";
    if (!src.backend.empty()) out += ", backend " + src.backend;
    out += "\n";
    out += "  " + pad_right("channel", 8) + pad_left("count", 12) + pad_left("min", vw) + pad_left("max", vw) +
           pad_left("mean", 9) + pad_left("stddev", 9) + pad_left("median", 8) + pad_left("mode", 6) + "  " +
           (static_cast<std::size_t>(columns) >= top.size() + 2
                ? " 0" + std::string(static_cast<std::size_t>(columns) - 1 - top.size(), ' ') + top
                : " 0-" + top) +
           "\n";
    for (int p : planes) {
        const std::uint64_t* c = h.plane(p);
        const PlaneStats s = plane_stats(c, h.values);
        out += "  " + pad_right(h.plane_name(p), 8) + pad_left(std::to_string(s.count), 12) +
               pad_left(std::to_string(s.min), vw) + pad_left(std::to_string(s.max), vw) +
               pad_left(format("%.2f", s.mean), 9) + pad_left(format("%.2f", s.stddev), 9) +
               pad_left(std::to_string(s.median), 8) + pad_left(std::to_string(s.mode), 6) + "  |" +
               histogram_bar(c, h.values, columns, opt.ascii) + "|\n";
    }
    if (opt.list_bins) {
        std::vector<std::vector<std::uint64_t>> binned;
        for (int p : planes) binned.push_back(rebin(h.plane(p), h.values, opt.bins));
        const std::size_t rw = h.values == kHistogramValues ? 9 : 13;
        out += "\n  " + pad_left("bin", 5) + "  " + pad_right("values", rw);
        for (int p : planes) out += pad_left(h.plane_name(p), 12);
        out += "\n";
        for (int i = 0; i < opt.bins; ++i) {
            const int lo = h.lower(i, opt.bins), hi = h.upper(i, opt.bins);
            out += "  " + pad_left(std::to_string(i), 5) + "  " +
                   pad_right(lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi), rw);
            for (const auto& b : binned) out += pad_left(std::to_string(b[static_cast<std::size_t>(i)]), 12);
            out += "\n";
        }
    }
    return out;
}

std::string csv_of(const HistogramSource& src, const Counted& h, const HistogramReportOptions& opt) {
    check_bins(h, opt.bins);
    std::string out;
    for (int p : report_planes(h, opt)) {
        const std::vector<std::uint64_t> bins = rebin(h.plane(p), h.values, opt.bins);
        const std::string name = h.plane_name(p);
        for (int i = 0; i < opt.bins; ++i)
            out += csv_row({src.file, name, std::to_string(i), std::to_string(h.lower(i, opt.bins)),
                            std::to_string(h.upper(i, opt.bins)), std::to_string(bins[static_cast<std::size_t>(i)])}) +
                   "\n";
    }
    return out;
}

std::string json_of(const HistogramSource& src, const Counted& h, const HistogramReportOptions& opt) {
    check_bins(h, opt.bins);
    JsonObject o;
    o.add("schema", kHistogramJsonSchema);
    o.add("file", src.file);
    o.add("ok", true);
    o.add("width", src.width);
    o.add("height", src.height);
    o.add("channels", h.layout.channels);
    o.add("layout", channel_layout_name(h.layout.channels));
    // 16-bit reports say so; 8-bit ones keep their members as they were.
    if (h.values != kHistogramValues) o.add("sample_type", "u16");
    o.add("pixels", static_cast<unsigned long long>(h.layout.pixels));
    o.add_text_or_null("backend", src.backend);
    o.add_text_or_null("kernel", src.kernel);
    o.merge(src.extra);
    o.add("bins", opt.bins);
    o.add("bin_width", h.bin_width(opt.bins));
    JsonArray planes;
    for (int p : report_planes(h, opt)) {
        const std::uint64_t* c = h.plane(p);
        const PlaneStats s = plane_stats(c, h.values);
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
        for (std::uint64_t n : rebin(c, h.values, opt.bins)) counts.push(static_cast<long long>(n));
        po.add("counts", counts);
        planes.push(po);
    }
    o.add("planes", planes);
    return o.str() + "\n";
}

}  // namespace

std::string histogram_csv_header() { return "file,channel,bin,low,high,count\n"; }

std::string histogram_text(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    return text_of(src, Counted(h), opt);
}
std::string histogram_text(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt) {
    return text_of(src, Counted(h), opt);
}
std::string histogram_csv_rows(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    return csv_of(src, Counted(h), opt);
}
std::string histogram_csv_rows(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt) {
    return csv_of(src, Counted(h), opt);
}
std::string histogram_json(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt) {
    return json_of(src, Counted(h), opt);
}
std::string histogram_json(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt) {
    return json_of(src, Counted(h), opt);
}

}  // namespace imgpar
