// imgpar_jpeg_costs: what each way of decoding a JPEG costs one core, over
// the files given: the split decoder's core side (the coefficients read out
// by libjpeg-turbo's entropy decoder, src/io/jpeg_coefficients.hpp), a whole
// decode, and shrink-on-load at 1/2, 1/4 and 1/8 (src/io/load.hpp). It says
// whether moving a step of a decode to the GPU takes work off the cores:
// only what a core no longer does counts.
//
//   imgpar_jpeg_costs FILE.jpg...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/load.hpp"
#include "src/parallel.hpp"

using namespace imgpar;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Costs {
    double coefficients = 0, whole = 0, shrink[3] = {0, 0, 0};  // shrink 2, 4, 8
    double split_whole = 0, split_shrink[3] = {0, 0, 0};       // of the files the split decoder takes
    int files = 0, split_files = 0;
    double megapixels = 0;
};

// One file's decodes, each the best of three (the file's bytes in memory).
void measure(const std::string& path, Costs& c) {
    const std::vector<std::uint8_t> bytes = read_file_bytes(path, {});
    LoadOptions options;
    const ImageHeader header = read_image_header(path, bytes, options);
    if (header.format != ImageFormat::Jpeg) throw input_error(path, "not a JPEG");
    const auto best = [](auto&& run) {
        double t = 1e30;
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            run();
            t = std::min(t, seconds_since(t0));
        }
        return t;
    };
    const bool split = jpeg_coefficients_suit(bytes.data(), bytes.size());
    if (split) {
        std::vector<std::string> warnings;
        c.coefficients += best([&] { jpeg_read_coefficients(path, bytes, header.width, header.height, warnings); });
        ++c.split_files;
    }
    const double whole = best([&] { decode_image(path, bytes, header, options); });
    c.whole += whole;
    c.split_whole += split ? whole : 0;
    const int shrinks[3] = {2, 4, 8};
    for (int i = 0; i < 3; ++i) {
        const double t = best([&] { decode_image(path, bytes, header, options, shrinks[i]); });
        c.shrink[i] += t;
        c.split_shrink[i] += split ? t : 0;
    }
    ++c.files;
    c.megapixels += static_cast<double>(header.width) * header.height / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: imgpar_jpeg_costs FILE.jpg...\n");
        return 2;
    }
    CpuThreadLimit one_core(1);
    Costs c;
    for (int i = 1; i < argc; ++i) {
        try {
            measure(argv[i], c);
        } catch (const Error& e) {
            std::fprintf(stderr, "%s\n", e.what());
            return 1;
        }
    }
    const auto ms = [](double s, int files) { return files ? 1000.0 * s / files : 0.0; };
    std::printf("# %d JPEGs, mean %.2f MP; one core, best of 3 per file; ms per file\n\n", c.files, c.megapixels / c.files);
    std::printf("| decode | all files: ms | / whole | the %d the split decoder takes: ms | / whole |\n", c.split_files);
    std::printf("|---|---:|---:|---:|---:|\n");
    const auto row = [&](const char* name, double all, double split) {
        std::printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", name, ms(all, c.files), all / c.whole, ms(split, c.split_files),
                    c.split_whole > 0 ? split / c.split_whole : 0.0);
    };
    row("whole (libjpeg-turbo)", c.whole, c.split_whole);
    if (c.split_files > 0)
        std::printf("| coefficients only (the split decoder's core side) | - | - | %.2f | %.2f |\n",
                    ms(c.coefficients, c.split_files), c.coefficients / c.split_whole);
    const char* names[3] = {"shrink-on-load 1/2", "shrink-on-load 1/4", "shrink-on-load 1/8"};
    for (int i = 0; i < 3; ++i) row(names[i], c.shrink[i], c.split_shrink[i]);
    return 0;
}
