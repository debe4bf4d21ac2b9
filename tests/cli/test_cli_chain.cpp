// End-to-end: imgpar chain. A chain's result equals its stages run one at a
// time through lossless files, on every layout; each stage reads its own
// command's options (blur's geometry, quoted kernels); mistakes are usage
// errors that name the stage and write nothing; a report or an array may end
// the chain; batches, --json records with every stage, --skip-existing and a
// failing file behave as for any command.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

const char* const kSamples[] = {"camera.png", "chelsea.png", "chelsea_alpha.png", "rocket.jpg"};

// `stages` one command at a time, each writing a PNG the next one reads.
std::string run_stages(TempDir& dir, const std::string& in, const std::vector<std::vector<std::string>>& stages) {
    std::string current = in;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const std::string out = dir.file("step" + std::to_string(i) + ".png");
        std::vector<std::string> args = {stages[i][0], current, out, "--device", "cpu"};
        args.insert(args.end(), stages[i].begin() + 1, stages[i].end());
        const auto r = run_imgpar(args);
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        current = out;
    }
    return current;
}

void check_same_pixels(const std::string& a, const std::string& b) {
    const LoadedImage x = load_image(a), y = load_image(b);
    IMGPAR_CHECK_IMAGES_EQUAL(x.image, y.image);
}

// The histogram JSON from its counts on: what does not name the file or the run.
std::string counts_of(const std::string& json) { return json.substr(json.find("\"bins\"")); }

}  // namespace

TEST_CASE("cli chain: the result equals the stages run one at a time through PNG files, on every layout") {
    TempDir dir;
    const std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>> chains = {
        {"blur --sigma 2 | sharpen --amount 1.5 | threshold --otsu",
         {{"blur", "--sigma", "2"}, {"sharpen", "--amount", "1.5"}, {"threshold", "--otsu"}}},
        {"equalize | edges --op scharr --gray | box --radius 3",
         {{"equalize"}, {"edges", "--op", "scharr", "--gray"}, {"box", "--radius", "3"}}},
        {"blur 0x1.5 | convolve --kernel '1 2 1; 2 4 2; 1 2 1' --normalize | equalize --mode channels",
         {{"blur", "--sigma", "1.5"}, {"convolve", "--kernel", "1 2 1; 2 4 2; 1 2 1", "--normalize"},
          {"equalize", "--mode", "channels"}}},
        {"threshold --adaptive sauvola --window 15 --k 0.2 | blur --sigma 0.8 --border reflect101",
         {{"threshold", "--adaptive", "sauvola", "--window", "15", "--k", "0.2"},
          {"blur", "--sigma", "0.8", "--border", "reflect101"}}},
    };
    for (const char* sample : kSamples)
        for (const auto& [text, stages] : chains) {
            CAPTURE(sample);
            CAPTURE(text);
            const std::string in = test::sample_path(sample);
            const auto r = run_imgpar({"chain", text, in, dir.file("chain.png"), "--device", "cpu"});
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            check_same_pixels(dir.file("chain.png"), run_stages(dir, in, stages));
        }
}

TEST_CASE("cli chain: -v and --json say every stage, its parameters, kernel, time and output") {
    TempDir dir;
    const std::string in = test::sample_path("chelsea_alpha.png");
    auto r = run_imgpar({"chain", "blur --sigma 2 | edges --gray", in, dir.file("o.png"), "--json", "-v", "--device", "cpu"});
    REQUIRE(r.exit_code == 0);
    std::string why;
    REQUIRE_MESSAGE(test::is_valid_json(lines(r.out).at(0), &why), why);
    const auto m = test::json_members(lines(r.out).at(0));
    CHECK(m.at("output_channels") == "2");  // edges --gray: gray+alpha
    CHECK(has(m.at("operation"), "\"chain\":\"blur --sigma 2 | edges --gray\""));
    CHECK(has(m.at("stages"), "\"name\":\"blur\""));
    CHECK(has(m.at("stages"), "\"sigma\":2"));
    CHECK(has(m.at("stages"), "\"name\":\"edges\""));
    CHECK(has(m.at("stages"), "\"ms\":"));
    CHECK(has(r.err, "stage 1/2 gaussian sigma=2"));
    CHECK(has(r.err, "stage 2/2 "));
    CHECK(has(r.err, "451x300 gray+alpha"));
    // A single operation's record lists its one stage too.
    r = run_imgpar({"blur", in, dir.file("b.png"), "--json", "--device", "cpu"});
    REQUIRE(r.exit_code == 0);
    CHECK(has(test::json_members(lines(r.out).at(0)).at("stages"), "\"name\":\"blur\""));
}

TEST_CASE("cli chain: mistakes are usage errors naming the stage, and nothing is written") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");
    const std::string out = dir.file("o.png");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"blur | sharpn", "stage 2: 'sharpn' is not an operation; did you mean 'sharpen'?"},
        {"blur --sigma 99", "stage 1 (blur): --sigma"},
        {"blur | sharpen --amont 2", "stage 2 (sharpen): unknown option --amont for sharpen; did you mean --amount?"},
        {"blur | | sharpen", "stage 2 is empty"},
        {"histo | blur", "histo writes a report, not an image, so it can only end the chain"},
        {"blur 0x2 extra", "stage 1 (blur): unexpected argument 'extra'"},
        {"convolve --kernel '1 2 1", "quote is not closed"},
        {"threshold", "stage 1 (threshold): --otsu: give exactly one of"},
        {"blur --help", "run 'imgpar blur --help'"},
        {"", "stage 1 is empty"},
    };
    for (const auto& [text, message] : cases) {
        CAPTURE(text);
        const auto r = run_imgpar({"chain", text, in, out});
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(has(r.err, message), r.err);
        CHECK_FALSE(fs::exists(out));
    }
    auto r = run_imgpar({"chain"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "the chain comes first"));
    r = run_imgpar({"chain", "blur", in, out, "--csv"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--csv"));
    r = run_imgpar({"chain", "blur | histo", in, "--quality", "80"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--quality: the chain ends in histo, which writes a report, not an image"));
    CHECK(dir.entries().empty());
}

TEST_CASE("cli chain: a report or an array may end the chain: the report of the chain's image") {
    TempDir dir;
    for (const char* sample : kSamples) {
        CAPTURE(sample);
        const std::string in = test::sample_path(sample);
        auto r = run_imgpar({"chain", "blur --sigma 1 | equalize | histo --bins 16", in, "--json", "--device", "cpu"});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        CHECK(has(r.out, "\"stages\":[{\"name\":\"blur\""));
        const std::string step = run_stages(dir, in, {{"blur", "--sigma", "1"}, {"equalize"}});
        const auto h = run_imgpar({"histo", step, "--bins", "16", "--json", "--device", "cpu"});
        REQUIRE(h.exit_code == 0);
        CHECK(counts_of(r.out) == counts_of(h.out));

        r = run_imgpar({"chain", "box --radius 2 | stats", in, "--csv", "--device", "cpu"});
        REQUIRE(r.exit_code == 0);
        CHECK(has(r.out, "file,"));

        r = run_imgpar({"chain", "box --radius 2 | integral --squared", in, dir.file("t.npy"), "--device", "cpu"});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const std::string boxed = run_stages(dir, in, {{"box", "--radius", "2"}});
        REQUIRE(run_imgpar({"integral", boxed, dir.file("u.npy"), "--squared", "--device", "cpu"}).exit_code == 0);
        CHECK(test::read_bytes(dir.file("t.npy")) == test::read_bytes(dir.file("u.npy")));
    }
}

TEST_CASE("cli chain: many files: --out-dir, records in input order, a failing file fails alone, --skip-existing") {
    TempDir dir;
    fs::create_directories(dir.file("in"));
    std::vector<std::string> args = {"chain", "blur | threshold --adaptive mean --window 31", "--out-dir", "out", "--json",
                                     "--device", "cpu"};
    for (const char* s : kSamples) {
        fs::copy_file(test::sample_path(s), dir.file(std::string("in/") + s));
        args.push_back(std::string("in/") + s);
    }
    // Smaller than the window: that file fails, the others are written.
    const ImageU8 small = test::photo_like_image(20, 20, 3, 4);
    std::vector<std::string> warnings;
    save_image(dir.file("in/small.png"), small.view(), SaveOptions{}, warnings);
    args.insert(args.begin() + 9, "in/small.png");
    auto r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "chain: 4 written, 1 failed; 5 files in"));
    CHECK(has(r.err, "small.png: stage 2 (threshold): --window: 31 is larger than the 20x20 image"));
    const auto ls = lines(r.out);
    REQUIRE(ls.size() == 5);
    CHECK(has(ls[2], "\"ok\":false"));
    CHECK(has(ls[0], "\"ok\":true"));
    CHECK_FALSE(fs::exists(dir.file("out/small.png")));
    for (const char* s : kSamples) CHECK(fs::exists(dir.file(std::string("out/") + s)));
    r = run_imgpar({"chain", "blur", "--out-dir", "out", "--skip-existing", "--json", "in/camera.png"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "\"skipped\":true"));
}
