#include "src/op/command_line.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "src/error.hpp"

namespace imgpar {
namespace {

class Reader {
public:
    Reader(const std::vector<ParamSpec>& specs, const std::string& command) : specs_(specs), command_(command) {}

    const ParamSpec* by_long(const std::string& name) const {
        for (const ParamSpec& p : specs_)
            if (p.name == name) return &p;
        return nullptr;
    }
    const ParamSpec* by_short(char letter) const {
        for (const ParamSpec& p : specs_)
            if (p.short_name.size() == 1 && p.short_name[0] == letter) return &p;
        return nullptr;
    }

    // "unknown option --sigmaa for blur; did you mean --sigma?"
    Error unknown(const std::string& written, const std::string& near_to) const {
        std::string message = "unknown option " + written;
        message += command_.empty() ? std::string(" before the command (a command's own options go after its name)")
                                    : " for " + command_;
        const std::string hint = closest_option(specs_, near_to);
        if (!hint.empty()) message += "; did you mean --" + hint + "?";
        return Error(ErrorKind::Usage, "", message);
    }

    Error needs_value(const ParamSpec& p, const std::string& written) const {
        return usage_error(written, "needs a value" + (p.value_name.empty() ? std::string() : " " + p.value_name));
    }

    // Remembers the first mistake: help, later on the line, still wins.
    void fail(Error e) {
        if (!error_) error_ = std::move(e);
    }
    const std::optional<Error>& error() const { return error_; }

private:
    const std::vector<ParamSpec>& specs_;
    const std::string& command_;
    std::optional<Error> error_;
};

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string closest_option(const std::vector<ParamSpec>& specs, const std::string& name) {
    const std::string typed = lower(name);
    if (typed.empty()) return "";
    // A unique prefix ("--sig") is what the user started to type.
    std::string prefixed;
    int prefixes = 0;
    for (const ParamSpec& p : specs)
        if (typed.size() >= 2 && p.name.compare(0, typed.size(), typed) == 0) {
            prefixed = p.name;
            ++prefixes;
        }
    if (prefixes == 1) return prefixed;
    // Otherwise a typo: one edit in a short name, two in a longer one.
    const std::size_t limit = typed.size() <= 4 ? 1 : 2;
    std::string best;
    std::size_t best_distance = limit + 1;
    for (const ParamSpec& p : specs) {
        const std::size_t d = edit_distance(typed, p.name);
        if (d < best_distance && d < p.name.size()) {
            best_distance = d;
            best = p.name;
        }
    }
    return best;
}

CommandLine parse_command_line(const std::vector<ParamSpec>& specs, const std::vector<std::string>& args,
                               const std::string& command, bool stop_at_positional) {
    Reader reader(specs, command);
    CommandLine cl;
    cl.stopped_at = args.size();
    const auto take = [&](const ParamSpec& p, std::string value) {
        if (p.name == "help") cl.help = true;
        cl.given.emplace_back(p.name, std::move(value));
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            if (stop_at_positional) {
                cl.stopped_at = i + 1;
                break;
            }
            cl.positionals.insert(cl.positionals.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        }
        if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
            const std::size_t eq = a.find('=');
            const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            const std::string written = "--" + name;
            const ParamSpec* p = reader.by_long(name);
            if (!p) {
                reader.fail(reader.unknown(written, name));
                continue;
            }
            if (p->kind == ParamKind::Flag) {
                if (eq != std::string::npos)
                    reader.fail(usage_error(written, "takes no value (got '" + a.substr(eq + 1) + "')"));
                else
                    take(*p, "");
            } else if (eq != std::string::npos) {
                take(*p, a.substr(eq + 1));
            } else if (i + 1 < args.size()) {
                take(*p, args[++i]);
            } else {
                reader.fail(reader.needs_value(*p, written));
            }
            continue;
        }
        if (a.size() > 1 && a[0] == '-') {
            // One-letter options, flags grouped ("-qv"), a value attached ("-j4") or next.
            for (std::size_t j = 1; j < a.size(); ++j) {
                const ParamSpec* p = reader.by_short(a[j]);
                if (!p) {
                    // "-sigma": a long option written with one dash.
                    reader.fail(j == 1 ? reader.unknown(a, a.substr(1))
                                       : reader.unknown("-" + a.substr(j, 1) + " (in " + a + ")", ""));
                    break;
                }
                if (p->kind == ParamKind::Flag) {
                    take(*p, "");
                    continue;
                }
                if (j + 1 < a.size())
                    take(*p, a.substr(j + 1));
                else if (i + 1 < args.size())
                    take(*p, args[++i]);
                else
                    reader.fail(reader.needs_value(*p, "-" + a.substr(j, 1)));
                break;
            }
            continue;
        }
        if (stop_at_positional) {
            cl.stopped_at = i;
            break;
        }
        cl.positionals.push_back(a);
    }
    if (!cl.help && reader.error()) throw *reader.error();
    return cl;
}

}  // namespace imgpar
