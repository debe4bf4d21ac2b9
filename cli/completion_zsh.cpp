// The zsh completion script (`imgpar completion zsh`), written from the
// completion model (cli/completion_model.hpp): a #compdef function that
// works autoloaded from $fpath or sourced.
#include <ostream>
#include <string>

#include "cli/completion_model.hpp"

namespace imgpar::cli {

void write_zsh(std::ostream& os, const CompletionModel& model) {
    os << "#compdef imgpar\n"
          "# zsh completion for imgpar, written by 'imgpar completion zsh'.\n"
          "# Install it as _imgpar in a folder of $fpath (before compinit runs):\n"
          "#     imgpar completion zsh > ~/.zfunc/_imgpar   with  fpath=(~/.zfunc $fpath)  in ~/.zshrc\n"
          "# or load it into this shell:  source <(imgpar completion zsh)\n\n"
          "_imgpar_words() { compadd -- ${=1}; }\n"
          "_imgpar_files() { _files; }\n"
          "_imgpar_folders() { _files -/; }\n"
          "# Where a number or free text goes: nothing to offer, not even file names.\n"
          "_imgpar_nothing() { :; }\n\n"
          "_imgpar() {\n"
          "    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmd= i w\n"
          "    # --name=VALUE: complete the value of --name.\n"
          "    if [[ $cur == --*=* ]]; then\n"
          "        prev=${cur%%=*}\n"
          "        compset -P '*='\n"
          "        cur=${cur#*=}\n"
          "    fi\n"
          "    # The command is the first word that names one (global options may come first).\n"
          "    for ((i = 2; i < CURRENT; i++)); do\n"
          "        w=${words[i]}\n"
          "        case \" "
       << joined(model.command_names())
       << " \" in (*\" $w \"*) cmd=$w; break;; esac\n"
          "    done\n";
    write_dispatch(os, model);
    os << "}\n\n"
          "# Autoloaded from $fpath the file is the function's body; sourced, it registers it.\n"
          "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
          "    _imgpar \"$@\"\n"
          "elif (( $+functions[compdef] )); then\n"
          "    compdef _imgpar imgpar\n"
          "fi\n";
}

}  // namespace imgpar::cli
