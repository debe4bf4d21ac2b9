// The fish completion script (`imgpar completion fish`), written from the
// completion model (cli/completion_model.hpp): `complete` rules guarded by
// which command the line has, each option with its help.
#include <ostream>
#include <string>
#include <vector>

#include "cli/completion_model.hpp"

namespace imgpar::cli {
namespace {

// fish's single quotes: only \ and ' are special inside them.
std::string quoted(const std::string& text) {
    std::string q = "'";
    for (char c : text) {
        if (c == '\\' || c == '\'') q += '\\';
        q += c;
    }
    return q + "'";
}

// The flags of `complete` for what a value or a positional completes with:
// -x (an argument, no file names) with words or folders, -r -F for files.
std::string value_flags(Completes what, const std::vector<std::string>& words) {
    switch (what) {
        case Completes::Words: return " -x -a " + quoted(joined(words));
        case Completes::Files: return " -r -F";
        case Completes::Folders: return " -x -a '(__fish_complete_directories (commandline -ct))'";
        case Completes::Nothing: break;
    }
    return " -x";
}

void write_option(std::ostream& os, const std::string& condition, const OptionCompletion& o) {
    os << "complete -c imgpar -n " << quoted(condition) << " -l " << o.name;
    if (!o.short_name.empty()) os << " -s " << o.short_name;
    if (o.takes_value) os << value_flags(o.value, o.words);
    os << " -d " << quoted(o.help) << "\n";
}

}  // namespace

void write_fish(std::ostream& os, const CompletionModel& model) {
    os << "# fish completion for imgpar, written by 'imgpar completion fish'.\n"
          "# Install it with:  imgpar completion fish > ~/.config/fish/completions/imgpar.fish\n\n"
          "# The command on the line: the first word that names one (global options may come first).\n"
          "function __imgpar_command\n"
          "    for w in (commandline -opc)[2..-1]\n"
          "        if contains -- $w "
       << joined(model.command_names())
       << "\n"
          "            echo $w\n"
          "            return 0\n"
          "        end\n"
          "    end\n"
          "    return 1\n"
          "end\n\n"
          "function __imgpar_using\n"
          "    set -l cmd (__imgpar_command)\n"
          "    test \"$cmd\" = $argv[1]\n"
          "end\n\n"
          "# Before the command: the commands and the global options.\n";
    for (const CommandCompletion& c : model.commands)
        os << "complete -c imgpar -n 'not __imgpar_command' -f -a " << c.name << " -d " << quoted(c.summary) << "\n";
    for (const OptionCompletion& o : model.leading) write_option(os, "not __imgpar_command", o);
    for (const CommandCompletion& c : model.commands) {
        const std::string using_it = "__imgpar_using " + c.name;
        os << "\n# " << c.name << "\n";
        if (c.positionals == Completes::Words)
            os << "complete -c imgpar -n " << quoted(using_it) << " -f -a " << quoted(joined(c.positional_words)) << "\n";
        else if (c.positionals == Completes::Nothing)
            os << "complete -c imgpar -n " << quoted(using_it) << " -f\n";
        for (const OptionCompletion& o : c.options) write_option(os, using_it, o);
    }
}

}  // namespace imgpar::cli
