// What the shells complete, read once from the command table, so that the
// bash, zsh and fish scripts (cli/completion_*.cpp) offer the same words:
// the commands, each command's options, the values an option takes (its
// choices or suggestions, folders, file names, or nothing where a number
// goes) and its positional arguments (file names, or words such as
// completion's shells).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace imgpar::cli {

enum class Completes { Nothing, Words, Files, Folders };

struct OptionCompletion {
    std::string name;        // "border"
    std::string short_name;  // "o", or empty
    bool takes_value = false;
    Completes value = Completes::Nothing;
    std::vector<std::string> words;  // Completes::Words
    std::string help;                // one line, for the shells that show it
};

struct CommandCompletion {
    std::string name;
    std::string summary;
    std::vector<OptionCompletion> options;  // its own and the common ones
    Completes positionals = Completes::Files;
    std::vector<std::string> positional_words;  // Completes::Words
};

struct CompletionModel {
    // Every command, and "help", whose argument is a command's name.
    std::vector<CommandCompletion> commands;
    // What may come before the command: the common options, --help, --version.
    std::vector<OptionCompletion> leading;

    // "help blur box ...": every name the script recognises as the command.
    std::vector<std::string> command_names() const;
};

// Throws imgpar::Error (usage) for a name or word that would need quoting
// in a script (the test runs this over the whole table).
CompletionModel completion_model();

// An option as a shell sees it: "--border", "-o".
inline std::string long_form(const OptionCompletion& o) { return "--" + o.name; }
inline std::string short_form(const OptionCompletion& o) { return "-" + o.short_name; }

// Words joined by spaces.
std::string joined(const std::vector<std::string>& words);

// The options of a command as one list of words: "--sigma --radius -o ...".
std::string option_words(const std::vector<OptionCompletion>& options);

// The part of the bash and zsh completion functions after they have set
// $cur (the word being completed), $prev (the one before) and $cmd (the
// command, or empty): it calls _imgpar_words 'WORDS', _imgpar_files,
// _imgpar_folders or _imgpar_nothing, which each script defines in its own
// shell, so the two offer the same from one text.
void write_dispatch(std::ostream& os, const CompletionModel& model);

void write_bash(std::ostream& os, const CompletionModel& model);
void write_zsh(std::ostream& os, const CompletionModel& model);
void write_fish(std::ostream& os, const CompletionModel& model);

}  // namespace imgpar::cli
