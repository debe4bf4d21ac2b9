// `imgpar completion bash|zsh|fish`: a completion script written from the
// command table (cli/completion_model.hpp), so it offers exactly the
// commands, options and values that --help lists. The build installs the
// bash script (CMakeLists.txt).
#include <ostream>
#include <string>

#include "cli/command.hpp"
#include "cli/completion_model.hpp"
#include "src/error.hpp"

namespace imgpar::cli {

Command completion_command() {
    Command c;
    c.name = "completion";
    c.summary = "Print a shell completion script (bash, zsh, fish)";
    c.synopsis = {"bash|zsh|fish"};
    c.description =
        "Prints a script that completes imgpar's commands, each command's options, the values an option\n"
        "takes (border rules, devices, filters, formats, gravities, ...), folders after --out-dir and file\n"
        "names elsewhere, in the shell named. cmake --install installs the bash one in\n"
        "share/bash-completion/completions.";
    c.min_positionals = 1;
    c.max_positionals = 1;
    c.positional_words = {"bash", "zsh", "fish"};
    c.examples = {{"source <(imgpar completion bash)", "bash: complete imgpar in this shell (or put the line in ~/.bashrc)"},
                  {"imgpar completion zsh > ~/.zfunc/_imgpar",
                   "zsh: install it where fpath=(~/.zfunc $fpath) in ~/.zshrc finds it before compinit"},
                  {"imgpar completion fish > ~/.config/fish/completions/imgpar.fish", "fish: install it for your user"}};
    c.run = [](Invocation& inv) {
        const std::string& shell = inv.positionals[0];
        const CompletionModel model = completion_model();
        if (shell == "bash")
            write_bash(inv.out, model);
        else if (shell == "zsh")
            write_zsh(inv.out, model);
        else if (shell == "fish")
            write_fish(inv.out, model);
        else
            throw usage_error("SHELL", "'" + shell + "' is not supported (supported: bash, zsh, fish)");
        return kExitOk;
    };
    return c;
}

}  // namespace imgpar::cli
