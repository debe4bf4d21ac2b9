#include "cli/completion_model.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/help_text.hpp"
#include "src/error.hpp"

namespace imgpar::cli {
namespace {

// Names and words go into the scripts unquoted: letters, digits, '-', '_',
// '.', ':' only. Anything else is refused here rather than quoted three ways.
const std::string& shell_word(const std::string& w) {
    for (char c : w)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.'))
            throw usage_error("completion", "the name '" + w + "' cannot be written unquoted into a shell script");
    return w;
}

OptionCompletion option_of(const ParamSpec& p) {
    OptionCompletion o;
    o.name = shell_word(p.name);
    if (!p.short_name.empty() && p.short_name != p.name) o.short_name = shell_word(p.short_name);
    o.takes_value = p.kind != ParamKind::Flag;
    o.help = p.help;
    if (!o.takes_value) return o;
    if (p.kind == ParamKind::Path) {
        o.value = p.folder ? Completes::Folders : Completes::Files;
    } else if (!p.value_words().empty()) {
        o.value = Completes::Words;
        for (const std::string& w : p.value_words()) o.words.push_back(shell_word(w));
    }
    return o;
}

bool same_value(const OptionCompletion& a, const OptionCompletion& b) {
    return a.takes_value == b.takes_value && a.value == b.value && a.words == b.words && a.short_name == b.short_name;
}

bool completes_alike_everywhere(const CompletionModel& model, const std::string& option) {
    const OptionCompletion* first = nullptr;
    const auto alike = [&](const OptionCompletion& o) {
        if (o.name != option) return true;
        if (!first) first = &o;
        return same_value(*first, o);
    };
    for (const OptionCompletion& o : model.leading)
        if (!alike(o)) return false;
    for (const CommandCompletion& c : model.commands)
        for (const OptionCompletion& o : c.options)
            if (!alike(o)) return false;
    return true;
}

// The options that take a value, grouped by what the value completes with,
// each group with the "$cmd $prev" patterns it answers: "* --device" for an
// option that completes alike in every command, "blur --border" for one that
// differs between commands (pad's --border against blur's).
struct ValueRule {
    Completes value = Completes::Nothing;
    std::vector<std::string> words;
    std::vector<std::string> patterns;
};

std::vector<ValueRule> value_rules(const CompletionModel& model) {
    std::vector<ValueRule> rules;
    const auto add = [&](const std::string& cmd, const OptionCompletion& o) {
        if (!o.takes_value) return;
        std::size_t at = 0;
        while (at < rules.size() && !(rules[at].value == o.value && rules[at].words == o.words)) ++at;
        if (at == rules.size()) rules.push_back({o.value, o.words, {}});
        std::vector<std::string>& patterns = rules[at].patterns;
        const std::string scope = completes_alike_everywhere(model, o.name) ? "*" : cmd;
        for (const std::string& form : {long_form(o), o.short_name.empty() ? std::string() : short_form(o)}) {
            const std::string pattern = scope + " " + form;
            if (!form.empty() && std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
                patterns.push_back(pattern);
        }
    };
    for (const OptionCompletion& o : model.leading) add("", o);
    for (const CommandCompletion& c : model.commands)
        for (const OptionCompletion& o : c.options) add(c.name, o);
    return rules;
}

// A pattern as bash and zsh read it in a `case`: *" --device", "blur --border".
std::string case_pattern(const std::string& pattern) {
    if (pattern.rfind("* ", 0) == 0) return "*\"" + pattern.substr(1) + "\"";
    return "\"" + pattern + "\"";
}

// The call that completes a value or a positional (the script's helpers).
std::string completes(Completes what, const std::vector<std::string>& words) {
    switch (what) {
        case Completes::Words: return "_imgpar_words '" + joined(words) + "'";
        case Completes::Files: return "_imgpar_files";
        case Completes::Folders: return "_imgpar_folders";
        case Completes::Nothing: break;
    }
    return "_imgpar_nothing";
}

}  // namespace

void write_dispatch(std::ostream& os, const CompletionModel& model) {
    os << "    case \"$cmd $prev\" in\n";
    for (const ValueRule& r : value_rules(model)) {
        std::string arm;
        for (const std::string& p : r.patterns) arm += (arm.empty() ? "" : "|") + case_pattern(p);
        os << "        (" << arm << ")\n            " << completes(r.value, r.words) << "; return;;\n";
    }
    os << "    esac\n"
          "    if [[ -z $cmd ]]; then\n"
          "        if [[ $cur == -* ]]; then\n"
          "            _imgpar_words '"
       << option_words(model.leading)
       << "'\n"
          "        else\n"
          "            _imgpar_words '"
       << joined(model.command_names())
       << "'\n"
          "        fi\n"
          "        return\n"
          "    fi\n"
          "    if [[ $cur == -* ]]; then\n"
          "        case $cmd in\n";
    for (const CommandCompletion& c : model.commands)
        os << "            (" << c.name << ") _imgpar_words '" << option_words(c.options) << "';;\n";
    os << "        esac\n"
          "        return\n"
          "    fi\n"
          "    case $cmd in\n";
    for (const CommandCompletion& c : model.commands)
        os << "        (" << c.name << ") " << completes(c.positionals, c.positional_words) << ";;\n";
    os << "    esac\n";
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

std::string option_words(const std::vector<OptionCompletion>& options) {
    std::vector<std::string> words;
    for (const OptionCompletion& o : options) {
        words.push_back(long_form(o));
        if (!o.short_name.empty()) words.push_back(short_form(o));
    }
    return joined(words);
}

std::vector<std::string> CompletionModel::command_names() const {
    std::vector<std::string> names;
    for (const CommandCompletion& c : commands) names.push_back(c.name);
    return names;
}

CompletionModel completion_model() {
    CompletionModel model;
    CommandCompletion help{"help", "Show a command's help", {}, Completes::Words, {}};
    for (const Command& cmd : command_table()) {
        CommandCompletion c;
        c.name = shell_word(cmd.name);
        c.summary = cmd.summary;
        for (const OptionGroup& g : option_groups(cmd))
            for (const ParamSpec& p : g.params) c.options.push_back(option_of(p));
        if (!cmd.positional_words.empty()) {
            c.positionals = Completes::Words;
            for (const std::string& w : cmd.positional_words) c.positional_words.push_back(shell_word(w));
        } else if (cmd.max_positionals == 0) {
            c.positionals = Completes::Nothing;
        }
        help.positional_words.push_back(c.name);
        model.commands.push_back(std::move(c));
    }
    model.commands.insert(model.commands.begin(), std::move(help));
    for (const ParamSpec& p : common_options().params) model.leading.push_back(option_of(p));
    OptionCompletion version;
    version.name = "version";
    version.short_name = "V";
    version.help = "Print the version";
    model.leading.push_back(version);
    return model;
}

}  // namespace imgpar::cli
