// The report: a header line saying where it ran, then a markdown table (the
// form of bench/RESULTS.md).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "bench/cpu/cpu_bench.hpp"

namespace imgpar::cpu_bench {
namespace {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "unknown CPU";
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Three significant figures or so: 0.412, 41.2, 412.
std::string ms_text(double ms) { return fixed(ms, ms < 1 ? 3 : ms < 100 ? 1 : 0); }

}  // namespace

void print_header(const Options& options, int threads) {
    const std::string opencv = opencv_version();
    std::printf("# imgpar_cpu_bench on %s, %u cores, %d threads, %s; median of %d runs after one warm-up, "
                "imgpar's and OpenCV's alternating%s\n\n",
                cpu_model().c_str(), std::thread::hardware_concurrency(), threads,
                opencv.empty() ? "OpenCV not found" : opencv.c_str(), options.runs,
                options.quick ? " [--quick: not for reporting]" : "");
}

void print_table(const std::vector<ResultRow>& rows) {
    std::printf("| case | image | imgpar ms | MP/s | OpenCV ms | OpenCV/imgpar | note |\n");
    std::printf("|---|---|---:|---:|---:|---:|---|\n");
    for (const ResultRow& r : rows) {
        const bool peer = r.opencv_ms >= 0;
        std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.name.c_str(), r.image.c_str(),
                    ms_text(r.imgpar_ms).c_str(), fixed(r.megapixels / (r.imgpar_ms * 1e-3), 0).c_str(),
                    peer ? ms_text(r.opencv_ms).c_str() : "-", peer ? fixed(r.opencv_ms / r.imgpar_ms, 2).c_str() : "-",
                    r.note.c_str());
    }
    std::printf("\nOpenCV/imgpar above 1 means imgpar is faster. MP/s: megapixels of the image per second of\n"
                "imgpar's time. Both write into outputs made before timing unless the note says otherwise.\n");
}

}  // namespace imgpar::cpu_bench
