// How values and command lines are read (src/op/param.hpp, command_line.hpp):
// numbers strictly, whatever the locale; ranges from the declaration; unknown
// options with a suggestion; help before every other mistake; options that
// have no effect. Also a value that used to fail inside (a vanishing sigma),
// and the locale's character set, which decides the text bars.
#include <doctest/doctest.h>

#include <clocale>
#include <cstring>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/op/command_line.hpp"
#include "src/op/param.hpp"
#include "src/ops/filter.hpp"
#include "src/report/text_charset.hpp"
#include "tests/support/cli_runner.hpp"

using namespace imgpar;
using test::has;

namespace {

// The usage error `f` throws, as text; "" when it throws none.
template <typename F>
std::string usage_message(F f) {
    try {
        f();
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        return e.what();
    }
    return "";
}

std::vector<ParamSpec> blur_like() {
    return {ParamSpec::real("sigma", "S", "Sigma", 0.0, 50.0).above(0.0).defaults("2"),
            ParamSpec::integer("radius", "R", "Radius", 0, 150).defaults("0"),
            ParamSpec::real("offset", "O", "Offset"),
            ParamSpec::choice("mode", "M", "Mode", {"luma", "channels"}),
            ParamSpec::flag("gray", "Gray"),
            ParamSpec::integer("jobs", "N", "Jobs", 1, 1024).abbreviated("j"),
            ParamSpec::flag("quiet", "Quiet").abbreviated("q"),
            ParamSpec::flag("verbose", "Verbose").abbreviated("v"),
            ParamSpec::flag("help", "Help").abbreviated("h")};
}

std::vector<std::string> names(const CommandLine& cl) {
    std::vector<std::string> n;
    for (const auto& [name, value] : cl.given) n.push_back(name + "=" + value);
    return n;
}

}  // namespace

TEST_CASE("numbers: the whole text in decimal, nothing else") {
    for (const char* ok : {"2", "-2", "+2", "0.5", ".5", "5.", "1e-3", "1E+3", "2.5e2", "-0"}) {
        CAPTURE(ok);
        CHECK(parse_decimal(ok).has_value());
    }
    CHECK(*parse_decimal("2.5") == 2.5);
    CHECK(*parse_decimal("+1e-3") == 1e-3);
    for (const char* bad : {"", " ", "2,5", "3abc", "1.5.5", " 2", "2 ", "0x2", "0x1p3", "inf", "-inf", "nan",
                            "infinity", "1e", "e5", ".", "-", "+", "++2", "2x", "1_000", "１"}) {
        CAPTURE(bad);
        bool out_of_range = true;
        CHECK_FALSE(parse_decimal(bad, &out_of_range).has_value());
        CHECK_FALSE(out_of_range);
    }
    bool out_of_range = false;
    CHECK_FALSE(parse_decimal("1e999", &out_of_range).has_value());
    CHECK(out_of_range);
    CHECK_FALSE(parse_decimal("-1e400", &out_of_range).has_value());
    CHECK(out_of_range);

    CHECK(*parse_whole_number("42") == 42);
    CHECK(*parse_whole_number("-7") == -7);
    CHECK(*parse_whole_number("+7") == 7);
    CHECK(*parse_whole_number("9223372036854775807") == 9223372036854775807LL);
    for (const char* bad : {"", "1.5", "1e3", " 1", "1 ", "0x10", "--1", "+-1", "1,000", "-"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_whole_number(bad).has_value());
    }
    CHECK_FALSE(parse_whole_number("9223372036854775808", &out_of_range).has_value());
    CHECK(out_of_range);
    CHECK_FALSE(parse_whole_number("-99999999999999999999", &out_of_range).has_value());
    CHECK(out_of_range);
}

TEST_CASE("numbers: a decimal point whatever LC_NUMERIC says") {
    // Where the system has a locale that writes "2,5", reading must not follow it.
    const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
    bool tried = false;
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE"})
        if (std::setlocale(LC_NUMERIC, name)) {
            tried = true;
            CHECK(*parse_decimal("2.5") == 2.5);
            CHECK_FALSE(parse_decimal("2,5").has_value());
            break;
        }
    std::setlocale(LC_NUMERIC, saved.c_str());
    if (!tried) MESSAGE("no locale with a decimal comma installed: checked in the C locale only");
    CHECK(*parse_decimal("2.5") == 2.5);
}

TEST_CASE("parameters: a given value is checked against its declaration, naming the option") {
    const std::vector<ParamSpec> specs = blur_like();
    const auto given = [&](const std::string& name, const std::string& value) {
        return usage_message([&] { ParamValues(specs, {{name, value}}); });
    };
    CHECK(given("sigma", "3") == "");
    CHECK(given("sigma", "50") == "");
    CHECK(given("sigma", "1e-200") == "");  // inside 0 < S <= 50 (the plan must then work: below)
    std::string e = given("sigma", "2,5");
    CHECK(has(e, "--sigma"));
    CHECK(has(e, "'2,5' is not a number"));
    CHECK(has(e, "2.5"));  // the hint
    for (const char* bad : {"3abc", "1.5.5", " 2", "0x2", "inf", "nan", ""}) {
        CAPTURE(bad);
        e = given("sigma", bad);
        CHECK(has(e, "--sigma: '" + std::string(bad) + "' is not a number"));
        CHECK(has(e, "allowed: 0 < S <= 50"));
    }
    CHECK(has(given("sigma", "0"), "--sigma: 0 is out of range (allowed: 0 < S <= 50)"));
    CHECK(has(given("sigma", "50.5"), "out of range"));
    CHECK(has(given("sigma", "1e999"), "--sigma: 1e999 is out of range"));
    CHECK(has(given("sigma", "1e-400"), "--sigma: 1e-400 is too close to 0"));
    CHECK(has(given("radius", "1.5"), "--radius: '1.5' is not a whole number"));
    CHECK(has(given("radius", "151"), "--radius: 151 is out of range (allowed: 0 to 150)"));
    CHECK(has(given("radius", "99999999999999999999"), "--radius: 99999999999999999999 is out of range"));
    CHECK(has(given("offset", "1e999"), "--offset: 1e999 is out of range (too large or too small to represent)"));
    CHECK(given("offset", "-1e300") == "");
    CHECK(has(given("mode", "hsv"), "--mode: 'hsv' is not allowed (allowed: luma or channels)"));

    // set() (blur's RxS geometry) checks the same way.
    ParamValues v(specs, {});
    CHECK(has(usage_message([&] { v.set("radius", "-1"); }), "--radius"));
    v.set("sigma", "0.5");
    CHECK(v.real("sigma") == 0.5);
    CHECK(v.given("sigma"));
}

TEST_CASE("parameters: an option given twice keeps its last value; all() has every value, in order") {
    const std::vector<ParamSpec> specs = blur_like();
    const ParamValues v(specs, {{"offset", "1"}, {"sigma", "3"}, {"offset", "-2"}, {"offset", "5"}});
    CHECK(v.real("offset") == 5);
    CHECK(v.all("offset") == std::vector<std::string>{"1", "-2", "5"});
    CHECK(v.all("sigma") == std::vector<std::string>{"3"});
    CHECK(v.all("radius").empty());  // a default is not given
    CHECK(has(usage_message([&] { ParamValues(specs, {{"offset", "1"}, {"offset", "x"}}); }), "--offset"));
}

TEST_CASE("parameters: options with no effect beside the others given") {
    const std::vector<ParamSpec> specs = {
        ParamSpec::path("plot", "OUT", "Plot"),
        ParamSpec::flag("log", "Log").only_with({"plot"}),
        ParamSpec::text("plot-size", "WxH", "Size", "").defaults("512x300").only_with({"plot"}),
        ParamSpec::flag("ascii", "ASCII").unused_beside({"json", "csv"}),
        ParamSpec::flag("json", "JSON"),
        ParamSpec::flag("csv", "CSV")};
    CHECK(ParamValues(specs, {}).unused_options().empty());  // a default is not given
    CHECK(ParamValues(specs, {{"log", ""}, {"plot", "p.png"}}).unused_options().empty());
    CHECK(ParamValues(specs, {{"log", ""}}).unused_options() ==
          std::vector<std::string>{"--log has no effect without --plot"});
    CHECK(ParamValues(specs, {{"ascii", ""}, {"csv", ""}}).unused_options() ==
          std::vector<std::string>{"--ascii has no effect with --csv"});
    CHECK(ParamValues(specs, {{"ascii", ""}}).unused_options().empty());
    // A declaration naming options the command does not have says nothing.
    const std::vector<ParamSpec> alone = {ParamSpec::flag("log", "Log").only_with({"plot"})};
    CHECK(ParamValues(alone, {{"log", ""}}).unused_options().empty());
}

TEST_CASE("command line: options, values, grouped flags, '--' and file names") {
    const std::vector<ParamSpec> specs = blur_like();
    CommandLine cl = parse_command_line(specs, {"in.png", "--sigma", "3", "out.png", "--offset", "-5", "-qj4",
                                                "--mode=luma", "--gray", "--", "-x.png", "--sigma"},
                                        "blur");
    CHECK(cl.positionals == std::vector<std::string>{"in.png", "out.png", "-x.png", "--sigma"});
    CHECK(names(cl) == std::vector<std::string>{"sigma=3", "offset=-5", "quiet=", "jobs=4", "mode=luma", "gray="});
    CHECK_FALSE(cl.help);

    cl = parse_command_line(specs, {"-j", "2", "-", "--sigma=1", "--sigma", "2"}, "blur");
    CHECK(cl.positionals == std::vector<std::string>{"-"});
    CHECK(names(cl) == std::vector<std::string>{"jobs=2", "sigma=1", "sigma=2"});  // the last one counts
    CHECK(ParamValues(specs, cl.given).real("sigma") == 2.0);

    // Options before a command: reading stops at the first positional.
    cl = parse_command_line(specs, {"-v", "--jobs", "3", "blur", "--sigma", "2"}, "", true);
    CHECK(cl.stopped_at == 3);
    CHECK(names(cl) == std::vector<std::string>{"verbose=", "jobs=3"});
    CHECK(cl.positionals.empty());
}

TEST_CASE("command line: mistakes are usage errors naming the command and the option, with a suggestion") {
    const std::vector<ParamSpec> specs = blur_like();
    const auto error = [&](std::vector<std::string> args) {
        return usage_message([&] { parse_command_line(specs, args, "blur"); });
    };
    CHECK(error({"--sigmaa", "2"}) == "unknown option --sigmaa for blur; did you mean --sigma?");
    CHECK(error({"--sig", "2"}) == "unknown option --sig for blur; did you mean --sigma?");  // a unique prefix
    CHECK(error({"-sigma", "2"}) == "unknown option -sigma for blur; did you mean --sigma?");
    CHECK(error({"--Radius", "2"}) == "unknown option --Radius for blur; did you mean --radius?");
    CHECK(error({"--no-such-option"}) == "unknown option --no-such-option for blur");
    CHECK(has(error({"-qx"}), "unknown option -x (in -qx) for blur"));
    CHECK(error({"--gray=1"}) == "--gray: takes no value (got '1')");
    CHECK(error({"in.png", "--sigma"}) == "--sigma: needs a value S");
    CHECK(error({"-j"}) == "-j: needs a value N");
    // Plain ASCII quotes: no curly ones from the option library.
    for (const std::string& e : {error({"--sigmaa"}), error({"--gray=1"})}) {
        CHECK_FALSE(has(e, "\xe2\x80\x98"));
        CHECK_FALSE(has(e, "\xe2\x80\x99"));
    }
    CHECK(has(usage_message([&] { parse_command_line(specs, {"--verbse", "blur"}, "", true); }),
              "unknown option --verbse before the command"));

    // Help wins over every other mistake on the line, before or after it.
    CHECK(parse_command_line(specs, {"--help", "--bogus"}, "blur").help);
    CHECK(parse_command_line(specs, {"--bogus", "--gray=3", "-h"}, "blur").help);
    // ... but "--help" right after an option that takes a value is that value.
    const CommandLine cl = parse_command_line(specs, {"--sigma", "--help"}, "blur");
    CHECK_FALSE(cl.help);
    CHECK(names(cl) == std::vector<std::string>{"sigma=--help"});
}

TEST_CASE("command line: the nearest option, only when it is near") {
    const std::vector<ParamSpec> specs = blur_like();
    CHECK(closest_option(specs, "sigmaa") == "sigma");
    CHECK(closest_option(specs, "raduis") == "radius");
    CHECK(closest_option(specs, "verbos") == "verbose");
    CHECK(closest_option(specs, "colour") == "");
    CHECK(closest_option(specs, "x") == "");
    CHECK(closest_option(specs, "") == "");
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("filter plan: a vanishing sigma inside the declared range is the identity, not an internal error") {
    for (double sigma : {1e-200, 1e-310, 1e-12}) {
        CAPTURE(sigma);
        FilterPlan p;
        CHECK_NOTHROW(p = make_gaussian(sigma, 0, Border{}));
        CHECK(p.taps == std::vector<std::int32_t>{0, kGaussianTapSum, 0});
        CHECK_NOTHROW(make_unsharp(sigma, 0, 1.0, 0.05, Border{}));
    }
    // Ordinary sigmas keep their taps: the centre is exp(0) = 1 either way.
    CHECK(make_gaussian(2.0, 0, Border{}).taps == gaussian_taps(2.0, 6));
}

TEST_CASE("text: Unicode bars only where the locale's character set is UTF-8") {
    CHECK(locale_is_utf8("C.UTF-8"));
    CHECK(locale_is_utf8("en_US.UTF-8"));       // by its name where the system lacks it
    CHECK(locale_is_utf8("xx_YY.utf8@euro"));
    CHECK_FALSE(locale_is_utf8("C"));
    CHECK_FALSE(locale_is_utf8("POSIX"));
    CHECK_FALSE(locale_is_utf8(""));
    CHECK_FALSE(locale_is_utf8("de_DE.ISO-8859-1"));
    CHECK_FALSE(locale_is_utf8("en_US"));
    // Asking changes nothing global: numbers are still written with a point.
    CHECK(std::strcmp(std::setlocale(LC_CTYPE, nullptr), "C") == 0);
}
