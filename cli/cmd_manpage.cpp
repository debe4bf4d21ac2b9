// `imgpar manpage`: the manual page (roff, man(7) macros) written from the
// command table, so it documents the same commands, forms, options and
// examples as --help (cli/help_text.hpp). The build writes it to imgpar.1
// and `cmake --install` installs it. With --markdown DIR it writes the
// reference pages instead (cli/docs_pages.hpp), kept in docs/commands.
#include <ostream>
#include <sstream>
#include <string>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/docs_pages.hpp"
#include "cli/help_text.hpp"

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
    const std::string default_text = p.default_text();
    if (!default_text.empty()) os << " (default: " << roff(default_text) << ")";
    os << "\n";
}

void write_command(std::ostream& os, const Command& c) {
    os << ".SS \"imgpar " << roff(c.name) << "\"\n.nf\n";
    for (const std::string& line : synopsis_lines(c)) os << roff(line) << "\n";
    os << ".fi\n.PP\n" << roff(c.summary) << ".\n.PP\n";
    // The --help description is preformatted in lines of at most 100
    // characters; roff refills them, and a blank line starts a paragraph.
    std::istringstream lines(c.description);
    std::string line;
    while (std::getline(lines, line)) os << (line.empty() ? std::string(".PP") : roff(line)) << "\n";
    for (const OptionGroup& g : c.options)
        for (const ParamSpec& p : g.params) write_option(os, p);
    if (c.examples.empty()) return;
    os << ".PP\nExamples:\n";
    for (const Usage& u : c.examples) os << ".TP\n\\fB" << roff(u.line) << "\\fR\n" << roff(u.what) << ".\n";
}

void write_page(std::ostream& os) {
    os << ".TH IMGPAR 1 \"\" \"imgpar " IMGPAR_VERSION "\" \"User Commands\"\n"
          ".SH NAME\nimgpar \\- image processing on the GPU, with the same bytes on the CPU\n"
          ".SH SYNOPSIS\n.B imgpar\n.I COMMAND\n[\\fIOPTIONS\\fR] \\fIARGS\\fR...\n.br\n"
          ".B imgpar\n.I COMMAND\n\\fB\\-\\-help\\fR\n.br\n.B imgpar help\n.I COMMAND\n.br\n"
          ".B imgpar\n\\fB\\-\\-version\\fR | \\fB\\-V\\fR\n"
          ".SH DESCRIPTION\n"
          "imgpar filters images (Gaussian blur, box, unsharp mask, edges, custom kernels), computes\n"
          "histograms, equalizes and thresholds, reading and writing PNG, JPEG, BMP, WebP, AVIF and TIFF (and\n"
          "reading GIF). It runs on an NVIDIA GPU when one is usable and on the CPU otherwise; both give\n"
          "byte-identical results.\n"
          "\\fB\\-\\fR as a file name reads standard input or writes standard output. Every command that\n"
          "writes an image also runs over many files (\\fB\\-\\-out\\-dir\\fR, \\fB\\-\\-output\\fR).\n"
          ".SH COMMANDS\n";
    for (const Command& c : command_table()) write_command(os, c);
    os << ".SH COMMON OPTIONS\nEvery command takes these.\n";
    for (const ParamSpec& p : common_options().params) write_option(os, p);
    os << ".SH EXIT STATUS\n";
    for (const ExitStatus& s : exit_statuses()) os << ".TP\n" << s.code << "\n" << roff(s.meaning) << "\n";
    os << ".SH SEE ALSO\n"
          ".BR convert (1),\n.BR vips (1)\n";
}

}  // namespace

Command manpage_command() {
    Command c;
    c.name = "manpage";
    c.summary = "Print this manual page (roff), or write the reference pages (Markdown)";
    c.synopsis = {"", "--markdown DIR"};
    c.description =
        "Prints imgpar's manual page in roff (man(7) macros), made from the same declarations as --help.\n"
        "Read it with  imgpar manpage | man -l -   (cmake --install installs it as share/man/man1/imgpar.1).\n"
        "--markdown DIR writes the same reference as Markdown instead: DIR/COMMAND.md for each command and\n"
        "DIR/README.md, their index (the sources keep them in docs/commands, and a test checks they are current).";
    c.min_positionals = 0;
    c.max_positionals = 0;
    c.options = {{"Manual",
                  {ParamSpec::path("markdown", "DIR", "Write a Markdown page per command and an index into DIR "
                                                      "(created if missing) instead of printing the manual page")
                       .naming_a_folder()}}};
    c.examples = {{"imgpar manpage > imgpar.1", "The manual page, to read with man -l imgpar.1"},
                  {"imgpar manpage --markdown docs/commands", "The reference pages, one per command"}};
    c.run = [](Invocation& inv) {
        if (inv.values.given("markdown"))
            write_reference_pages(inv.values.text("markdown"));
        else
            write_page(inv.out);
        return kExitOk;
    };
    return c;
}

}  // namespace imgpar::cli
