// Chains on the GPU against the CPU: every ordered pair of the declared image
// operations (each example of each), longer chains of 3 to 5 stages on odd
// sizes, gray and alpha, through the same stage runners the engine uses (one
// upload, the stages alternating between the session's slots, one download);
// then the built tool's `chain` on files, where a batch decodes JPEGs split
// and encodes them on the GPU, and chains that end in a report or an array.
#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/io/save.hpp"
#include "src/op/operation.hpp"
#include "src/run/chain.hpp"
#include "src/run/pipeline.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// Every example of every image operation, as a stage.
struct StageSpec {
    const Operation* op;
    const Example* example;
};
std::vector<StageSpec> image_stages() {
    std::vector<StageSpec> all;
    for (const Operation& op : operations())
        if (op.kind == OperationKind::ImageToImage)
            for (const Example& e : op.examples) all.push_back({&op, &e});
    return all;
}

Chain chain_of(const std::vector<StageSpec>& specs) {
    Chain chain;
    for (const StageSpec& s : specs)
        chain.add(Stage{s.op, s.op->make_image_job(s.op->values(s.example->values)), s.op->name + " " + s.example->label});
    return chain;
}

std::string label_of(const std::vector<StageSpec>& specs) {
    std::string t;
    for (const StageSpec& s : specs) t += (t.empty() ? "" : " | ") + s.op->name + " (" + s.example->label + ")";
    return t;
}

// A report without what differs between backends: the backend, the kernels
// and the stages' times.
std::string comparable(const std::string& json) {
    static const std::regex ms(R"RE("ms":[-0-9.eE+]+,?)RE");
    return std::regex_replace(test::without_backend(json), ms, "");
}

ImageU8 input(int w, int h, int c, unsigned seed) {
    return has_alpha(c) ? test::alpha_image(w, h, c, seed) : test::photo_like_image(w, h, c, seed);
}

// The chain on both backends: the same bytes, the same records, or the same
// refusal (a stage whose window does not fit the image it gets).
int check_chain(const std::vector<StageSpec>& specs, const ImageU8& img) {
    const Chain chain = chain_of(specs);
    std::string refused;
    try {
        (void)chain.shapes({img.width(), img.height(), img.channels(), SampleType::U8}, "image");
    } catch (const Error& e) {
        refused = e.what();
    }
    if (!refused.empty()) {
        CHECK_THROWS_WITH(run_chain(chain, test::gpu_backend(), img.view()), refused.c_str());
        return 0;
    }
    std::vector<StageRecord> cpu_records, gpu_records;
    const ImageU8 want = run_chain(chain, BackendChoice{}, img.view(), &cpu_records);
    const ImageU8 got = run_chain(chain, test::gpu_backend(), img.view(), &gpu_records);
    IMGPAR_CHECK_IMAGES_EQUAL(want, got);
    REQUIRE(cpu_records.size() == gpu_records.size());
    for (std::size_t i = 0; i < cpu_records.size(); ++i) {
        CHECK(cpu_records[i].details.str() == gpu_records[i].details.str());
        CHECK(cpu_records[i].output == gpu_records[i].output);
        CHECK_FALSE(gpu_records[i].kernel.empty());
        CHECK(gpu_records[i].ms >= 0);
    }
    return 1;
}

}  // namespace

TEST_CASE("gpu chain: every ordered pair of image operations, each example of each, gives the CPU's bytes on every layout") {
    const std::vector<StageSpec> stages = image_stages();
    REQUIRE(stages.size() >= 7);
    // Pairs of operations: every example of the first with the second's first
    // example, and the first's first with every example of the second; each
    // pair on two of the eight layouts and sizes, in turn.
    std::vector<std::vector<StageSpec>> pairs;
    for (const StageSpec& a : stages)
        for (const StageSpec& b : stages) {
            const bool a_first = a.example == &a.op->examples.front(), b_first = b.example == &b.op->examples.front();
            if (a_first || b_first) pairs.push_back({a, b});
        }
    const std::pair<int, int> sizes[] = {{23, 19}, {131, 67}};
    int runs = 0, variant = 0;
    for (const std::vector<StageSpec>& pair : pairs)
        for (int k = 0; k < 2; ++k, ++variant) {
            const int c = 1 + variant % 4;
            const auto [w, h] = sizes[(variant / 4) % 2];
            CAPTURE(label_of(pair));
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            runs += check_chain(pair, input(w, h, c, static_cast<unsigned>(variant)));
        }
    MESSAGE(runs, " two-stage chains compared (", pairs.size(), " pairs of examples)");
}

TEST_CASE("gpu chain: chains of 3 to 5 stages on odd sizes, gray and alpha give the CPU's bytes") {
    const std::vector<StageSpec> stages = image_stages();
    const std::pair<int, int> sizes[] = {{1, 1},   {1, 29},   {29, 1},   {2, 3},    {13, 7},   {31, 33},
                                         {63, 65}, {127, 129}, {257, 31}, {401, 397}, {1031, 17}};
    std::mt19937 rng(49);
    int runs = 0;
    for (const auto& [w, h] : sizes)
        for (int c = 1; c <= 4; ++c)
            for (int k = 0; k < 6; ++k) {
                std::vector<StageSpec> specs(3 + rng() % 3);
                for (StageSpec& s : specs) s = stages[rng() % stages.size()];
                CAPTURE(label_of(specs));
                CAPTURE(c);
                CAPTURE(w);
                CAPTURE(h);
                runs += check_chain(specs, input(w, h, c, static_cast<unsigned>(w * 7 + h + c + k)));
            }
    // A photo-sized one, larger than the staging buffers.
    const std::vector<StageSpec> big{stages[0], stages[stages.size() / 2], stages.back()};
    runs += check_chain(big, input(2111, 1409, 3, 5));
    MESSAGE(runs, " longer chains compared");
}

TEST_CASE("gpu chain: the built tool's chain gives the CPU's files, one file and a JPEG batch (split decode, GPU "
          "encoder), and the same reports and arrays") {
    test::TempDir dir;
    std::vector<std::string> inputs;
    for (int i = 0; i < 6; ++i) {
        const ImageU8 img = input(181 + 37 * i, 97 + 23 * i, i % 2 ? 3 : 1, 300 + i);
        const std::string name = "in" + std::to_string(i) + ".jpg";
        std::vector<std::string> warnings;
        save_image(dir.file(name), img.view(), SaveOptions{}, warnings);
        inputs.push_back(name);
    }
    const std::string chain = "blur --sigma 1.5 | sharpen --amount 2 | equalize";
    for (const char* device : {"cpu", "gpu"}) {
        std::vector<std::string> args = {"chain", chain, "--device", device, "--out-dir", std::string("out_") + device};
        args.insert(args.end(), inputs.begin(), inputs.end());
        const test::RunResult r = test::run_imgpar(args, dir.path());
        REQUIRE(r.exit_code == 0);
        const test::RunResult one = test::run_imgpar({"chain", chain + " | threshold --otsu", "--device", device, inputs[1],
                                                std::string("one_") + device + ".png"},
                                               dir.path());
        REQUIRE(one.exit_code == 0);
    }
    for (const std::string& name : inputs)
        CHECK(test::read_bytes(dir.file("out_cpu/" + name)) == test::read_bytes(dir.file("out_gpu/" + name)));
    CHECK(test::read_bytes(dir.file("one_cpu.png")) == test::read_bytes(dir.file("one_gpu.png")));

    // Split decoding and the GPU encoder were used, and every stage is in the
    // record. One worker: every file after the first reaches its decode once
    // the GPU is up (the first decodes on the cores while CUDA starts).
    std::vector<std::string> args = {"chain", chain, "--device", "gpu", "--out-dir", "out_json", "--json", "--jobs", "1"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const test::RunResult json = test::run_imgpar(args, dir.path());
    REQUIRE(json.exit_code == 0);
    CHECK(json.out.find("\"decoded_on\":\"gpu\"") != std::string::npos);
    CHECK(json.out.find("\"encoded_on\":\"gpu\"") != std::string::npos);
    CHECK(json.out.find("\"name\":\"sharpen\"") != std::string::npos);

    for (const std::string last : {"histo", "stats"}) {
        CAPTURE(last);
        std::vector<std::string> report = {"chain", chain + " | " + last, "--json"};
        report.insert(report.end(), inputs.begin(), inputs.end());
        std::vector<std::string> on_cpu = report, on_gpu = report;
        on_cpu.insert(on_cpu.end(), {"--device", "cpu"});
        on_gpu.insert(on_gpu.end(), {"--device", "gpu"});
        const test::RunResult a = test::run_imgpar(on_cpu, dir.path());
        const test::RunResult b = test::run_imgpar(on_gpu, dir.path());
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        CHECK(a.out.find("\"stages\"") != std::string::npos);
        CHECK(comparable(a.out) == comparable(b.out));
    }
    for (const char* device : {"cpu", "gpu"})
        REQUIRE(test::run_imgpar({"chain", "box --radius 2 | integral --squared", "--device", device, inputs[3],
                            std::string("t_") + device + ".npy"},
                           dir.path())
                    .exit_code == 0);
    CHECK(test::read_bytes(dir.file("t_cpu.npy")) == test::read_bytes(dir.file("t_gpu.npy")));
}
