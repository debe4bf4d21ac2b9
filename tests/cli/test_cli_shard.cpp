// End-to-end: splitting a batch among tasks that do not talk to each other.
// --shard K/N by the sorted names, --shard slurm from a Slurm array task's
// variables, and --json-file, the per-task report that concatenates into one
// manifest. tests/scale/ runs the same under a real Slurm and GNU parallel.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::run_imgpar_in_locale;
using test::TempDir;

namespace fs = std::filesystem;

namespace {

// Eight files named so that their sorted order is not the order given.
std::vector<std::string> make_inputs(TempDir& dir) {
    const std::vector<std::string> names = {"h.png", "B.png", "a.png", "g.png", "c.png", "F.png", "e.png", "d.png"};
    for (const std::string& n : names) fs::copy_file(test::sample_path("camera.png"), dir.file(n));
    return names;
}

std::string list_of(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += n + "\n";
    return text;
}

// The "file" of each line of info's JSON Lines.
std::vector<std::string> files_in(const std::string& jsonl) {
    std::vector<std::string> files;
    for (const std::string& line : lines(jsonl)) {
        const std::string key = "\"file\":\"";
        const std::size_t at = line.find(key);
        REQUIRE(at != std::string::npos);
        const std::size_t start = at + key.size();
        files.push_back(line.substr(start, line.find('"', start) - start));
    }
    return files;
}

std::vector<std::string> slurm_env(const std::string& id, const std::string& min, const std::string& max,
                                   const std::string& count) {
    std::vector<std::string> env;
    if (!id.empty()) env.push_back("SLURM_ARRAY_TASK_ID=" + id);
    if (!min.empty()) env.push_back("SLURM_ARRAY_TASK_MIN=" + min);
    if (!max.empty()) env.push_back("SLURM_ARRAY_TASK_MAX=" + max);
    if (!count.empty()) env.push_back("SLURM_ARRAY_TASK_COUNT=" + count);
    return env;
}

}  // namespace

TEST_CASE("cli shard: the split follows the sorted names, whatever the list's order") {
    TempDir dir;
    std::vector<std::string> names = make_inputs(dir);
    test::write_bytes(dir.file("given.txt"), list_of(names));
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());  // byte order: capitals first
    std::vector<std::string> reversed(sorted.rbegin(), sorted.rend());
    test::write_bytes(dir.file("reversed.txt"), list_of(reversed));

    std::map<std::string, int> seen;
    for (int k = 1; k <= 3; ++k) {
        const std::string shard = std::to_string(k) + "/3";
        const auto a = run_imgpar({"info", "--json", "--files-from", "given.txt", "--shard", shard}, dir.path());
        const auto b = run_imgpar({"info", "--json", "--files-from", "reversed.txt", "--shard", shard}, dir.path());
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        std::vector<std::string> mine = files_in(a.out);
        // Each task keeps its names in the list's order...
        std::vector<std::string> expected;
        for (const std::string& n : names) {
            const auto rank = std::find(sorted.begin(), sorted.end(), n) - sorted.begin();
            if (rank % 3 == k - 1) expected.push_back(n);
        }
        CHECK(mine == expected);
        // ...and gets the same ones from a list in another order.
        std::vector<std::string> other = files_in(b.out);
        std::sort(mine.begin(), mine.end());
        std::sort(other.begin(), other.end());
        CHECK(mine == other);
        for (const std::string& n : mine) ++seen[n];
    }
    CHECK(seen.size() == names.size());
    for (const auto& [name, times] : seen) CHECK_MESSAGE(times == 1, name);

    // A name given twice stays in one share, where the run sees both (and
    // a batch that writes images refuses them, as it does without --shard).
    test::write_bytes(dir.file("twice.txt"), list_of({"a.png", "B.png", "a.png"}));
    const auto first = run_imgpar({"info", "--json", "--files-from", "twice.txt", "--shard", "1/2"}, dir.path());
    const auto second = run_imgpar({"info", "--json", "--files-from", "twice.txt", "--shard", "2/2"}, dir.path());
    CHECK(files_in(first.out) == std::vector<std::string>{"B.png"});
    CHECK(files_in(second.out) == std::vector<std::string>{"a.png", "a.png"});
}

TEST_CASE("cli shard: --shard slurm reads the array task's variables") {
    TempDir dir;
    const std::vector<std::string> names = make_inputs(dir);
    test::write_bytes(dir.file("list.txt"), list_of(names));
    const std::vector<std::string> args = {"info", "--json", "--files-from", "list.txt", "--shard", "slurm"};

    // --array=4-7 is 4 tasks: id 6 is the third; the same as --shard 3/4.
    const auto explicit_share = run_imgpar({"info", "--json", "--files-from", "list.txt", "--shard", "3/4"}, dir.path());
    REQUIRE(explicit_share.exit_code == 0);
    auto r = run_imgpar_in_locale(slurm_env("6", "4", "7", "4"), args, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out == explicit_share.out);
    // Without COUNT (older Slurm), MAX tells; a step (--array=0-6:2) counts.
    r = run_imgpar_in_locale(slurm_env("6", "4", "7", ""), args, dir.path());
    CHECK(r.out == explicit_share.out);
    auto stepped = slurm_env("4", "0", "6", "4");
    stepped.push_back("SLURM_ARRAY_TASK_STEP=2");
    r = run_imgpar_in_locale(stepped, args, dir.path());
    CHECK(r.out == explicit_share.out);

    // Missing or inconsistent variables are usage errors naming the variable.
    const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
        {{}, "SLURM_ARRAY_TASK_ID is not set"},
        {slurm_env("6", "", "7", "4"), "SLURM_ARRAY_TASK_MIN is not set"},
        {slurm_env("6", "4", "", ""), "SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MAX are both unset"},
        {slurm_env("3", "4", "7", "4"), "SLURM_ARRAY_TASK_ID=3 is below SLURM_ARRAY_TASK_MIN=4"},
        {slurm_env("9", "4", "7", "4"), "SLURM_ARRAY_TASK_ID=9 does not fit"},
        {slurm_env("6", "4", "", "2"), "SLURM_ARRAY_TASK_ID=6 does not fit"},
        {slurm_env("6", "1", "9", "3"), "the array's task ids are not one range"},  // --array=1,6,9
        {slurm_env("6x", "4", "7", "4"), "SLURM_ARRAY_TASK_ID='6x' is not a task id"},
    };
    for (const auto& [env, message] : bad) {
        r = run_imgpar_in_locale(env, args, dir.path());
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(has(r.err, "--shard slurm: " + message), r.err);
        CHECK(r.out.empty());
    }
}

TEST_CASE("cli shard: --json-file writes each task's report; the reports concatenate into the manifest") {
    TempDir dir;
    const std::vector<std::string> names = make_inputs(dir);
    test::write_bytes(dir.file("list.txt"), list_of(names) + "missing.png\n");
    std::string merged;
    for (int k = 1; k <= 3; ++k) {
        const auto r = run_imgpar({"blur", "--files-from", "list.txt", "--out-dir", "out", "--shard",
                                   std::to_string(k) + "/3", "--json-file", "reports/r-{shard}.jsonl"},
                                  dir.path());
        CHECK(r.out.empty());  // the lines went to the file
        CHECK(r.exit_code == (k == 3 ? 1 : 0));  // missing.png is the 9th name sorted: share 3
        merged += test::read_bytes(dir.file("reports/r-" + std::to_string(k) + "-of-3.jsonl"));
    }
    // One line per input, as a single run's --json prints them.
    const auto whole = run_imgpar({"blur", "--files-from", "list.txt", "--out-dir", "out", "--json"}, dir.path());
    CHECK(lines(merged).size() == names.size() + 1);
    std::vector<std::string> a = lines(merged), b = lines(whole.out);
    CHECK(a.size() == b.size());
    CHECK(std::count_if(a.begin(), a.end(), [](const std::string& l) { return has(l, "\"ok\":false"); }) == 1);
    CHECK(has(merged, "\"input\":\"missing.png\",\"output\":\"out/missing.png\",\"ok\":false"));

    // The shard's number is padded to N's width; without --shard it is 1-of-1.
    auto r = run_imgpar({"info", "a.png", "--shard", "2/12", "--json-file", "x-{shard}-{{k}}.jsonl"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(fs::exists(dir.file("x-02-of-12-{k}.jsonl")));
    CHECK(fs::file_size(dir.file("x-02-of-12-{k}.jsonl")) == 0);  // a.png is in share 1
    r = run_imgpar({"info", "a.png", "--json-file", "one-{shard}.jsonl"}, dir.path());
    CHECK(has(test::read_bytes(dir.file("one-1-of-1.jsonl")), "\"file\":\"a.png\""));
    // A report that cannot be written fails the run, naming the file.
    fs::create_directories(dir.file("taken.jsonl"));
    r = run_imgpar({"info", "a.png", "--json-file", "taken.jsonl"}, dir.path());
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "taken.jsonl"));
    r = run_imgpar({"info", "a.png", "--json-file", "r-{k}.jsonl"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--json-file"));
    // A usage error writes no report.
    r = run_imgpar({"info", "a.png", "--csv", "--json-file", "never.jsonl"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(!fs::exists(dir.file("never.jsonl")));
}
