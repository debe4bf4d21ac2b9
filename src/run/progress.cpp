#include "src/run/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace imgpar {

bool progress_wanted(bool forced_on, bool forced_off, bool quiet) {
    if (forced_off) return false;
    if (forced_on) return true;
    return !quiet && ::isatty(STDERR_FILENO);
}

namespace {
std::string clock_text(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}
}  // namespace

std::string progress_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                          double seconds, int width) {
    const double share = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    const int filled = static_cast<int>(share * width);
    std::string bar(static_cast<std::size_t>(width), ' ');
    for (int i = 0; i < filled; ++i) bar[static_cast<std::size_t>(i)] = '=';
    if (filled < width) bar[static_cast<std::size_t>(filled)] = '>';
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s %zu/%zu [%s] %3d%%", label.c_str(), done, total, bar.c_str(),
                  static_cast<int>(share * 100.0));
    std::string line = buf;
    if (done > 0 && seconds > 0) {
        const double rate = static_cast<double>(done) / seconds;
        std::snprintf(buf, sizeof buf, "  %.1f files/s  ETA %s", rate,
                      clock_text(static_cast<double>(total - done) / rate).c_str());
        line += buf;
    }
    if (failed) line += "  " + std::to_string(failed) + " failed";
    return line;
}

ProgressBar::ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled)
    : diag_(diag), label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()) {
    if (enabled) thread_ = std::thread([this] { loop(); });
}

ProgressBar::~ProgressBar() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
    diag_.clear_status();
}

void ProgressBar::finished_one(bool failed) {
    ++done_;
    if (failed) ++failed_;
}

void ProgressBar::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        diag_.draw_status(progress_line(label_, done_, total_, failed_, seconds, 30));
        wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
    }
}

}  // namespace imgpar
