// The bash completion script (`imgpar completion bash`), written from the
// completion model (cli/completion_model.hpp).
#include <ostream>
#include <string>

#include "cli/completion_model.hpp"

namespace imgpar::cli {

void write_bash(std::ostream& os, const CompletionModel& model) {
    os << "# bash completion for imgpar, written by 'imgpar completion bash'.\n"
          "# Load it with:  source <(imgpar completion bash)\n\n"
          "_imgpar_files() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    # One name per line: names with spaces stay whole, and are not globbed.\n"
          "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
          "}\n\n"
          "_imgpar_folders() {\n"
          "    compopt -o filenames 2>/dev/null\n"
          "    mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
          "}\n\n"
          "_imgpar_words() {\n"
          "    mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\")\n"
          "}\n\n"
          "# Where a number or free text goes: nothing to offer, not even file names.\n"
          "_imgpar_nothing() {\n"
          "    COMPREPLY=()\n"
          "}\n\n"
          "_imgpar() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    # --name=VALUE: bash splits the word at '=' (COMP_WORDBREAKS).\n"
          "    if [[ $cur == = ]]; then\n"
          "        cur=''\n"
          "    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
          "    fi\n"
          "    local cmd='' i w\n"
          "    # The command is the first word that names one (global options may come first).\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        case \" "
       << joined(model.command_names())
       << " \" in *\" $w \"*) cmd=$w; break;; esac\n"
          "    done\n";
    write_dispatch(os, model);
    os << "}\n"
          "complete -F _imgpar imgpar\n";
}

}  // namespace imgpar::cli
