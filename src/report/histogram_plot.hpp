// A histogram drawn as an RGB image (the caller saves it, e.g. with
// --plot OUT.png).
//
// Layout: white background; a plot area with a left (count) axis and a
// bottom (value) axis in dark gray; value ticks at 0, 64, 128, 192 and 255
// and count ticks at 0, 1/4, 1/2, 3/4 and the top, each labelled with a small
// built-in digit font (counts abbreviated as 12k, 3.4M, ...), with light
// horizontal grid lines. Each plane is drawn as a translucent filled step
// curve with a solid outline, one colour per plane: gray #282828, red
// #DC2828, green #28A028, blue #2850DC, alpha #9664C8, luma #808080. The
// vertical scale is linear (or log(1 + count) with log_scale), topped by the
// largest plotted bin; a non-empty bin is always at least one pixel tall.
#pragma once

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
};

// Throws imgpar::Error (usage) naming the bad option and the allowed range.
void check_plot_options(const HistogramPlotOptions& opt);

// Parses "WxH" (e.g. "800x400") into opt.width / opt.height, validated.
void parse_plot_size(const std::string& text, HistogramPlotOptions& opt);

// The plot as a width x height RGB image.
ImageU8 plot_histogram(const Histogram& h, const HistogramPlotOptions& opt = {});

}  // namespace imgpar
