// The declared operations (src/op/catalog.cpp), checked as a whole: each
// declaration is complete, each declared range is exactly what the operation
// accepts, every example runs, and the reference pages' parameter tables are the
// declarations. A new operation is covered here (and in the GPU and CLI
// suites) without writing a test for it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::Values;

namespace {

// Makes the operation's job from `values`; usage errors propagate.
void make_job(const Operation& op, const Values& values) {
    const ParamValues v = op.values(values);
    if (op.kind == OperationKind::ImageToImage)
        (void)op.make_image_job(v);
    else if (op.kind == OperationKind::ImageToArray)
        (void)op.make_array_job(v);
    else
        (void)op.make_report_job(v);
}

std::string number_text(double v, bool integer) {
    if (integer) return std::to_string(static_cast<long long>(v));
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Whether the value is accepted; a rejection must be a usage error naming the option.
bool accepts(const Operation& op, const ParamSpec& p, const std::string& value) {
    try {
        make_job(op, test::with(test::base_values_for(op, p.name), p.name, value));
        return true;
    } catch (const Error& e) {
        CHECK_MESSAGE(e.kind() == ErrorKind::Usage, op.name, " --", p.name, " ", value, ": ", e.what());
        CHECK_MESSAGE(std::string(e.what()).find("--" + p.name) != std::string::npos, op.name, " --", p.name, " ",
                      value, ": the message does not name the option: ", e.what());
        return false;
    }
}

}  // namespace

TEST_CASE("operations: every declaration is complete, with unique names and examples that make jobs") {
    std::set<std::string> names;
    for (const Operation& op : operations()) {
        CAPTURE(op.name);
        CHECK(names.insert(op.name).second);
        CHECK(find_operation(op.name) == &op);
        CHECK_FALSE(op.summary.empty());
        CHECK_FALSE(op.description.empty());
        CHECK_FALSE(op.group.empty());
        CHECK(static_cast<bool>(op.kind == OperationKind::ImageToImage   ? bool(op.make_image_job)
                                : op.kind == OperationKind::ImageToArray ? bool(op.make_array_job)
                                                                         : bool(op.make_report_job)));
        CHECK_FALSE(op.examples.empty());
        std::set<std::string> params;
        for (const ParamSpec& p : op.params) {
            CAPTURE(p.name);
            CHECK(params.insert(p.name).second);
            CHECK_FALSE(p.help.empty());
            CHECK((p.kind == ParamKind::Flag) == p.value_name.empty());
            if (p.kind == ParamKind::Choice) CHECK(p.choices.size() >= 2);
            if (p.kind == ParamKind::Text) CHECK_FALSE(p.allowed.empty());
        }
        for (const Example& e : op.examples) {
            CAPTURE(e.label);
            for (const auto& value : e.values) CHECK(params.count(value.first) == 1);
            CHECK_NOTHROW(make_job(op, e.values));
        }
    }
    CHECK(find_operation("no-such-operation") == nullptr);
}

TEST_CASE("operations: each declared range is exactly what the operation accepts") {
    int checked = 0;
    for (const Operation& op : operations())
        for (const ParamSpec& p : op.params) {
            if ((p.kind != ParamKind::Integer && p.kind != ParamKind::Real) || !p.min || !p.max) continue;
            CAPTURE(op.name);
            CAPTURE(p.name);
            const bool integer = p.kind == ParamKind::Integer;
            const double step_lo = integer ? 1.0 : std::max(1e-9, std::fabs(*p.min) * 1e-12);
            const double step_hi = integer ? 1.0 : std::max(1e-9, std::fabs(*p.max) * 1e-12);
            CHECK(accepts(op, p, number_text(*p.min, integer)) == !p.min_open);
            if (p.min_open) CHECK(accepts(op, p, number_text(*p.min + step_lo, integer)));
            CHECK_FALSE(accepts(op, p, number_text(*p.min - step_lo, integer)));
            CHECK(accepts(op, p, number_text(*p.max, integer)));
            CHECK_FALSE(accepts(op, p, number_text(*p.max + step_hi, integer)));
            if (p.default_value) CHECK(accepts(op, p, *p.default_value));
            CHECK_FALSE(accepts(op, p, integer ? "1.5" : "2x"));
            ++checked;
        }
    CHECK(checked >= 9);
}

TEST_CASE("operations: words and forms outside a declared choice or syntax are usage errors naming the option") {
    for (const Operation& op : operations())
        for (const ParamSpec& p : op.params) {
            if (p.kind != ParamKind::Choice && p.kind != ParamKind::Text) continue;
            CAPTURE(op.name);
            CAPTURE(p.name);
            CHECK_FALSE(accepts(op, p, "no-such-thing"));
            if (p.default_value) CHECK(accepts(op, p, *p.default_value));
            for (const std::string& c : p.choices) CHECK(accepts(op, p, c));
        }
}

TEST_CASE("operations: every example runs on the CPU for every channel layout") {
    const BackendChoice cpu;  // the CPU unless a GPU is chosen
    for (const Operation& op : operations())
        for (const Example& e : op.examples)
            for (int c = 1; c <= 4; ++c) {
                CAPTURE(op.name);
                CAPTURE(e.label);
                CAPTURE(c);
                const ImageU8 img = test::photo_like_image(23, 17, c, 3);
                RunNotes notes;
                if (op.kind == OperationKind::ImageToImage) {
                    const auto job = op.make_image_job(op.values(e.values));
                    const ImageU8 out = job->run(cpu, img.view(), notes);
                    const ImageShape declared = job->output_shape({23, 17, c, SampleType::U8});
                    CHECK(out.width() == declared.width);
                    CHECK(out.height() == declared.height);
                    CHECK(out.channels() == declared.channels);
                } else if (op.kind == OperationKind::ImageToArray) {
                    const auto job = op.make_array_job(op.values(e.values));
                    const NpyFile array = job->run(cpu, img.view(), "img", notes);
                    const NpyHeader header = parse_npy_header("img", array.bytes(), array.size());
                    CHECK(header.data_offset + array.data_bytes() == array.size());
                } else {
                    const auto job = op.make_report_job(op.values(e.values));
                    const std::string json = job->run(cpu, {"img", "cpu"}, img.view(), ReportFormat::Json, notes);
                    std::string why;
                    CHECK_MESSAGE(test::is_valid_json(json, &why), why);
                }
                CHECK_FALSE(notes.kernel.empty());
            }
}

TEST_CASE("docs/commands: each operation's parameter table is its declaration") {
    // The reference pages are written by `imgpar manpage --markdown` (the CLI
    // suite checks they are what it writes); this renders the table from the
    // declaration on its own, so a generator that drops or garbles a column
    // fails here.
    for (const Operation& op : operations()) {
        CAPTURE(op.name);
        const std::string path = std::string(IMGPAR_DOCS_DIR) + "/commands/" + op.name + ".md";
        std::ifstream f(path);
        REQUIRE_MESSAGE(f.good(), path);
        std::stringstream ss;
        ss << f.rdbuf();
        const std::string page = ss.str();
        const std::string open = "<!-- parameters of " + op.name + ": generated from its declaration -->\n";
        const std::string close = "<!-- end of parameters -->";
        const std::size_t at = page.find(open);
        const std::string expected = test::markdown_parameters(op);
        if (at == std::string::npos) {
            FAIL_CHECK(path, " has no parameter table for ", op.name, "; it should hold:\n", open, expected, close);
            continue;
        }
        const std::size_t end = page.find(close, at);
        REQUIRE(end != std::string::npos);
        const std::string got = page.substr(at + open.size(), end - at - open.size());
        CHECK_MESSAGE(got == expected, path, "'s table differs from the declaration; it should be:\n", expected);
    }
}
