// imgpar_cpu_bench: imgpar's CPU backend timed on large photo-like images,
// with OpenCV's equivalent of each case timed in the same run on the same
// pixels and the same number of threads.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cpu_bench {

struct Options {
    int threads = 0;     // 0: every core
    int runs = 5;        // timed runs per case, after one warm-up
    std::string only;    // run the cases whose name contains this
    bool quick = false;  // one image, one run: a smoke test
};

struct BenchImage {
    int width, height, channels;
    const char* label;
};
// Larger than any cache, as the GPU benchmark's: 48, 16 and 95 MiB.
inline constexpr BenchImage kBenchImages[] = {
    {4096, 4096, 3, "4096x4096 RGB"}, {4096, 4096, 1, "4096x4096 gray"}, {7680, 4320, 3, "7680x4320 RGB"}};

// What is timed: a catalog operation at one of its examples, or a report's
// computation: the histogram that `imgpar histo` counts, the summed-area
// table of `imgpar integral`, the figures of `imgpar stats`.
struct BenchCase {
    std::string name;                     // "blur sigma=2", "histo channels"
    std::string operation;                // the catalog's name: "blur", ..., "histo", "integral", "stats"
    std::optional<ParamValues> values;    // the example's parameters (catalog cases)
    std::shared_ptr<const ImageJob> job;  // catalog cases
    bool histogram_luma = false;          // histo: also the luma plane, as `imgpar histo` counts
    bool integral_squared = false;        // integral: also the table of squares (--squared)
};

// Every ImageToImage operation's examples marked for the benchmark, in the
// catalog's order, then the histograms, the summed-area tables and the
// statistics.
std::vector<BenchCase> bench_cases();

// One case made ready on one image: its buffers are allocated, so `run`
// times the work only.
struct PreparedRun {
    std::function<void()> run;  // empty: no such run (no OpenCV peer)
    std::string note;           // what runs, for the table's note
    // The image `run` made, to compare imgpar's with the peer's where both
    // compute the same thing; empty otherwise. Called after the runs.
    std::function<ConstViewU8()> output;
};

// imgpar's CPU backend on `src` (which must outlive the result).
PreparedRun prepare_imgpar(const BenchCase& c, ConstViewU8 src);

// OpenCV's equivalent on the same pixels (wrapped, not copied), or an empty
// run where OpenCV has none or is not built in (bench/cpu/no_opencv.cpp).
PreparedRun prepare_opencv(const BenchCase& c, ConstViewU8 src);
// "OpenCV 4.6.0", or "" without OpenCV.
std::string opencv_version();
// cv::setNumThreads; nothing without OpenCV.
void set_opencv_threads(int threads);

// One row of the table.
struct ResultRow {
    std::string name;
    std::string image;
    double megapixels = 0;
    double imgpar_ms = 0;
    double opencv_ms = -1;  // < 0: no peer
    std::string note;
};

// The table's header line: CPU model, cores, threads, OpenCV's version.
void print_header(const Options& options, int threads);
void print_table(const std::vector<ResultRow>& rows);

}  // namespace imgpar::cpu_bench
