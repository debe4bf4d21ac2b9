// End-to-end: every command's help starts with the forms of its command line
// and ends with examples, the man page shows the same, and every example
// shown runs as written on the sample images (src/op/usage.hpp names the
// files they use).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/op/operation.hpp"
#include "tests/cli/help_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

// What roff makes of a line of text (cli/cmd_manpage.cpp): '-' is \-.
std::string roff_text(const std::string& s) {
    std::string t;
    for (char c : s) t += c == '-' ? std::string("\\-") : c == '\\' ? std::string("\\e") : std::string(1, c);
    return t;
}

// The files the examples name (src/op/usage.hpp), made from samples/.
void make_example_files(const TempDir& dir) {
    for (const char* sub : {"bin", "photos", "expected", "actual", ".zfunc", ".config/fish/completions"})
        fs::create_directories(dir.file(sub));
    fs::create_symlink(IMGPAR_BINARY, dir.file("bin/imgpar"));
    fs::copy_file(test::sample_path("rocket.jpg"), dir.file("photo.jpg"));
    fs::copy_file(test::sample_path("camera.png"), dir.file("scan.png"));
    fs::copy_file(test::sample_path("chelsea_alpha.png"), dir.file("logo.png"));
    fs::copy_file(test::sample_path("rocket.jpg"), dir.file("photos/a.jpg"));
    REQUIRE(run_imgpar({"convert", test::sample_path("chelsea.png"), dir.file("photos/b.jpg")}).exit_code == 0);
    for (const char* name : {"expected.png", "actual.png", "expected/chelsea.png", "actual/chelsea.png"})
        fs::copy_file(test::sample_path("chelsea.png"), dir.file(name));
    for (const char* name : {"expected/camera.png", "actual/camera.png"})
        fs::copy_file(test::sample_path("camera.png"), dir.file(name));
}

}  // namespace

TEST_CASE("cli help: every command starts with its forms and ends with two or three examples of itself") {
    const std::vector<std::string> commands = test::listed_commands();
    REQUIRE(commands.size() >= 25);
    for (const std::string& c : commands) {
        CAPTURE(c);
        const auto r = run_imgpar({c, "--help"});
        REQUIRE(r.exit_code == 0);
        const std::vector<std::string> forms = test::help_synopsis(r.out);
        REQUIRE_FALSE(forms.empty());
        for (const std::string& f : forms) {
            CHECK(f.rfind("imgpar " + c + " ", 0) == 0);
            CHECK(f.size() >= 12);
            CHECK(f.compare(f.size() - 12, 12, " [OPTION...]") == 0);
        }
        const std::vector<std::string> examples = test::help_examples(r.out);
        CHECK(examples.size() >= 2);
        CHECK(examples.size() <= 3);
        for (const std::string& e : examples) CHECK_MESSAGE(has(e, "imgpar " + c), e);
    }
    // The forms say what goes where: the positionals, the extra argument, the batch forms.
    const auto blur = test::help_synopsis(run_imgpar({"blur", "--help"}).out);
    CHECK(blur == std::vector<std::string>{"imgpar blur IN OUT [RADIUSxSIGMA] [OPTION...]",
                                           "imgpar blur --out-dir DIR IN... [OPTION...]",
                                           "imgpar blur -o TEMPLATE IN... [OPTION...]"});
    CHECK(test::help_synopsis(run_imgpar({"sharpen", "--help"}).out).front() == "imgpar sharpen IN OUT [OPTION...]");
    CHECK(test::help_synopsis(run_imgpar({"histo", "--help"}).out) ==
          std::vector<std::string>{"imgpar histo FILE... [OPTION...]"});
    CHECK(test::help_synopsis(run_imgpar({"integral", "--help"}).out).front() ==
          "imgpar integral IN OUT.npy [OPTION...]");
    CHECK(test::help_synopsis(run_imgpar({"completion", "--help"}).out).front() ==
          "imgpar completion bash|zsh|fish [OPTION...]");
    CHECK(test::help_synopsis(run_imgpar({"devices", "--help"}).out).front() == "imgpar devices [OPTION...]");
    // A usage error repeats the forms.
    const auto r = run_imgpar({"crop"});
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "usage: imgpar crop IN OUT [WxH+X+Y] [OPTION...]\n       imgpar crop --out-dir DIR IN..."));
}

TEST_CASE("cli help: the examples are the declarations', and the man page shows each command's forms and examples") {
    for (const Operation& op : operations()) {
        CAPTURE(op.name);
        const std::string help = run_imgpar({op.name, "--help"}).out;
        std::vector<std::string> declared;
        for (const Usage& u : op.usage) {
            declared.push_back(u.line);
            CHECK(has(help, "\n      " + u.what + "\n"));
        }
        CHECK(test::help_examples(help) == declared);
        std::vector<std::string> forms;
        for (const std::string& f : op.synopsis()) forms.push_back("imgpar " + op.name + " " + f + " [OPTION...]");
        CHECK(test::help_synopsis(help) == forms);
    }
    const std::string page = run_imgpar({"manpage"}).out;
    for (const std::string& c : test::listed_commands()) {
        CAPTURE(c);
        const std::size_t at = page.find(".SS \"imgpar " + roff_text(c) + "\"\n");
        REQUIRE(at != std::string::npos);
        const std::string section = page.substr(at, page.find(".SS ", at + 1) - at);
        const std::string help = run_imgpar({c, "--help"}).out;
        for (const std::string& f : test::help_synopsis(help)) CHECK_MESSAGE(has(section, roff_text(f) + "\n"), f);
        for (const std::string& e : test::help_examples(help))
            CHECK_MESSAGE(has(section, "\\fB" + roff_text(e) + "\\fR\n"), e);
    }
}

TEST_CASE("cli help: every example shown in --help runs as written on the sample images") {
    if (!test::have_program("bash")) {
        MESSAGE("bash not found: the examples were not run");
        return;
    }
    TempDir dir;
    make_example_files(dir);
    std::vector<std::string> examples;
    for (const std::string& c : test::listed_commands())
        for (const std::string& line : test::help_examples(run_imgpar({c, "--help"}).out)) examples.push_back(line);
    // One bash runs them all, as users type them (globs, quotes, <(...)),
    // each in a subshell in the folder, HOME being the folder too; it prints
    // each one's exit status and keeps its messages.
    std::string script = "cd " + dir.path() + " && export HOME=" + dir.path() + " PATH=" + dir.path() + "/bin:$PATH\n";
    for (std::size_t i = 0; i < examples.size(); ++i)
        script += "(" + examples[i] + ") > /dev/null 2> err" + std::to_string(i) + "; echo $?\n";
    test::write_bytes(dir.file("examples.sh"), script);
    const std::vector<std::string> statuses = test::lines(test::capture("bash " + dir.file("examples.sh")));
    REQUIRE(statuses.size() == examples.size());
    for (std::size_t i = 0; i < examples.size(); ++i) {
        CAPTURE(examples[i]);
        CHECK_MESSAGE(statuses[i] == "0", test::read_bytes(dir.file("err" + std::to_string(i))));
    }
    const std::size_t ran = examples.size();
    CHECK(ran >= 70);
    // What some of them wrote.
    for (const char* made : {"soft.jpg", "soft/a.jpg", "soft/b.jpg", "box/a.png", "thumbs/b.jpg", "tables/a.npy",
                             "png/b.png", "diff.png", "imgpar.1", "docs/commands/blur.md", ".zfunc/_imgpar",
                             ".config/fish/completions/imgpar.fish"})
        CHECK_MESSAGE(test::file_exists(dir.file(made)), made);
}
