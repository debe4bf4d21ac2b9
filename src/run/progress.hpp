// The progress bar of a multi-file run: files done of all, files/s, time
// left, failures; redrawn five times a second on stderr's status line
// (Diagnostics), from its own thread, while the workers run.
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

// "  12/500 [===>      ]   2%  38.1 files/s  ETA 0:13  1 failed"
std::string progress_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                          double seconds, int width);

class ProgressBar {
public:
    // Draws nothing when not `enabled`.
    ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled);
    ~ProgressBar();  // stops and wipes the bar
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void finished_one(bool failed);

private:
    void loop();

    const Diagnostics& diag_;
    std::string label_;
    std::size_t total_;
    std::atomic<std::size_t> done_{0}, failed_{0};
    std::chrono::steady_clock::time_point start_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace imgpar
