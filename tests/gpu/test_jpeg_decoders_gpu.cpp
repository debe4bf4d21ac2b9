// A batch's JPEG decoders on the GPU, run through the built tool: with
// --jpeg-decoder gpu every baseline file in one scan is Huffman-decoded on
// the GPU, auto shares the files between the GPU and the cores; either way
// every output is the CPU backend's, byte for byte, damaged files get
// libjpeg-turbo's warnings and errors (the GPU sends them back to it), and
// the records and -v say which decoder took each file.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "src/io/jpeg_scan.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/jpeg_scan_damage.hpp"
#include "tests/support/test_images.hpp"

#if IMGPAR_TEST_LIBJPEG
#include "tests/support/jpeg_encodings.hpp"
#include "tests/support/jpeg_reference.hpp"
#endif

using namespace imgpar;
using test::run_imgpar;
using test::TempDir;

#if IMGPAR_TEST_LIBJPEG
namespace {

using Bytes = std::vector<std::uint8_t>;

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// The record of input `name` among --json's lines.
std::string record_of(const std::string& out, const std::string& name) {
    for (const std::string& line : test::lines(out))
        if (has(line, "\"input\":\"" + name + "\"")) return line;
    return "";
}

struct Batch {
    std::vector<std::string> names;
    std::vector<std::string> damaged;  // of those, the ones whose scans the walk finds unclean
    std::string progressive;
};

// Baseline files in every layout, odd sizes, restart intervals; damaged
// copies; one progressive file.
Batch write_batch(const TempDir& dir) {
    Batch b;
    b.names.push_back("first.jpg");
    const std::vector<std::uint8_t> first = test::encode(test::photo_like_image(64, 48, 3, 1), test::Encoding{});
    test::write_bytes(dir.file("first.jpg"), std::string(first.begin(), first.end()));
    const int layouts[][3] = {{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}};
    std::vector<Bytes> clean;
    for (int i = 0; i < 16; ++i) {
        const int* l = layouts[i % 4];
        test::Encoding e;
        e.quality = 50 + 3 * i;
        e.h = l[1];
        e.v = l[2];
        e.optimize = i % 3 == 0;
        e.restart_mcus = i % 5 == 2 ? 7 : 0;
        const Bytes bytes = test::encode(test::photo_like_image(123 + 61 * i, 77 + 37 * i, l[0], 600u + static_cast<unsigned>(i)), e);
        clean.push_back(bytes);
        b.names.push_back("ok" + std::to_string(i) + ".jpg");
        test::write_bytes(dir.file(b.names.back()), std::string(bytes.begin(), bytes.end()));
    }
    std::mt19937 rng(2026);
    for (int i = 0; i < 12; ++i) {
        const Bytes bytes = test::damage_scan(clean[static_cast<std::size_t>(i)], rng);
        b.names.push_back("bad" + std::to_string(i) + ".jpg");
        if (!jpeg_scan_is_clean(bytes.data(), bytes.size())) b.damaged.push_back(b.names.back());
        test::write_bytes(dir.file(b.names.back()), std::string(bytes.begin(), bytes.end()));
    }
    const ImageU8 img = test::photo_like_image(301, 203, 3, 5);
    const Bytes progressive = test::compress_to_memory(
        img.width(), img.height(), 3, JCS_RGB,
        [](jpeg_compress_struct& c) {
            jpeg_set_quality(&c, 85, TRUE);
            jpeg_simple_progression(&c);
        },
        [&](jpeg_compress_struct& c) {
            jpeg_start_compress(&c, TRUE);
            test::write_rows(c, img.data(), img.view().stride);
        });
    b.progressive = "progressive.jpg";
    b.names.push_back(b.progressive);
    test::write_bytes(dir.file(b.progressive), std::string(progressive.begin(), progressive.end()));
    return b;
}

// Runs the batch with `decoder` into out/ and the CPU backend into cpu/:
// the same exit code, the same files, byte for byte, the same warnings.
test::RunResult run_and_compare(const TempDir& dir, const Batch& b, const std::string& decoder) {
    const std::string out = "out_" + decoder;
    // One worker, the first file a spare: it decodes on the host while CUDA
    // starts, the others once the GPU is up (with a worker each they would
    // all decode while it starts).
    std::vector<std::string> gpu = {"blur", "--sigma", "1.5", "--device", "gpu", "--jpeg-decoder", decoder,
                                    "--output", out + "/{stem}.png", "--json", "-v", "--jobs", "1"};
    std::vector<std::string> cpu = {"blur", "--sigma", "1.5", "--device", "cpu", "--output", "cpu/{stem}.png"};
    gpu.insert(gpu.end(), b.names.begin(), b.names.end());
    cpu.insert(cpu.end(), b.names.begin(), b.names.end());
    const test::RunResult g = run_imgpar(gpu, dir.path());
    const test::RunResult c = run_imgpar(cpu, dir.path());
    CAPTURE(g.err);
    CHECK(g.exit_code == c.exit_code);
    for (const std::string& name : b.names) {
        CAPTURE(name);
        const std::string stem = name.substr(0, name.size() - 4);
        const bool made = std::filesystem::exists(dir.file("cpu/" + stem + ".png"));
        REQUIRE(std::filesystem::exists(dir.file(out + "/" + stem + ".png")) == made);
        if (made) CHECK(test::read_bytes(dir.file(out + "/" + stem + ".png")) == test::read_bytes(dir.file("cpu/" + stem + ".png")));
        // libjpeg-turbo's words about a damaged file, whichever decoder it met first.
        const bool gpu_said = has(g.err, name + ": ") || has(record_of(g.out, name), "\"ok\":false");
        CHECK(gpu_said == has(c.err, name + ": "));
    }
    return g;
}

}  // namespace

TEST_CASE("gpu jpeg decoders: --jpeg-decoder gpu Huffman-decodes every baseline file on the GPU, to the CPU's bytes") {
    TempDir dir;
    const Batch b = write_batch(dir);
    REQUIRE(b.damaged.size() >= 3);
    const test::RunResult g = run_and_compare(dir, b, "gpu");
    for (int i = 0; i < 16; ++i) {
        const std::string name = "ok" + std::to_string(i) + ".jpg";
        CAPTURE(name);
        CHECK(has(record_of(g.out, name), "\"jpeg_decoder\":\"gpu\""));
    }
    for (const std::string& name : b.damaged) {
        CAPTURE(name);
        const std::string r = record_of(g.out, name);
        CHECK(!has(r, "\"jpeg_decoder\":\"gpu\""));  // sent back to the cores, or failed there
    }
    CHECK(!has(record_of(g.out, b.progressive), "\"jpeg_decoder\""));  // decoded on the host
    CHECK(has(g.err, "Huffman-decoded on the GPU"));
    CHECK(has(g.err, "sent back from the GPU's Huffman decoding to the cores"));
    CHECK(has(g.err, "read+decode (gpu, Huffman decoding on the GPU)"));
}

TEST_CASE("gpu jpeg decoders: auto shares the Huffman decoding between the GPU and the cores, to the CPU's bytes") {
    TempDir dir;
    const Batch b = write_batch(dir);
    const test::RunResult g = run_and_compare(dir, b, "auto");
    int on_gpu = 0, split = 0;
    for (int i = 0; i < 16; ++i) {
        const std::string r = record_of(g.out, "ok" + std::to_string(i) + ".jpg");
        on_gpu += has(r, "\"jpeg_decoder\":\"gpu\"") ? 1 : 0;
        split += has(r, "\"jpeg_decoder\":\"split\"") ? 1 : 0;
    }
    // Which file takes which depends on timing; every clean file is one or the other.
    CHECK(on_gpu + split == 16);
    CHECK(has(g.err, "JPEG decoders: "));
    // No slot for the GPU: every scan on the cores.
    const test::RunResult cores =
        test::run_imgpar_in_locale({"IMGPAR_GPU_HUFFMAN_SLOTS=0"},
                                   {"blur", "--sigma", "1.5", "--device", "gpu", "--output", "slots0/{stem}.png", "--json",
                                    "--jobs", "1", "first.jpg", "ok0.jpg", "ok1.jpg", "ok2.jpg"},
                                   dir.path());
    REQUIRE(cores.exit_code == 0);
    for (const char* name : {"ok0.jpg", "ok1.jpg", "ok2.jpg"}) CHECK(has(record_of(cores.out, name), "\"jpeg_decoder\":\"split\""));
}

#else
TEST_CASE("gpu jpeg decoders: a batch's decoders (not checked: this build has no libjpeg-turbo)") {}
#endif
