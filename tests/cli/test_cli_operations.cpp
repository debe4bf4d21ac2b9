// Every declared operation as a user meets it: its help lists every declared
// option with its default, its first example runs end to end, and a value
// outside a declared range is a usage error that writes nothing.
#include <doctest/doctest.h>

#include <cstdio>

#include "src/op/operation.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using namespace imgpar::test;

namespace {

std::vector<std::string> command_line(const Operation& op, const Values& values, const std::string& in) {
    std::vector<std::string> args = {op.name, in};
    if (op.kind == OperationKind::ImageToImage) args.push_back("out.png");
    if (op.kind == OperationKind::ImageToArray) args.push_back("out.npy");
    for (const auto& [name, value] : values) {
        args.push_back("--" + name);
        const ParamSpec* spec = nullptr;
        for (const ParamSpec& p : op.params)
            if (p.name == name) spec = &p;
        if (spec && spec->kind != ParamKind::Flag) args.push_back(value);
    }
    args.push_back("--device");
    args.push_back("cpu");
    return args;
}

}  // namespace

TEST_CASE("cli operations: help lists every declared option and default; the first example runs") {
    for (const Operation& op : operations()) {
        CAPTURE(op.name);
        const RunResult help = run_imgpar({op.name, "--help"});
        CHECK(help.exit_code == 0);
        CHECK(has(help.out, op.summary));
        for (const ParamSpec& p : op.params) {
            // A one-letter option (threshold's --k) is listed in its short form, -k.
            CHECK_MESSAGE(has(help.out, (p.name.size() == 1 ? "-" : "--") + p.name), p.name);
            if (p.default_value) CHECK_MESSAGE(has(help.out, "(default: " + *p.default_value + ")"), p.name);
        }
        TempDir dir;
        const RunResult r = run_imgpar(command_line(op, op.examples.front().values, sample_path("chelsea.png")), dir.path());
        CHECK_MESSAGE(r.exit_code == 0, r.err);
        if (op.kind == OperationKind::ImageToImage)
            CHECK(file_exists(dir.file("out.png")));
        else if (op.kind == OperationKind::ImageToArray)
            CHECK(file_exists(dir.file("out.npy")));
        else
            CHECK_FALSE(r.out.empty());
    }
}

TEST_CASE("cli operations: a value past a declared range is a usage error naming the option, and writes nothing") {
    for (const Operation& op : operations())
        for (const ParamSpec& p : op.params) {
            if (p.kind != ParamKind::Integer || !p.max) continue;
            CAPTURE(op.name);
            CAPTURE(p.name);
            TempDir dir;
            const Values values = with(base_values_for(op, p.name), p.name, std::to_string(static_cast<long long>(*p.max) + 1));
            const RunResult r = run_imgpar(command_line(op, values, sample_path("chelsea.png")), dir.path());
            CHECK(r.exit_code == 2);
            CHECK(has(r.err, "--" + p.name));
            CHECK(r.out.empty());
            CHECK(dir.entries().empty());
        }
}
