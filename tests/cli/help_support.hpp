// What the CLI tests of help, completion and the reference pages share:
// running a shell command, and reading `imgpar --help` and `imgpar CMD
// --help` as a user does (an independent reading of the declarations).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"

namespace imgpar::test {

inline bool have_program(const std::string& name) {
    return std::system(("command -v " + name + " > /dev/null 2>&1").c_str()) == 0;
}

// The standard output of `command` run by sh.
inline std::string capture(const std::string& command) {
    std::string out;
    if (FILE* p = popen(command.c_str(), "r")) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        pclose(p);
    }
    return out;
}

// The command names `imgpar --help` lists.
inline std::vector<std::string> listed_commands() {
    std::vector<std::string> names;
    bool in_list = false;
    for (const std::string& l : lines(run_imgpar({"--help"}).out)) {
        if (l == "commands:") {
            in_list = true;
            continue;
        }
        if (in_list && l.empty()) break;
        if (in_list) names.push_back(l.substr(2, l.find(' ', 2) - 2));
    }
    return names;
}

// The forms `imgpar CMD --help` starts with: "imgpar blur IN OUT [RADIUSxSIGMA] [OPTION...]", ...
inline std::vector<std::string> help_synopsis(const std::string& help) {
    std::vector<std::string> forms;
    for (const std::string& l : lines(help)) {
        if (l.rfind("Usage: ", 0) == 0 || (!forms.empty() && l.rfind("       imgpar ", 0) == 0))
            forms.push_back(l.substr(7));
        else if (!forms.empty())
            break;
    }
    return forms;
}

// The example command lines under "Examples:" (indented two spaces; what
// each does follows, indented six).
inline std::vector<std::string> help_examples(const std::string& help) {
    std::vector<std::string> examples;
    bool in_examples = false;
    for (const std::string& l : lines(help)) {
        if (l == "Examples:") {
            in_examples = true;
        } else if (in_examples && l.rfind("  ", 0) == 0 && l.size() > 2 && l[2] != ' ') {
            examples.push_back(l.substr(2));
        } else if (in_examples && l.rfind("      ", 0) != 0) {
            break;
        }
    }
    return examples;
}

}  // namespace imgpar::test
