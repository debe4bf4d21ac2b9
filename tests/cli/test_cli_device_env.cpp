// End-to-end: IMGPAR_DEVICE sets --device's default (a machine without a GPU
// says cpu once), --device on the command line wins, and a bad value is a
// usage error naming the variable. Under --device auto without a usable GPU
// the run says so in one short line, once, naming the setting that skips it;
// -v gives the reason. CUDA_VISIBLE_DEVICES='' hides any GPU, so this runs
// alike on machines with and without one.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::run_imgpar_in_locale;
using test::TempDir;

namespace {

const std::string kNoGpu = "CUDA_VISIBLE_DEVICES=";

// A batch that --device auto sends to the GPU, cheaply: its first file, a
// 1 MP JPEG under a wide blur on one thread, stands for the 60 others in the
// estimate (so about 5 s on the CPU against 1 s with the GPU), while the
// others are 8x8 and take no time.
std::vector<std::string> gpu_sized_batch(const TempDir& dir) {
    std::vector<std::string> warnings;
    save_image(dir.file("a.jpg"), test::photo_like_image(1024, 1024, 3).view(), SaveOptions{}, warnings);
    std::vector<std::string> args = {"blur", "--threads", "1", "--sigma", "50", "--out-dir", dir.file("out"),
                                     dir.file("a.jpg")};
    for (int i = 0; i < 60; ++i) {
        const std::string name = dir.file("t" + std::to_string(i) + ".png");
        save_image(name, test::constant_image(8, 8, 1, 100).view(), SaveOptions{}, warnings);
        args.push_back(name);
    }
    return args;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

TEST_CASE("cli IMGPAR_DEVICE: sets --device's default; --device wins; a bad value is a usage error naming it") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    auto r = run_imgpar_in_locale({"IMGPAR_DEVICE=gpu:x"}, {"blur", in, dir.file("a.png")});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(has(r.err, "IMGPAR_DEVICE: 'gpu:x' is not a device (allowed: auto, cpu, gpu"), r.err);
    CHECK(dir.entries().empty());
    r = run_imgpar_in_locale({"IMGPAR_DEVICE=gpu:x"}, {"blur", in, dir.file("a.png"), "--device", "cpu"});
    CHECK_MESSAGE(r.exit_code == 0, r.err);

    // gpu from the environment behaves as --device gpu: exit 3 without one.
    r = run_imgpar_in_locale({kNoGpu, "IMGPAR_DEVICE=gpu"}, {"blur", in, dir.file("b.png")});
    CHECK(r.exit_code == 3);
    CHECK(has(r.err, "no usable GPU"));
    r = run_imgpar_in_locale({kNoGpu, "IMGPAR_DEVICE=gpu"}, {"--device", "auto", "blur", in, dir.file("b.png")});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    // cpu: no auto decision is made; an empty value is no value.
    r = run_imgpar_in_locale({"IMGPAR_DEVICE=cpu"}, {"blur", "-v", in, dir.file("c.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "backend cpu"));
    CHECK(!has(r.err, "device auto"));
    // What needs the GPU is refused naming how the CPU was asked for.
    r = run_imgpar_in_locale({"IMGPAR_DEVICE=cpu"}, {"blur", in, dir.file("e.jpg"), "--jpeg-encoder", "gpu"});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(has(r.err, "cannot be combined with IMGPAR_DEVICE=cpu"), r.err);
    r = run_imgpar_in_locale({"IMGPAR_DEVICE=cpu"}, {"blur", in, dir.file("e.jpg"), "--jpeg-decoder", "hardware"});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(has(r.err, "cannot be combined with IMGPAR_DEVICE=cpu"), r.err);
    r = run_imgpar({"blur", in, dir.file("e.jpg"), "--jpeg-encoder", "gpu", "--device", "cpu"});
    CHECK(has(r.err, "cannot be combined with --device cpu"));
    r = run_imgpar_in_locale({"IMGPAR_DEVICE="}, {"blur", "-v", in, dir.file("d.png")});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "device auto"));

    CHECK(has(run_imgpar({"blur", "--help"}).out, "IMGPAR_DEVICE"));
}

TEST_CASE("cli device auto without a usable GPU: one short line, once, naming IMGPAR_DEVICE=cpu; -v says why") {
    TempDir dir;
    const std::vector<std::string> batch = gpu_sized_batch(dir);
    auto r = run_imgpar_in_locale({kNoGpu}, batch);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    int notes = 0;
    for (const std::string& line : test::lines(r.err)) {
        if (!has(line, "GPU")) continue;
        ++notes;
        CHECK(line == "imgpar: no usable GPU: running on the CPU (IMGPAR_DEVICE=cpu skips this note)");
        CHECK(line.size() <= 80);
    }
    CHECK_MESSAGE(notes == 1, r.err);

    r = run_imgpar_in_locale({kNoGpu}, with(batch, {"-v"}));
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "device auto: the GPU if usable"));  // the batch did ask for it
    CHECK(has(r.err, "IMGPAR_DEVICE=cpu skips this note"));
    CHECK(has(r.err, "device auto: no usable GPU: "));  // the reason, in full

    // Said to be silenced, it is: by the variable, --device cpu, or -q.
    for (const auto& [env, extra] : std::vector<std::pair<std::string, std::string>>{
             {"IMGPAR_DEVICE=cpu", "--strip"}, {"IMGPAR_DEVICE=auto", "--device=cpu"}, {"IMGPAR_DEVICE=auto", "-q"}}) {
        r = run_imgpar_in_locale({kNoGpu, env}, with(batch, {extra}));
        CHECK(r.exit_code == 0);
        CHECK_MESSAGE(r.err.find("GPU") == std::string::npos, env, " ", extra, ": ", r.err);
    }
}
