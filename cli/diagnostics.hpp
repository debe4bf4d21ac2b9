// Everything imgpar says besides data goes to stderr, through here, so that
// --quiet and --verbose behave the same in every command.
#pragma once

#include <ostream>
#include <string>

namespace imgpar::cli {

class Diagnostics {
public:
    Diagnostics(std::ostream& err, bool quiet, bool verbose) : err_(err), quiet_(quiet), verbose_(verbose) {}

    // Always shown: a file or the whole command failed.
    void error(const std::string& message) const;
    // Shown unless --quiet: something the user may not expect (alpha dropped...).
    void warning(const std::string& message) const;
    // Shown unless --quiet: a fact about how the work runs (CPU fallback...).
    void notice(const std::string& message) const;
    // Shown only with --verbose.
    void info(const std::string& message) const;

    bool verbose() const { return verbose_; }
    bool quiet() const { return quiet_; }

private:
    std::ostream& err_;
    bool quiet_;
    bool verbose_;
};

}  // namespace imgpar::cli
