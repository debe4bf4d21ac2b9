// End-to-end: more positional arguments than IN OUT [EXTRA] is a usage error
// that names what the user most likely meant, told from the arguments: more
// files (they exist, or have an extension) need --out-dir or -o; a value
// shaped like a parameter after IN OUT of an operation that takes none there
// is one of its options. Every image and array operation, with and without
// an extra argument; nothing is written.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "src/op/operation.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

// A valid extra argument of each operation that takes one (a new one must be
// added here).
const std::map<std::string, std::string> kValidExtra = {
    {"blur", "0x2"}, {"crop", "10x10+1+1"}, {"rotate", "90"}, {"resize", "50%"}, {"extract-channel", "0"}};

struct Outcome {
    int exit_code;
    std::string err;
};

// Runs `op IN OUT rest...` in `dir`, where a.png and b.png exist.
Outcome run_op(const TempDir& dir, const Operation& op, const std::vector<std::string>& rest) {
    const std::string out = op.kind == OperationKind::ImageToArray ? "out.npy" : "out.png";
    std::vector<std::string> args = {op.name, "a.png", out};
    args.insert(args.end(), rest.begin(), rest.end());
    const auto r = run_imgpar(args, dir.path());
    return {r.exit_code, r.err};
}

// A folder holding a.png and b.png, the files of every case.
struct Inputs {
    TempDir dir;
    Inputs() {
        fs::copy_file(test::sample_path("chelsea.png"), dir.file("a.png"));
        fs::copy_file(test::sample_path("camera.png"), dir.file("b.png"));
    }
};

}  // namespace

TEST_CASE("cli positionals: the two reproducers say what is actually wrong") {
    const Inputs inputs;
    const TempDir& dir = inputs.dir;
    auto r = run_imgpar({"blur", "a.png", "b.png", "out.png"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "imgpar blur: error: 3 arguments: several inputs need --out-dir DIR or -o TEMPLATE to name their "
                     "outputs (out.png is not RADIUSxSIGMA)\n"));
    CHECK_FALSE(has(r.err, "is not a geometry"));
    r = run_imgpar({"sharpen", "a.png", "out.png", "0x1"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "imgpar sharpen: error: 0x1: sharpen takes no geometry or other value after IN OUT; its options "
                     "are --sigma S, --radius R, --amount A, --threshold T, --border RULE\n"));
    CHECK_FALSE(has(r.err, "several inputs"));
    CHECK(dir.entries().size() == 2);
}

TEST_CASE("cli positionals: every image and array operation, with an extra argument or without one") {
    const Inputs inputs;
    const TempDir& dir = inputs.dir;
    test::write_bytes(dir.file("notes"), "a file without an extension");
    int with_extra = 0, without = 0;
    for (const Operation& op : operations()) {
        if (op.kind == OperationKind::ImagesToReport) continue;
        CAPTURE(op.name);
        const std::string several = "several inputs need --out-dir DIR or -o TEMPLATE to name their outputs";
        // Another file, by its extension or because it exists; or two more.
        for (const std::vector<std::string>& rest : {std::vector<std::string>{"more.png"}, {"notes"}, {"b.png", "c.png"}}) {
            CAPTURE(rest.back());
            const Outcome o = run_op(dir, op, rest);
            CHECK(o.exit_code == 2);
            CHECK(has(o.err, std::to_string(2 + rest.size()) + " arguments: " + several));
            if (!op.extra.name.empty() && rest.size() == 1) CHECK(has(o.err, rest[0] + " is not " + op.extra.name + ")"));
        }
        // The batch form: every argument is an input, so a parameter's value there is a mistake.
        Outcome o = [&] {
            const auto r = run_imgpar({op.name, "--out-dir", "outs", "a.png", "0x2"}, dir.path());
            return Outcome{r.exit_code, r.err};
        }();
        CHECK(o.exit_code == 2);
        CHECK(has(o.err, "0x2: with --out-dir or -o every argument is an input"));
        if (op.extra.name.empty()) {
            // A value after IN OUT is a parameter it takes as an option.
            for (const std::string value : {"0x1", "90", "1.5", "50%"}) {
                CAPTURE(value);
                o = run_op(dir, op, {value});
                CHECK(o.exit_code == 2);
                CHECK(has(o.err, value + ": " + op.name + " takes no geometry or other value after IN OUT; "));
                if (op.params.empty())
                    CHECK(has(o.err, "it has no options of its own"));
                else
                    CHECK(has(o.err, "its options are --" + op.params.front().name));
                CHECK_FALSE(has(o.err, "several inputs"));
            }
            ++without;
        } else {
            REQUIRE_MESSAGE(kValidExtra.count(op.name) == 1, "add a valid extra argument of ", op.name, " to kValidExtra");
            // A mistyped extra argument keeps its own message.
            o = run_op(dir, op, {"1x2x3"});
            CHECK(o.exit_code == 2);
            CHECK(has(o.err, "1x2x3"));
            CHECK_FALSE(has(o.err, "several inputs"));
            // The extra argument itself works.
            o = run_op(dir, op, {kValidExtra.at(op.name)});
            CHECK_MESSAGE(o.exit_code == 0, o.err);
            fs::remove(dir.file("out.png"));
            ++with_extra;
        }
        CHECK(dir.entries().size() == 3);  // a.png, b.png, notes: nothing written
    }
    CHECK(with_extra == 5);
    CHECK(without >= 15);
}

TEST_CASE("cli positionals: convert and chain take IN OUT, and say so") {
    const Inputs inputs;
    const TempDir& dir = inputs.dir;
    auto r = run_imgpar({"convert", "a.png", "b.png", "c.jpg"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "3 arguments: several inputs need --out-dir DIR or -o TEMPLATE to name their outputs (convert "
                     "takes IN OUT)"));
    r = run_imgpar({"chain", "blur | sharpen", "a.png", "b.png", "c.jpg"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "(chain takes IN OUT)"));
    CHECK(dir.entries().size() == 2);
}
