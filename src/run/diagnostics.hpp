// Everything imgpar says besides data goes to stderr, through here, so that
// --quiet and --verbose behave the same in every command. Safe to call from
// several threads: each message is one whole line, and a progress bar (a
// status line redrawn in place) is wiped before a message and redrawn after.
// Control characters in a message (a file name's newline or escape
// sequence) are shown escaped (text_escape.hpp), so a name cannot fake a
// line or act on the terminal.
#pragma once

#include <mutex>
#include <ostream>
#include <string>

namespace imgpar {

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
    // A line of progress where no status line can be redrawn (stderr is a
    // file): shown even with --quiet, as the bar is, when --progress asks.
    void progress(const std::string& message) const;

    // The status line (a terminal's progress bar): drawn over the previous
    // one with a carriage return; cleared for good by clear_status().
    void draw_status(const std::string& line) const;
    void clear_status() const;

    bool verbose() const { return verbose_; }
    bool quiet() const { return quiet_; }

private:
    void line(const std::string& prefix, const std::string& message) const;

    std::ostream& err_;
    bool quiet_;
    bool verbose_;
    mutable std::mutex mutex_;
    mutable std::string status_;  // what the status line shows now, or empty
};

}  // namespace imgpar
