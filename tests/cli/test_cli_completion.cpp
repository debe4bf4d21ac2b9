// End-to-end: `imgpar completion bash|zsh|fish` writes scripts that each
// shell reads without error and that complete option values from the
// declarations: border rules, devices, filters, formats, gravities; folders
// after --out-dir, file names for inputs, shells after `completion`; nothing
// where a number goes. bash runs the completion function with COMP_WORDS
// set; zsh with its completion builtins stood in for by functions that
// print; fish with `complete -C`. zsh and fish are skipped, saying so, where
// they are not installed.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/help_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

// A line, its last word being completed, and what must be offered (in any
// order; "<dirs>" and "<files>" stand for the folder's entries).
struct Case {
    std::vector<std::string> words;
    std::vector<std::string> offered;
};

const std::vector<std::string> kBorders = {"constant", "reflect", "reflect101", "replicate", "wrap"};

std::vector<Case> cases() {
    return {
        {{"imgpar", "blur", "--border", ""}, kBorders},
        {{"imgpar", "sharpen", "in.png", "--border", "ref"}, {"reflect", "reflect101"}},
        {{"imgpar", "pad", "--border", "c"}, {"constant"}},
        {{"imgpar", "--device", ""}, {"auto", "cpu", "gpu", "gpu:0", "gpu:all"}},
        {{"imgpar", "blur", "--device", "g"}, {"gpu", "gpu:0", "gpu:all"}},
        {{"imgpar", "resize", "--filter", ""}, {"area", "auto", "bicubic", "bilinear", "lanczos3", "nearest"}},
        {{"imgpar", "convert", "--format", ""}, {"avif", "bmp", "jpeg", "jpg", "png", "tif", "tiff", "webp"}},
        {{"imgpar", "crop", "--gravity", "north"}, {"north", "northeast", "northwest"}},
        {{"imgpar", "histo", "--channel", "l"}, {"luma"}},
        {{"imgpar", "completion", ""}, {"bash", "fish", "zsh"}},
        {{"imgpar", "blur", "--out-dir", ""}, {"<dirs>"}},
        {{"imgpar", "manpage", "--markdown", ""}, {"<dirs>"}},
        {{"imgpar", "blur", ""}, {"<files>"}},
        {{"imgpar", "compare", "--diff", ""}, {"<files>"}},
        {{"imgpar", "blur", "--sigma", ""}, {}},
        {{"imgpar", "devices", ""}, {}},
        {{"imgpar", "bl"}, {"blur"}},
        {{"imgpar", "-v", "thr"}, {"threshold"}},
        {{"imgpar", "help", "eq"}, {"equalize"}},
        {{"imgpar", "blur", "--bor"}, {"--border"}},
    };
}

// What a case's last word is completed to, as a sorted list; folders end in '/'
// for fish and zsh's _files stand-in is named, so the names are normalised here.
std::vector<std::string> expected(const Case& c, const std::string& shell) {
    std::vector<std::string> want;
    for (const std::string& w : c.offered) {
        if (w == "<dirs>") {
            want.push_back(shell == "fish" ? "sub dir/" : shell == "zsh" ? "<folders>" : "sub dir");
        } else if (w == "<files>") {
            if (shell == "zsh") {
                want.push_back("<files>");
            } else {
                want.push_back(shell == "fish" ? "sub dir/" : "sub dir");
                want.push_back("photo one.png");
            }
        } else {
            want.push_back(w);
        }
    }
    std::sort(want.begin(), want.end());
    return want;
}

std::vector<std::string> sorted_lines(const std::string& s) {
    std::vector<std::string> v = test::lines(s);
    std::sort(v.begin(), v.end());
    return v;
}

// The words as a shell array literal inside single quotes ("" for an empty one).
std::string array_words(const std::vector<std::string>& words) {
    std::string a;
    for (const std::string& w : words) a += (a.empty() ? "" : " ") + (w.empty() ? std::string("\"\"") : w);
    return a;
}

// The folder a completion runs in, with a file and a subfolder whose names
// have a space; the script and the shell's home in another.
struct Scratch {
    TempDir dir, home;
    Scratch() {
        fs::create_directories(dir.file("sub dir"));
        test::write_bytes(dir.file("photo one.png"), "x");
    }
    // The shell's script, written to a file that `check` (the shell's
    // syntax check, the file's name after it) reads without a word.
    std::string script(const std::string& shell, const std::string& check) {
        const auto r = run_imgpar({"completion", shell});
        REQUIRE(r.exit_code == 0);
        const std::string path = home.file("imgpar." + shell);
        test::write_bytes(path, r.out);
        CHECK(test::capture(check + " '" + path + "' 2>&1; echo rc=$?") == "rc=0\n");
        return path;
    }
};

}  // namespace

TEST_CASE("cli completion: bash completes option values, folders, files and shells from the declarations") {
    if (!test::have_program("bash")) {
        MESSAGE("bash not found: the script was not run");
        return;
    }
    Scratch s;
    const std::string script = s.script("bash", "bash -n");
    for (const Case& c : cases()) {
        CAPTURE(array_words(c.words));
        const std::string got =
            test::capture("cd '" + s.dir.path() + "' && bash -c 'source \"$0\"; COMP_WORDS=(" + array_words(c.words) +
                          "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _imgpar; "
                          "((${#COMPREPLY[@]})) && printf \"%s\\n\" \"${COMPREPLY[@]}\"' '" + script + "'");
        CHECK(sorted_lines(got) == expected(c, "bash"));
    }
    // --name=VALUE: bash splits the word at '='.
    const std::string got = test::capture("bash -c 'source \"$0\"; COMP_WORDS=(imgpar blur --border = ref); "
                                          "COMP_CWORD=4; _imgpar; printf \"%s\\n\" \"${COMPREPLY[@]}\"' '" + script + "'");
    CHECK(sorted_lines(got) == std::vector<std::string>{"reflect", "reflect101"});
}

TEST_CASE("cli completion: zsh reads its script and completes the same") {
    const auto r = run_imgpar({"completion", "zsh"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("#compdef imgpar\n", 0) == 0);
    if (!test::have_program("zsh")) {
        MESSAGE("zsh not found: the script was not parsed or run (apt-get install zsh)");
        return;
    }
    Scratch s;
    const std::string script = s.script("zsh", "zsh -n");
    // compadd and _files stand in for zsh's completion system: they print
    // what would be offered, compadd's words filtered by the word typed.
    const std::string stubs =
        "compadd() { [[ $1 == -- ]] && shift; local w; for w; do [[ $w == ${cur}* ]] && print -r -- $w; done; }; "
        "_files() { if [[ $1 == -/ ]]; then print \"<folders>\"; else print \"<files>\"; fi; }; compset() { :; }; ";
    for (const Case& c : cases()) {
        CAPTURE(array_words(c.words));
        const std::string got = test::capture("cd '" + s.dir.path() + "' && zsh -f -c '" + stubs +
                                              "source \"$0\"; words=(" + array_words(c.words) +
                                              "); CURRENT=${#words}; _imgpar' '" + script + "'");
        CHECK(sorted_lines(got) == expected(c, "zsh"));
    }
}

TEST_CASE("cli completion: fish reads its script and completes the same") {
    const auto r = run_imgpar({"completion", "fish"});
    REQUIRE(r.exit_code == 0);
    CHECK(has(r.out, "complete -c imgpar"));
    CHECK(run_imgpar({"completion", "csh"}).exit_code == 2);
    if (!test::have_program("fish")) {
        MESSAGE("fish not found: the script was not parsed or run (apt-get install fish)");
        return;
    }
    Scratch s;
    const std::string script = s.script("fish", "fish --no-execute");
    // One fish for every case: `complete -C` prints what the line completes
    // to (a word, a tab and its description), each case after a marker.
    std::string commands = "source '" + script + "'; ";
    for (const Case& c : cases()) {
        std::string line;
        for (const std::string& w : c.words) line += (line.empty() ? "" : " ") + w;
        commands += "echo '@@'; complete -C '" + line + "'; ";
    }
    const std::string out = test::capture("cd '" + s.dir.path() + "' && HOME='" + s.home.path() + "' fish -c \"" +
                                          commands + "\" 2>&1");
    std::vector<std::vector<std::string>> answers;
    for (const std::string& l : test::lines(out)) {
        if (l == "@@") {
            answers.emplace_back();
        } else if (!answers.empty()) {
            answers.back().push_back(l.substr(0, l.find('\t')));
        }
    }
    const std::vector<Case> all = cases();
    REQUIRE(answers.size() == all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        CAPTURE(array_words(all[i].words));
        std::sort(answers[i].begin(), answers[i].end());
        CHECK(answers[i] == expected(all[i], "fish"));
    }
}
