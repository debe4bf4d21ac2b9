// imgpar_cpu_bench: times imgpar's CPU backend on every operation the catalog
// marks for the benchmark (and the histogram), each beside OpenCV's
// equivalent where OpenCV is built in, on the same pixels and the same number
// of threads, and prints a markdown table. CPU only: it runs on machines
// without a GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/cpu/cpu_bench.hpp"
#include "bench/photo_like.hpp"
#include "src/parallel.hpp"

using namespace imgpar;
using namespace imgpar::cpu_bench;

namespace {

void print_usage(std::FILE* to) {
    std::fprintf(to,
                 "usage: imgpar_cpu_bench [--threads N] [--runs N] [--only TEXT] [--quick] [--list]\n"
                 "  --threads N  threads for imgpar and OpenCV alike (default: every core, or IMGPAR_THREADS)\n"
                 "  --runs N     timed runs per case after one warm-up; the median is reported (default 5)\n"
                 "  --only TEXT  run only the cases whose name contains TEXT\n"
                 "  --quick      4096x4096 RGB only, one timed run (a smoke test, not for reporting)\n"
                 "  --list       list the cases and exit\n"
                 "OpenCV's column: %s\n",
                 IMGPAR_HAVE_OPENCV ? "built in" : "not built (install libopencv-imgproc-dev and reconfigure)");
}

// A whole decimal number from 1 to `max`, or 0.
int parse_count(const std::string& text, int max) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    const int n = std::atoi(text.c_str());
    return n <= max ? n : 0;
}

double elapsed_ms(const std::function<void()>& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double median(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// The medians of `runs` calls of `mine` and of `peer` (-1 when it is empty),
// each after one untimed call (first touch of the output, caches,
// thread start-up). The calls alternate, so that a change in the load of a
// shared machine falls on both sides instead of on one.
std::pair<double, double> median_ms(const std::function<void()>& mine, const std::function<void()>& peer, int runs) {
    mine();
    if (peer) peer();
    std::vector<double> mine_ms, peer_ms;
    for (int i = 0; i < runs; ++i) {
        mine_ms.push_back(elapsed_ms(mine));
        if (peer) peer_ms.push_back(elapsed_ms(peer));
    }
    return {median(mine_ms), peer ? median(peer_ms) : -1.0};
}

// The largest difference between two images of one shape, or -1 when their
// shapes differ.
int max_difference(ConstViewU8 a, ConstViewU8 b) {
    if (!same_shape(a, b)) return -1;
    int worst = 0;
    for (int y = 0; y < a.height; ++y) {
        const std::uint8_t* ra = a.row(y);
        const std::uint8_t* rb = b.row(y);
        for (std::size_t i = 0; i < a.row_samples(); ++i) worst = std::max(worst, std::abs(ra[i] - rb[i]));
    }
    return worst;
}

ResultRow time_case(const BenchCase& c, const BenchImage& image, ConstViewU8 src, int runs) {
    ResultRow row;
    row.name = c.name;
    row.image = image.label;
    row.megapixels = static_cast<double>(image.width) * image.height / 1e6;
    const PreparedRun mine = prepare_imgpar(c, src);
    const PreparedRun peer = prepare_opencv(c, src);
    std::tie(row.imgpar_ms, row.opencv_ms) = median_ms(mine.run, peer.run, runs);
    row.note = mine.note;
    if (peer.run) {
        row.note += "; OpenCV: " + peer.note;
        if (peer.output && mine.output) {
            const int diff = max_difference(mine.output(), peer.output());
            if (diff == 0) row.note += "; same bytes";
            else if (diff > 0) row.note += "; bytes differ by up to " + std::to_string(diff);
        }
    }
    return row;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--quick") {
            options.quick = true;
        } else if (a == "--list") {
            list = true;
        } else if (a == "--only" && has_value) {
            options.only = argv[++i];
        } else if ((a == "--threads" || a == "--runs") && has_value) {
            const int n = parse_count(argv[++i], a == "--threads" ? 256 : 1000);
            if (n == 0) {
                std::fprintf(stderr, "imgpar_cpu_bench: %s takes a whole number from 1 to %d (got '%s')\n", a.c_str(),
                             a == "--threads" ? 256 : 1000, argv[i]);
                return 2;
            }
            (a == "--threads" ? options.threads : options.runs) = n;
        } else if (a == "-h" || a == "--help") {
            print_usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "imgpar_cpu_bench: unknown argument '%s'\n", a.c_str());
            print_usage(stderr);
            return 2;
        }
    }
    if (options.quick) options.runs = 1;

    try {
        std::vector<BenchCase> cases;
        for (BenchCase& c : bench_cases())
            if (options.only.empty() || c.name.find(options.only) != std::string::npos) cases.push_back(std::move(c));
        if (list) {
            for (const BenchCase& c : cases) std::printf("%s\n", c.name.c_str());
            return 0;
        }
        if (cases.empty()) {
            std::fprintf(stderr, "imgpar_cpu_bench: no case name contains '%s' (--list lists them)\n",
                         options.only.c_str());
            return 2;
        }
        const int threads = options.threads > 0 ? options.threads : default_cpu_thread_count();
        set_cpu_thread_count(threads);
        set_opencv_threads(threads);
        print_header(options, threads);

        std::vector<ResultRow> rows;
        for (const BenchImage& image : kBenchImages) {
            const ImageU8 source = bench::make_photo_like(image.width, image.height, image.channels, 5);
            for (const BenchCase& c : cases) {
                std::fprintf(stderr, "%s, %s...\n", c.name.c_str(), image.label);
                rows.push_back(time_case(c, image, source.view(), options.runs));
            }
            if (options.quick) break;
        }
        print_table(rows);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "imgpar_cpu_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
