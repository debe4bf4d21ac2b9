// A histogram drawn as an RGB image (the caller saves it, e.g. with
// --plot OUT.png).
//
// Layout: white background; a legend row above the plot area naming each
// plotted plane beside a swatch of its colour; a plot area with a left
// (count) axis and a bottom (value) axis in dark gray; value ticks at 0, 64,
// 128, 192 and 255 (of a 16-bit image's plot: 0, 16384, 32768, 49152 and
// 65535 at the same places) and count ticks at round numbers (plot_count_ticks), each
// labelled with a small built-in font (counts abbreviated as 15k, 2.5M, ...),
// with light horizontal grid lines. Each plane is drawn as a translucent
// filled step curve with a solid outline, one colour per plane: gray
// #282828, red #DC2828, green #28A028, blue #2850DC, alpha #9664C8, luma
// #808080. The vertical scale is linear (or log(1 + count) with log_scale),
// from 0 to the last count tick; a non-empty bin is always at least one
// pixel tall.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar {

constexpr int kPlotMinWidth = 160;
constexpr int kPlotMinHeight = 100;
constexpr int kPlotMaxSide = 8192;

struct HistogramPlotOptions {
    int width = 512;
    int height = 300;
    int bins = 256;            // must divide 256
    std::vector<int> planes;   // plane indices (select_histogram_planes); empty: all
    bool log_scale = false;
    // The samples' depth: 16 labels the value axis in 16-bit values (the
    // counts are then the 256 bins of 256 values each of the 16-bit image).
    int value_bits = 8;
};

// Throws imgpar::Error (usage) naming the bad option and the allowed range.
void check_plot_options(const HistogramPlotOptions& opt);

// Parses "WxH" (e.g. "800x400") into opt.width / opt.height, validated.
void parse_plot_size(const std::string& text, HistogramPlotOptions& opt);

// The count axis's ticks for bins up to `peak`, from 0 up to the first tick
// at or above it (the axis's top). Linear: steps of 1, 2 or 5 times a power
// of ten, about five of them (peak 2077: 0, 500, ... 2500). Logarithmic: 0,
// then the powers of ten (peak 2077: 0, 1, 10, 100, 1000, 10000).
std::vector<double> plot_count_ticks(std::uint64_t peak, bool log_scale);

// The plot as a width x height RGB image.
ImageU8 plot_histogram(const Histogram& h, const HistogramPlotOptions& opt = {});

}  // namespace imgpar
