// `imgpar completion bash`: a bash completion script written from the command
// table, so it offers exactly the commands, options and choices that --help
// lists. The build installs its output (CMakeLists.txt).
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/error.hpp"

namespace imgpar::cli {
namespace {

// Words inside the script are imgpar's own names and choices: letters,
// digits, '-', '_' and ':'. Anything else would need shell quoting, so it is
// refused here (a test runs this over the whole table).
const std::string& shell_word(const std::string& w) {
    for (char c : w)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':'))
            throw usage_error("completion", "the name '" + w + "' cannot be written unquoted into a shell script");
    return w;
}

std::vector<ParamSpec> all_params(const Command& cmd) {
    std::vector<ParamSpec> params;
    for (const OptionGroup& g : cmd.options) params.insert(params.end(), g.params.begin(), g.params.end());
    const OptionGroup common = common_options();
    params.insert(params.end(), common.params.begin(), common.params.end());
    return params;
}

std::string option_words(const std::vector<ParamSpec>& params) {
    std::string words;
    for (const ParamSpec& p : params) {
        words += (words.empty() ? "--" : " --") + shell_word(p.name);
        if (!p.short_name.empty()) words += " -" + shell_word(p.short_name);
    }
    return words;
}

// One `case` arm per option that takes a value: its choices, file names for
// a path, nothing for a number or a free-form value (so that the shell does
// not offer file names where a number goes).
void write_value_arms(std::ostream& os, const Command& cmd) {
    for (const ParamSpec& p : all_params(cmd)) {
        if (p.kind == ParamKind::Flag) continue;
        os << "        \"" << shell_word(cmd.name) << " --" << shell_word(p.name) << '"';
        if (!p.short_name.empty()) os << "|\"" << cmd.name << " -" << shell_word(p.short_name) << '"';
        os << ") ";
        if (p.kind == ParamKind::Choice) {
            std::string words;
            for (const std::string& c : p.choices) words += (words.empty() ? "" : " ") + shell_word(c);
            os << "COMPREPLY=($(compgen -W '" << words << "' -- \"$cur\"));;\n";
        } else if (p.kind == ParamKind::Path) {
            os << "_imgpar_files;;\n";
        } else {
            os << "COMPREPLY=();;\n";
        }
    }
}

void write_bash(std::ostream& os) {
    const std::vector<Command>& table = command_table();
    std::string commands;
    for (const Command& c : table) commands += (commands.empty() ? "" : " ") + shell_word(c.name);
    const std::string common = option_words(common_options().params);

    os << "# bash completion for imgpar " IMGPAR_VERSION ", written by 'imgpar completion bash'.\n"
          "# Load it with:  source <(imgpar completion bash)\n\n"
          "_imgpar_files() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    # One name per line: names with spaces stay whole, and are not globbed.\n"
          "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
          "}\n\n"
          "_imgpar() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local cmd='' i w\n"
          "    # The command is the first word that names one (global options may come first).\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        case \" help "
       << commands
       << " \" in *\" $w \"*) cmd=$w; break;; esac\n"
          "    done\n"
          "    if [[ -z $cmd ]]; then\n"
          "        case $prev in\n";
    // Global options before the command take values too.
    for (const ParamSpec& p : common_options().params) {
        if (p.kind == ParamKind::Flag) continue;
        os << "            --" << shell_word(p.name) << ") COMPREPLY=(); return;;\n";
    }
    os << "        esac\n"
          "        if [[ $cur == -* ]]; then\n"
          "            COMPREPLY=($(compgen -W '--help --version "
       << common
       << "' -- \"$cur\"))\n"
          "        else\n"
          "            COMPREPLY=($(compgen -W 'help "
       << commands
       << "' -- \"$cur\"))\n"
          "        fi\n"
          "        return\n"
          "    fi\n"
          "    case \"$cmd $prev\" in\n";
    for (const Command& c : table) write_value_arms(os, c);
    os << "        *)\n"
          "            if [[ $cur == -* ]]; then\n"
          "                case $cmd in\n";
    for (const Command& c : table)
        os << "                    " << c.name << ") COMPREPLY=($(compgen -W '" << option_words(all_params(c))
           << "' -- \"$cur\"));;\n";
    os << "                esac\n"
          "            elif [[ $cmd == help && $prev == help ]]; then\n"
          "                COMPREPLY=($(compgen -W '"
       << commands
       << "' -- \"$cur\"))\n"
          "            else\n"
          "                _imgpar_files\n"
          "            fi;;\n"
          "    esac\n"
          "}\n"
          "complete -F _imgpar imgpar\n";
}

}  // namespace

Command completion_command() {
    Command c;
    c.name = "completion";
    c.summary = "Print a shell completion script (bash)";
    c.synopsis = {"bash"};
    c.description =
        "Prints a script that completes imgpar's commands, options, choices and file names in SHELL\n"
        "(bash). Load it for this shell with  source <(imgpar completion bash), or install it as\n"
        "imgpar in a bash-completion folder (cmake --install does: share/bash-completion/completions).";
    c.min_positionals = 1;
    c.max_positionals = 1;
    c.examples = {{"source <(imgpar completion bash)", "Complete imgpar in this shell (or put the line in ~/.bashrc)"},
                  {"imgpar completion bash > imgpar.bash", "The script, to install in a bash-completion folder"}};
    c.run = [](Invocation& inv) {
        const std::string& shell = inv.positionals[0];
        if (shell != "bash") throw usage_error("SHELL", "'" + shell + "' is not supported (supported: bash)");
        write_bash(inv.out);
        return kExitOk;
    };
    return c;
}

}  // namespace imgpar::cli
