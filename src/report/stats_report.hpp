// Reports of image statistics (src/ops/stats.hpp): a text table for people,
// CSV and JSON for programs. A row per reported channel, then the row "all":
// those channels together. Every function returns complete lines ending in
// '\n'; the caller writes them to stdout. Means and deviations come from
// stats_moments, so every backend prints the same digits.
//
// Text (stats_text):
//   chelsea.png: 451x300 RGB, 135300 pixels, backend cpu
//     channel      count  min  at (x, y)     max  at (x, y)           sum     sum of squares      mean  stddev(pop)  non-zero
//     red         135300    9  (398, 281)    255  (0, 47)        19203123        3123123123  141.9321      35.1234    135300
//     ...
//     all         405900 ...
//   With a mask the first line adds "mask M.png: N of P pixels". A channel
//   with no samples (the mask selects none) shows "-" for min, max, their
//   positions, mean and deviation.
//
// CSV (stats_csv_header once, then stats_csv_rows per input):
//   file,channel,count,min,min_x,min_y,max,max_x,max_y,sum,sum_squares,mean,stddev_population,nonzero
//   Empty fields where a value is absent. Mean and deviation in the shortest
//   text that reads back as the same double.
//
// JSON (stats_json, one line per input, i.e. JSON Lines for several):
//   {"schema":"imgpar.stats/1","file":..,"ok":true,"width":..,"height":..,"channels":..,"layout":"RGB",
//    "pixels":..,"mask":"m.png"|null,"selected_pixels":..,"backend":..|null,"kernel":..|null,
//    "stddev":"population","stats":[{"channel":"red","count":..,"min":..,"min_x":..,"min_y":..,
//    "max":..,"max_x":..,"max_y":..,"sum":..,"sum_squares":..,"mean":..,"stddev_population":..,
//    "nonzero":..},...,{"channel":"all",...}]}
//   Always valid JSON: an absent value is null, never NaN.
//   A file that fails: {"schema":"imgpar.stats/1","file":..,"ok":false,"error":".."} (written by the
//   command's driver).
#pragma once

#include <string>
#include <vector>

#include "src/ops/stats.hpp"
#include "src/report/json.hpp"

namespace imgpar {

constexpr const char* kStatsJsonSchema = "imgpar.stats/1";

// Where the statistics came from, for the report's header fields.
struct StatsSource {
    std::string file;     // as the user named it
    std::string mask;     // the mask's file name, empty without one
    std::string backend;  // "cpu", "gpu" or empty when not known
    std::string kernel;   // what computed them, in words; JSON only, empty when not known
    JsonObject extra{};   // JSON only: members the run adds after "kernel" (a chain's "stages")
};

// The channels to report, in order (select_stats_channels); empty: all.
using StatsChannels = std::vector<int>;

std::string stats_text(const StatsSource& src, const ImageStats& st, const StatsChannels& channels);
std::string stats_csv_header();
std::string stats_csv_rows(const StatsSource& src, const ImageStats& st, const StatsChannels& channels);
std::string stats_json(const StatsSource& src, const ImageStats& st, const StatsChannels& channels);

}  // namespace imgpar
