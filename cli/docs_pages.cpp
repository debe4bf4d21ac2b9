#include "cli/docs_pages.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/help_text.hpp"
#include "src/error.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cli {
namespace {

const char* const kGenerated =
    "<!-- Generated from the declarations in the code by `imgpar manpage --markdown docs/commands`;\n"
    "     edit those, not this page (a test fails when the two differ). -->\n";

// A table cell: '|' would end it.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

// The options as a table, as the README's parameter tables: the option, what
// it means, what it allows (range and note), its default.
void write_options(std::ostream& os, const std::vector<ParamSpec>& params) {
    os << "| option | meaning | allowed | default |\n|---|---|---|---|\n";
    for (const ParamSpec& p : params) {
        std::string allowed = p.range_text();
        if (!p.note.empty()) allowed += (allowed.empty() ? "" : "; ") + p.note;
        const std::string names = (p.short_name.empty() || p.short_name == p.name ? "" : "-" + p.short_name + ", ") +
                                  "--" + p.name + (p.value_name.empty() ? "" : " " + p.value_name);
        os << "| `" << names << "` | " << cell(p.help) << " | " << cell(allowed) << " | " << cell(p.default_text())
           << " |\n";
    }
}

void write_command_page(std::ostream& os, const Command& c) {
    os << kGenerated << "\n# imgpar " << c.name << "\n\n" << c.summary << ".\n\n```\n";
    for (const std::string& line : synopsis_lines(c)) os << line << "\n";
    os << "```\n\n";
    // The --help description's lines: Markdown joins those of a paragraph.
    os << c.description << "\n";
    const Operation* op = find_operation(c.name);
    for (const OptionGroup& g : c.options) {
        os << "\n## " << g.name << " options\n\n";
        // An operation's own parameters, marked as the README's tables were
        // (tests/test_operations.cpp reads them between these lines).
        const bool own = op && g.name == op->group;
        if (own) os << "<!-- parameters of " << c.name << ": generated from its declaration -->\n";
        write_options(os, g.params);
        if (own) os << "<!-- end of parameters -->\n";
    }
    os << "\nEvery command also takes the [common options](README.md#common-options).\n";
    if (!c.examples.empty()) {
        os << "\n## Examples\n";
        for (const Usage& u : c.examples) os << "\n" << u.what << ":\n\n```sh\n" << u.line << "\n```\n";
    }
}

void write_index(std::ostream& os) {
    os << kGenerated
       << "\n# imgpar command reference\n\n"
          "One page per command: its forms, what it computes, its options with their ranges and defaults, and\n"
          "examples. `imgpar COMMAND --help` and `man imgpar` say the same.\n\n"
          "| command | what it does |\n|---|---|\n";
    for (const Command& c : command_table()) os << "| [" << c.name << "](" << c.name << ".md) | " << cell(c.summary) << " |\n";
    os << "\n## Common options\n\n"
          "Every command takes these, before or after its name.\n\n";
    write_options(os, common_options().params);
    os << "\n## Exit status\n\n| status | meaning |\n|---|---|\n";
    for (const ExitStatus& s : exit_statuses()) os << "| " << s.code << " | " << cell(s.meaning) << " |\n";
}

void write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) throw output_error(path.string(), "cannot be written");
}

}  // namespace

void write_reference_pages(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw output_error(dir, "cannot create the folder: " + ec.message());
    const std::filesystem::path folder(dir);
    for (const Command& c : command_table()) {
        std::ostringstream page;
        write_command_page(page, c);
        write_file(folder / (c.name + ".md"), page.str());
    }
    std::ostringstream index;
    write_index(index);
    write_file(folder / "README.md", index.str());
}

}  // namespace imgpar::cli
