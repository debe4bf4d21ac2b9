// The typed parameters of an operation, declared once (src/op/operation.hpp):
// the command line builds its options and help from them, the reference pages'
// parameter lists are checked against them, and the tests check that each
// declared range is exactly what the operation accepts.
//
// Values arrive as text (from the command line or from a declared example).
// A number is checked against its declaration as soon as it is given: the
// whole text must be a decimal number ("2x", "2,5", " 2", "0x2", "inf" are
// not; "1.5" is not an integer) within the declared range, or it is a usage
// error naming the option and what is allowed. The operation's plan maker
// (make_*, threshold_at, ...) validates again, with the same constants, when
// the job is made, for callers that bypass the declaration.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imgpar {

// Numbers as the command line takes them, in the same notation whatever the
// user's locale: the whole text, decimal, an optional sign ("-2", "+2"),
// digits with at most one '.', an optional exponent ("1e-3"). No spaces, no
// hex ("0x2"), no "inf" or "nan", no digit grouping ("2,5"). nullopt when the
// text is not such a number, or (with *out_of_range set) when its value does
// not fit: a long long, or a finite double.
std::optional<long long> parse_whole_number(std::string_view text, bool* out_of_range = nullptr);
std::optional<double> parse_decimal(std::string_view text, bool* out_of_range = nullptr);

enum class ParamKind {
    Flag,     // present or not
    Integer,  // a whole number in [min, max]
    Real,     // a finite number in [min, max] (or (min, max] with min_open)
    Choice,   // one of `choices`
    Text,     // free text with its own syntax (a border rule, a kernel, a size)
    Path,     // a file name (read or written)
};

struct ParamSpec {
    std::string name;        // the long option, without dashes: "sigma"
    std::string short_name;  // a one-letter alias ("v" for -v), or empty
    ParamKind kind = ParamKind::Flag;
    std::string value_name;  // "S"
    std::string help;        // what it means, one line, without range or default
    std::optional<double> min, max;  // Integer, Real: the allowed range
    bool min_open = false;           // min itself is not allowed (sigma > 0)
    std::vector<std::string> choices;  // Choice: the allowed words
    std::string allowed;     // Text: the allowed forms, in words
    std::string note;        // what a special value means: "0 = ceil(3 x sigma)"
    std::optional<std::string> default_value;  // none: absent unless given
    // Options that give this one its effect: it is ignored (and the command
    // line warns) unless one of them is given ("log" needs "plot") ...
    std::vector<std::string> needs_one_of;
    // ... or when one of these is given ("ascii" is text-only: "json", "csv").
    std::vector<std::string> unused_with;
    // Words the shells' completion offers for a Text value whose forms can
    // be listed ("replicate", "reflect", ... for --border); a Choice offers
    // its choices.
    std::vector<std::string> suggestions;
    // A Path that names a folder (--out-dir): completion offers folders.
    bool folder = false;
    // The default as the documentation states it, where the value itself
    // depends on the machine (--max-memory: half the memory, 1G to 4G): the
    // man page and docs/commands are made on one machine and read on others.
    std::string default_doc;

    // Builders, so a declaration reads as one expression per parameter.
    static ParamSpec flag(std::string name, std::string help);
    static ParamSpec integer(std::string name, std::string value_name, std::string help, long long min, long long max);
    static ParamSpec real(std::string name, std::string value_name, std::string help, double min, double max);
    static ParamSpec real(std::string name, std::string value_name, std::string help);  // any finite number
    static ParamSpec choice(std::string name, std::string value_name, std::string help, std::vector<std::string> choices);
    static ParamSpec text(std::string name, std::string value_name, std::string help, std::string allowed);
    static ParamSpec path(std::string name, std::string value_name, std::string help);
    ParamSpec&& above(double v) &&;  // min = v, excluded
    ParamSpec&& defaults(std::string v) &&;
    ParamSpec&& noting(std::string v) &&;
    ParamSpec&& abbreviated(std::string letter) &&;
    ParamSpec&& only_with(std::vector<std::string> options) &&;
    ParamSpec&& unused_beside(std::vector<std::string> options) &&;
    ParamSpec&& suggesting(std::vector<std::string> words) &&;
    ParamSpec&& naming_a_folder() &&;
    ParamSpec&& documented_default(std::string text) &&;

    // "0 < S <= 50", "1 to 1000", "sobel, scharr or laplacian", or `allowed`.
    std::string range_text() const;
    // The help line for --help: help, range and note ("; 0 = ...").
    std::string help_text() const;
    // The default for the documentation: default_doc, else the value; empty
    // when there is none.
    std::string default_text() const;
    // The words the shells offer for its value: the choices or suggestions.
    const std::vector<std::string>& value_words() const { return kind == ParamKind::Choice ? choices : suggestions; }
};

// Parameter values by name, as text, with whether the user gave each one.
// It refers to the specs it was made from, which must outlive it (operations
// are declared for the whole process).
class ParamValues {
public:
    // Every declared parameter with a default gets it; `given` overrides.
    // A given number or choice outside its declaration is a usage error.
    ParamValues(const std::vector<ParamSpec>& specs, const std::vector<std::pair<std::string, std::string>>& given);

    bool has(const std::string& name) const;  // declared
    bool given(const std::string& name) const;
    bool flag(const std::string& name) const;
    // Strict parses; a bad value is imgpar::Error (usage) naming --name.
    long long integer(const std::string& name) const;
    // integer(), saturated to int: a huge value stays out of range, so the
    // plan maker's range check names it instead of it wrapping around.
    int int_value(const std::string& name) const;
    double real(const std::string& name) const;
    const std::string& text(const std::string& name) const;  // also Choice and Path
    std::optional<double> optional_real(const std::string& name) const;
    std::optional<long long> optional_integer(const std::string& name) const;
    // Every value given for `name`, in the order given: for an option that
    // may be repeated (compare --fail-above), where text() keeps the last.
    const std::vector<std::string>& all(const std::string& name) const;
    // Of `names`, the one given last; empty when none was given. Options
    // that set one setting between them (-q and -v) follow the rule of an
    // option given twice: the last one wins.
    std::string last_given(const std::vector<std::string>& names) const;
    // Sets a value as if the user had given it (a positional argument that
    // stands for options, such as blur's RxS geometry), checked likewise.
    void set(const std::string& name, std::string value);
    // One line per given option that has no effect beside the others given
    // (ParamSpec::needs_one_of, unused_with): "--log has no effect without
    // --plot". The command line prints them as warnings.
    std::vector<std::string> unused_options() const;

private:
    struct Value {
        const ParamSpec* spec = nullptr;
        std::optional<std::string> text;
        bool given = false;
        std::vector<std::string> all;  // every value given, in order
        std::size_t order = 0;         // when it was last given: 1, 2, ... across all names
    };
    const Value& at(const std::string& name) const;
    std::map<std::string, Value> values_;
    std::size_t sets_ = 0;
};

}  // namespace imgpar
