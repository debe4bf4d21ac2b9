// Reports of a histogram (src/ops/histogram.hpp): a text summary for people,
// CSV (one row per bin) and JSON (one object per input, schema-versioned) for
// programs. Every function returns complete lines ending in '\n'; the caller
// writes them to stdout.
//
// Text (histogram_text):
//   camera.png: 512x512 gray, 262144 pixels, backend cpu
//     channel      count  min  max     mean  stddev  median  mode  0 .. 255
//     gray        262144    0  255   118.72   62.35     137   ...  |  ▁▂▃█▅ ... |
//   The bar has min(bins, 32) columns of Unicode block characters (ASCII
//   " .:-=+*#@" with ascii = true), each column scaled to the tallest; any
//   non-empty column shows at least the lowest mark. list_bins adds a table
//   of every bin's count, one column per selected plane.
//
// CSV (histogram_csv_header once, then histogram_csv_rows per input):
//   file,channel,bin,low,high,count
//
// JSON (histogram_json, one line per input, i.e. JSON Lines for several):
//   {"schema":"imgpar.histo/1","file":..,"ok":true,"width":..,"height":..,"channels":..,
//    "layout":"RGB","pixels":..,"backend":"gpu"|"cpu"|null,"kernel":".."|null,"bins":N,
//    "bin_width":256/N,"planes":[{"name":"red","count":..,"min":..,"max":..,
//    "mean":..,"stddev":..,"median":..,"mode":..,"counts":[N integers]},...]}
//   Always valid JSON: no NaN or infinity (an empty plane's mean is null).
//   A file that fails: {"schema":"imgpar.histo/1","file":..,"ok":false,"error":".."}
//   (written by the command's driver).
#pragma once

#include <string>
#include <vector>

#include "src/ops/histogram.hpp"
#include "src/report/json.hpp"

namespace imgpar {

constexpr const char* kHistogramJsonSchema = "imgpar.histo/1";

// Where a histogram came from, for the report's header fields.
struct HistogramSource {
    std::string file;     // as the user named it ("-" for stdin)
    int width = 0;
    int height = 0;
    std::string backend;  // "cpu", "gpu" or empty when not known
    std::string kernel;   // what counted, in words; JSON only, empty when not known
    JsonObject extra{};   // JSON only: members the run adds after "kernel" (a chain's "stages")
};

struct HistogramReportOptions {
    int bins = 256;            // must divide 256 (check_histogram_bins); 16 bits: a power of two to 65536
    std::vector<int> planes;   // plane indices to report (select_histogram_planes); empty: all
    bool list_bins = false;    // text: also print every bin's count
    bool ascii = false;        // text: ASCII bars
};

std::string histogram_text(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt);
std::string histogram_csv_header();
std::string histogram_csv_rows(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt);
std::string histogram_json(const HistogramSource& src, const Histogram& h, const HistogramReportOptions& opt);

// The same reports of a 16-bit histogram: bins (a power of two up to 65536,
// check_histogram_bins16) and their low/high over 0..65535, min and max
// columns one wider, the layout followed by "u16" in the text header, and
// "sample_type":"u16" after "layout" in JSON (bin_width = 65536 / bins).
std::string histogram_text(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt);
std::string histogram_csv_rows(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt);
std::string histogram_json(const HistogramSource& src, const Histogram16& h, const HistogramReportOptions& opt);

// The compact bar of one plane: `columns` (dividing 256) characters.
std::string histogram_bar(const HistogramCounts& counts, int columns, bool ascii);
// The bar of `values` (256 or 65536) counters.
std::string histogram_bar(const std::uint64_t* counts, int values, int columns, bool ascii);

}  // namespace imgpar
