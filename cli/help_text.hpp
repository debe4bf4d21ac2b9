// The help of one command as --help prints it: its synopsis, summary and
// description, every option under its group's heading (the common ones
// last), then its examples. The man page (cli/cmd_manpage.cpp) and the
// reference pages (cli/docs_pages.cpp) lay out the same parts.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace imgpar::cli {

// The command's option groups, then the common ones.
std::vector<OptionGroup> option_groups(const Command& cmd);

// Every form of its command line: "imgpar blur IN OUT [RADIUSxSIGMA] [OPTION...]".
std::vector<std::string> synopsis_lines(const Command& cmd);

void print_help(std::ostream& os, const Command& cmd);

// After a usage error: the synopsis, and where the rest is.
void print_usage_hint(std::ostream& os, const Command& cmd);

// What each exit status means, for the man page and the reference pages.
struct ExitStatus {
    int code;
    std::string meaning;
};
std::vector<ExitStatus> exit_statuses();

}  // namespace imgpar::cli
