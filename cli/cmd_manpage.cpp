// `imgpar manpage`: the manual page (roff, man(7) macros) written from the
// command table, so it documents the same commands and options as --help.
// The build writes it to imgpar.1 and `cmake --install` installs it.
#include <ostream>
#include <sstream>
#include <string>

#include "cli/command.hpp"
#include "cli/common_options.hpp"

namespace imgpar::cli {
namespace {

// Text for roff: backslashes escaped, hyphens in option-like words kept as
// hyphen-minus (\-) so they can be copied from the page, and a line that
// would start with a control character ('.' or ') made literal with \&.
std::string roff(const std::string& text) {
    std::string out;
    bool line_start = true;
    for (char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        line_start = c == '\n';
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

void write_option(std::ostream& os, const ParamSpec& p) {
    os << ".TP\n";
    if (!p.short_name.empty()) os << "\\fB\\-" << roff(p.short_name) << "\\fR, ";
    os << "\\fB\\-\\-" << roff(p.name) << "\\fR";
    if (p.kind != ParamKind::Flag) os << " \\fI" << roff(p.value_name) << "\\fR";
    os << "\n" << roff(p.help_text());
    if (p.default_value && !p.default_value->empty()) os << " (default: " << roff(*p.default_value) << ")";
    os << "\n";
}

void write_command(std::ostream& os, const Command& c) {
    os << ".SS \"imgpar " << roff(c.name) << " [OPTIONS] " << roff(c.positional_help) << "\"\n"
       << roff(c.summary) << ".\n.PP\n";
    // The --help description is preformatted in lines of at most 100
    // characters; roff refills them, and a blank line starts a paragraph.
    std::istringstream lines(c.description);
    std::string line;
    while (std::getline(lines, line)) os << (line.empty() ? std::string(".PP") : roff(line)) << "\n";
    for (const OptionGroup& g : c.options)
        for (const ParamSpec& p : g.params) write_option(os, p);
}

void write_page(std::ostream& os) {
    os << ".TH IMGPAR 1 \"\" \"imgpar " IMGPAR_VERSION "\" \"User Commands\"\n"
          ".SH NAME\nimgpar \\- image processing on the GPU, with the same bytes on the CPU\n"
          ".SH SYNOPSIS\n.B imgpar\n.I COMMAND\n[\\fIOPTIONS\\fR] \\fIARGS\\fR...\n.br\n"
          ".B imgpar\n.I COMMAND\n\\fB\\-\\-help\\fR\n.br\n.B imgpar help\n.I COMMAND\n.br\n"
          ".B imgpar\n\\fB\\-\\-version\\fR | \\fB\\-V\\fR\n"
          ".SH DESCRIPTION\n"
          "imgpar filters images (Gaussian blur, box, unsharp mask, edges, custom kernels), computes\n"
          "histograms, equalizes and thresholds, reading and writing PNG, JPEG and BMP. It runs on an NVIDIA\n"
          "GPU when one is usable and on the CPU otherwise; both give byte-identical results.\n"
          "\\fB\\-\\fR as a file name reads standard input or writes standard output. Every command that\n"
          "writes an image also runs over many files (\\fB\\-\\-out\\-dir\\fR, \\fB\\-\\-output\\fR).\n"
          ".SH COMMANDS\n";
    for (const Command& c : command_table()) write_command(os, c);
    os << ".SH COMMON OPTIONS\nEvery command takes these.\n";
    for (const ParamSpec& p : common_options().params) write_option(os, p);
    os << ".SH EXIT STATUS\n"
          ".TP\n" << kExitOk << "\nsuccess\n"
          ".TP\n" << kExitFileFailed << "\nan input or output failed (the message names the file and the reason)\n"
          ".TP\n" << kExitUsage << "\nusage error (an unknown option, a value out of range, a missing argument)\n"
          ".TP\n" << kExitGpuUnavailable
       << "\nthe requested GPU is unavailable or failed; the files are not at fault, so the job can be run\n"
          "again on another machine\n"
          ".TP\n" << kExitCheckFailed
       << "\nevery input was read and a check failed (compare --fail-above, --fail-below); 1 wins when an input\n"
          "also failed\n"
          ".SH SEE ALSO\n"
          ".BR convert (1),\n.BR vips (1)\n";
}

}  // namespace

Command manpage_command() {
    Command c;
    c.name = "manpage";
    c.summary = "Print this manual page (roff)";
    c.positional_help = "";
    c.description =
        "Prints imgpar's manual page in roff (man(7) macros), made from the same declarations as --help.\n"
        "Read it with  imgpar manpage | man -l -   (cmake --install installs it as share/man/man1/imgpar.1).";
    c.min_positionals = 0;
    c.max_positionals = 0;
    c.run = [](Invocation& inv) {
        write_page(inv.out);
        return kExitOk;
    };
    return c;
}

}  // namespace imgpar::cli
