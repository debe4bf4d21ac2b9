// End-to-end: imgpar takes the GPUs CUDA_VISIBLE_DEVICES hands it (Slurm's
// --gres=gpu sets it), and says so when that leaves none. Runs on machines
// with and without a GPU: an empty list hides every GPU.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::run_imgpar_in_locale;
using test::TempDir;

TEST_CASE("cli devices: CUDA_VISIBLE_DEVICES='' leaves no GPU: gpu fails clearly, auto computes on the CPU") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea.png");
    const bool cuda_build = has(run_imgpar({"devices", "--json"}).out, "\"cuda_backend\":true");
    const std::vector<std::string> hidden = {"CUDA_VISIBLE_DEVICES="};

    auto r = run_imgpar_in_locale(hidden, {"blur", in, dir.file("gpu.png"), "--device", "gpu"});
    CHECK(r.exit_code == 3);
    CHECK(has(r.err, "--device gpu: no usable GPU: "));
    if (cuda_build) CHECK_MESSAGE(has(r.err, "CUDA_VISIBLE_DEVICES=''"), r.err);
    CHECK(!std::filesystem::exists(dir.file("gpu.png")));

    r = run_imgpar_in_locale(hidden, {"blur", in, dir.file("auto.png"), "-v"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "backend cpu"));
    REQUIRE(run_imgpar({"blur", in, dir.file("cpu.png"), "--device", "cpu"}).exit_code == 0);
    CHECK(test::read_bytes(dir.file("auto.png")) == test::read_bytes(dir.file("cpu.png")));
}
