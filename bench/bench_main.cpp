// imgpar_bench: times imgpar's GPU kernels against a device copy of the same
// bytes and against NPP/CUB where installed, all in one run, and prints a table.
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/bench.hpp"
#include "cuda/check.hpp"
#include "src/error.hpp"
#include "src/gpu_runtime.hpp"

using namespace imgpar;

// A table cell's text with its pipes escaped, so a name like "|a-b|" stays in
// its column when the table is read as Markdown.
static std::string cell(const std::string& text) {
    std::string out;
    for (char ch : text) {
        if (ch == '|') out += '\\';
        out += ch;
    }
    return out;
}

static void print_usage() {
    std::printf(
        "usage: imgpar_bench [--quick] [--no-cpu] [--no-npp-filters] [--only TEXT] [--list]\n"
        "  --quick      fewer timed runs (a smoke test, not for reporting)\n"
        "  --no-cpu     do not time the CPU reference\n"
        "  --no-npp-filters  do not time NPP's filters (quicker A/B runs of imgpar's own)\n"
        "  --only TEXT  run only the cases whose name contains TEXT\n"
        "  --operations A,B  the operations case times only these operations (e.g. resize,thumbnail)\n"
        "  --param NAME=VALUE  the operations case sets this parameter in every example of an operation\n"
        "               that has it (e.g. border=constant), and says so in the row's name\n"
        "  --list       list the cases and exit\n");
}

static std::string fmt(double v, const char* f) {
    if (std::isnan(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

int main(int argc, char** argv) {
    bench::Options opt;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--quick") opt.quick = true;
        else if (a == "--no-cpu") opt.cpu = false;
        else if (a == "--no-npp-filters") opt.npp_filters = false;
        else if (a == "--only" && i + 1 < argc) opt.only = argv[++i];
        else if (a == "--operations" && i + 1 < argc) {
            std::string list = argv[++i];
            for (std::size_t at = 0; at <= list.size();) {
                const std::size_t comma = std::min(list.find(',', at), list.size());
                if (comma > at) opt.operations.push_back(list.substr(at, comma - at));
                at = comma + 1;
            }
        }
        else if (a == "--param" && i + 1 < argc && std::string(argv[i + 1]).find('=') != std::string::npos) {
            const std::string p = argv[++i];
            const std::size_t eq = p.find('=');
            opt.params.emplace_back(p.substr(0, eq), p.substr(eq + 1));
        }
        else if (a == "--list") {
            for (auto& c : bench::registry()) std::printf("%s\n", c.name);
            return 0;
        } else if (a == "-h" || a == "--help") {
            print_usage();
            return 0;
        } else {
            std::fprintf(stderr, "imgpar_bench: unknown argument '%s'\n", a.c_str());
            print_usage();
            return 2;
        }
    }
    const GpuStatus& gs = gpu_status();
    if (!gs.usable()) {
        std::fprintf(stderr, "imgpar_bench: no usable GPU: %s\n", gs.reason.c_str());
        return 1;
    }
    const GpuInfo& g = gs.devices[0];
    std::printf("# imgpar_bench on %s (compute %d.%d, %d SMs, %.1f GiB), driver CUDA %s, runtime %s%s\n",
                g.name.c_str(), g.compute_major, g.compute_minor, g.multiprocessors, g.total_memory / 1073741824.0,
                cuda_version_string(gs.driver_version).c_str(), cuda_version_string(gs.runtime_version).c_str(),
                opt.quick ? " [--quick: not for reporting]" : "");
    try {
        bench::Context ctx(opt);
        for (auto& c : bench::registry()) {
            if (!opt.only.empty() && std::string(c.name).find(opt.only) == std::string::npos) continue;
            std::fprintf(stderr, "running %s...\n", c.name);
            c.fn(ctx);
        }
        std::printf("\n| case | image | GPU ms | GB/s | x copy | copy ms | CPU ms | peer | peer ms | peer/GPU |\n");
        std::printf("|---|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
        for (const auto& r : ctx.rows()) {
            double gbs = r.bytes / (r.gpu.median_ms * 1e-3) / 1e9;
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s%s\n", cell(r.name).c_str(), cell(r.image).c_str(),
                        fmt(r.gpu.median_ms, "%.4f").c_str(), fmt(gbs, "%.0f").c_str(),
                        fmt(r.gpu.median_ms / r.copy_ms, "%.2f").c_str(), fmt(r.copy_ms, "%.4f").c_str(),
                        fmt(r.cpu_ms, "%.1f").c_str(), r.peer.empty() ? "-" : cell(r.peer).c_str(),
                        fmt(r.peer_ms, "%.4f").c_str(), fmt(r.peer_ms / r.gpu.median_ms, "%.1f").c_str(),
                        r.note.empty() ? "" : " ", cell(r.note).c_str());
        }
        std::printf("\nGB/s counts the bytes the operation must read and write once; 'x copy' is GPU time over a\n"
                    "device-to-device copy of those bytes measured in this run (1.00 = the memory roofline).\n");
    } catch (const Error& e) {
        std::fprintf(stderr, "imgpar_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
