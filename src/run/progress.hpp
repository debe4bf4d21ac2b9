// The progress of a multi-file run: files done of all, files/s, time left,
// failures. On a terminal, a bar redrawn five times a second on stderr's
// status line (Diagnostics), fitted to the terminal's width; into a file or
// a pipe (--progress into a log), a plain line every few seconds and one at
// the end. Drawn from its own thread while the workers run.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

#include "src/run/diagnostics.hpp"

namespace imgpar {

// Whether a run shows the bar: --progress, --no-progress, else when stderr
// is a terminal and the run is not --quiet.
bool progress_wanted(bool forced_on, bool forced_off, bool quiet);

// The width of the terminal on stderr (TIOCGWINSZ), else $COLUMNS, else 80.
int terminal_columns();

// "blur 12/500 [===>      ]   2%  38.1 files/s  ETA 0:13  1 failed", at most
// columns - 1 characters (a line as wide as the terminal wraps on some): the
// bar shrinks from 30 to 8 and the fields go, the rate first, then the
// label, the ETA, the bar; below about 20 columns the line is cut.
std::string progress_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                          double seconds, int columns);

// For a log: "blur: 12/500 files (2%), 38.1 files/s, ETA 0:13, 1 failed";
// when `final`, the time taken instead of the ETA.
std::string progress_log_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                              double seconds, bool final);

class ProgressBar {
public:
    // Draws nothing when not `enabled`. `terminal`: redraw a bar in place;
    // else write plain lines every `log_every`.
    ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled, bool terminal,
                std::chrono::milliseconds log_every = std::chrono::seconds(5));
    // stderr decides: a bar on a terminal, plain lines elsewhere.
    ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled);
    ~ProgressBar();  // stops and wipes the bar, or writes the last line
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void finished_one(bool failed);

private:
    void loop();
    double elapsed() const;

    const Diagnostics& diag_;
    std::string label_;
    std::size_t total_;
    bool terminal_;
    std::chrono::milliseconds log_every_;
    std::atomic<std::size_t> done_{0}, failed_{0};
    std::chrono::steady_clock::time_point start_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace imgpar
