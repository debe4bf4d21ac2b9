// End-to-end: the bash completion script and the manual page, both written
// from the command table, checked against what `--help` says (an independent
// reading of the same declarations) and run in bash / groff. The zsh and fish
// scripts, and option values, are tests/cli/test_cli_completion.cpp's.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/help_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::capture;
using test::have_program;
using test::listed_commands;
using test::run_imgpar;
using test::TempDir;

namespace {

// Every --option that `imgpar CMD --help` lists (under the option headings,
// not in its forms or examples).
std::set<std::string> listed_options(const std::string& cmd) {
    std::set<std::string> options;
    const std::string help = run_imgpar({cmd, "--help"}).out;
    static const std::regex option(R"((^|[ ,])(--[a-z][a-z0-9-]*))");
    for (const std::string& l : lines(help)) {
        if (l == "Examples:") break;
        if (l.rfind("Usage: ", 0) == 0 || l.rfind("       imgpar ", 0) == 0) continue;
        for (std::sregex_iterator it(l.begin(), l.end(), option), end; it != end; ++it)
            if (l.find_first_not_of(' ') < 8 && it->position(2) < 40) options.insert((*it)[2]);
    }
    return options;
}

// COMPREPLY after completing the last of `words` (a bash array literal,
// inside single quotes: an empty word is "").
std::string complete(const std::string& script, const std::string& words) {
    return capture("bash -c 'source \"$0\"; COMP_WORDS=(" + words +
                   "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _imgpar; "
                   "((${#COMPREPLY[@]})) && printf \"%s\\n\" \"${COMPREPLY[@]}\"' " + script);
}

}  // namespace

TEST_CASE("cli: completion bash offers the commands, each command's options and choices, and file names") {
    const auto r = run_imgpar({"completion", "bash"});
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "complete -F _imgpar imgpar"));
    CHECK(run_imgpar({"completion", "tcsh"}).exit_code == 2);
    CHECK(run_imgpar({"completion"}).exit_code == 2);
    if (!have_program("bash")) {
        MESSAGE("bash not found: the script was not run");
        return;
    }
    TempDir dir;
    const std::string script = dir.file("imgpar.bash");
    test::write_bytes(script, r.out);
    CHECK(capture("bash -n " + script + " 2>&1; echo rc=$?") == "rc=0\n");

    const std::vector<std::string> commands = listed_commands();
    REQUIRE(commands.size() >= 10);
    const std::string all = complete(script, "imgpar \"\"");
    for (const std::string& c : commands) CHECK_MESSAGE(has(all, c + "\n"), c);
    CHECK(complete(script, "imgpar bl") == "blur\n");
    CHECK(complete(script, "imgpar -v bl") == "blur\n");  // a global option before the command
    CHECK(complete(script, "imgpar help eq") == "equalize\n");

    for (const std::string& c : commands) {
        const std::string offered = complete(script, "imgpar " + c + " in.png --");
        for (const std::string& o : listed_options(c)) CHECK_MESSAGE(has(offered, o + "\n"), c << " " << o);
    }
    CHECK(complete(script, "imgpar blur in.png --bor") == "--border\n");
    CHECK(complete(script, "imgpar blur --chroma-subsampling 4") == "444\n422\n420\n");
    CHECK(complete(script, "imgpar blur --sigma \"\"").empty());  // a number goes there, not a file name

    test::write_bytes(dir.file("photo one.png"), "x");
    const std::string files = capture("cd " + dir.path() + " && bash -c 'source \"$0\"; COMP_WORDS=(imgpar blur ph); "
                                      "COMP_CWORD=2; _imgpar; printf \"%s\\n\" \"${COMPREPLY[@]}\"' imgpar.bash");
    CHECK(files == "photo one.png\n");
}

TEST_CASE("cli: manpage documents every command and option, and is valid roff") {
    const auto r = run_imgpar({"manpage"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind(".TH IMGPAR 1", 0) == 0);
    CHECK(has(r.out, ".SH EXIT STATUS"));
    const auto roff_text = [](const std::string& s) {  // '-' is \- in roff
        std::string t;
        for (char ch : s) t += ch == '-' ? std::string("\\-") : std::string(1, ch);
        return t;
    };
    for (const std::string& c : listed_commands()) {
        CHECK_MESSAGE(has(r.out, ".SS \"imgpar " + roff_text(c) + "\"\n"), c);
        for (std::string o : listed_options(c)) {
            std::string roff;
            for (char ch : o) roff += ch == '-' ? std::string("\\-") : std::string(1, ch);
            CHECK_MESSAGE(has(r.out, "\\fB" + roff + "\\fR"), c << " " << o);
        }
    }
    if (!have_program("groff")) {
        MESSAGE("groff not found: the page was not typeset");
        return;
    }
    TempDir dir;
    test::write_bytes(dir.file("imgpar.1"), r.out);
    // -ww: every warning; -z: typeset without output. Nothing may be printed.
    CHECK(capture("groff -man -Tutf8 -ww -z " + dir.file("imgpar.1") + " 2>&1") == "");
}
