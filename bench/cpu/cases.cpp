// The cases, read from the operation catalog (src/op/catalog.cpp) as the GPU
// benchmark reads them: an operation added there, or an example marked for
// the benchmark, is timed here without a case of its own. The catalog's
// benchmark examples already hold the targets of the CPU work (Gaussian
// sigma 2, 5 and 20, box radius 15 and 50, Sobel, custom 5x5 and 15x15,
// equalize); the histogram, the summed-area table and the statistics are
// reports, so their cases are added here.
#include "bench/cpu/cpu_bench.hpp"

namespace imgpar::cpu_bench {

std::vector<BenchCase> bench_cases() {
    std::vector<BenchCase> cases;
    for (const Operation& op : operations()) {
        if (op.kind != OperationKind::ImageToImage) continue;
        for (const Example& e : op.examples) {
            if (!e.benchmark) continue;
            BenchCase c;
            c.name = op.name + " " + e.label;
            c.operation = op.name;
            c.values = op.values(e.values);
            c.job = op.make_image_job(*c.values);
            cases.push_back(std::move(c));
        }
    }
    // The channels alone (OpenCV's calcHist counts those), and with the luma
    // plane, as `imgpar histo` counts colour images.
    BenchCase channels;
    channels.name = "histo channels";
    channels.operation = "histo";
    cases.push_back(channels);
    BenchCase with_luma = channels;
    with_luma.name = "histo channels+luma";
    with_luma.histogram_luma = true;
    cases.push_back(with_luma);
    // The table in --dtype auto's type (OpenCV's peer in the same depth where
    // it has one), alone and with the squares, and every figure of stats.
    BenchCase sums;
    sums.name = "integral sums";
    sums.operation = "integral";
    cases.push_back(sums);
    BenchCase with_squares = sums;
    with_squares.name = "integral sums+squares";
    with_squares.integral_squared = true;
    cases.push_back(with_squares);
    BenchCase stats;
    stats.name = "stats";
    stats.operation = "stats";
    cases.push_back(stats);
    return cases;
}

}  // namespace imgpar::cpu_bench
