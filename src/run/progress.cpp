#include "src/run/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace imgpar {

bool progress_wanted(bool forced_on, bool forced_off, bool quiet) {
    if (forced_off) return false;
    if (forced_on) return true;
    return !quiet && ::isatty(STDERR_FILENO);
}

int terminal_columns() {
    winsize ws{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    if (const char* env = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && n > 0 && n < 100000) return static_cast<int>(n);
    }
    return 80;
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

std::string rate_text(double rate) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f files/s", rate);
    return buf;
}

// The pieces of a line, each empty when it does not apply.
struct Fields {
    std::string label, count, percent, rate, eta, failed;
};

Fields fields_of(const std::string& label, std::size_t done, std::size_t total, std::size_t failed, double seconds) {
    Fields f;
    const double share = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    f.label = label;
    f.count = std::to_string(done) + "/" + std::to_string(total);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%3d%%", static_cast<int>(share * 100.0));
    f.percent = buf;
    if (done > 0 && seconds > 0) {
        const double rate = static_cast<double>(done) / seconds;
        f.rate = rate_text(rate);
        f.eta = "ETA " + clock_text(static_cast<double>(total - done) / rate);
    }
    if (failed) f.failed = std::to_string(failed) + " failed";
    return f;
}

std::string bar_text(double share, int width) {
    const int filled = std::min(width, static_cast<int>(share * width));
    std::string bar(static_cast<std::size_t>(width), ' ');
    std::fill(bar.begin(), bar.begin() + filled, '=');
    if (filled < width) bar[static_cast<std::size_t>(filled)] = '>';
    return "[" + bar + "]";
}

// The line with the fields `f` holds and a bar `bar_width` wide (none at 0).
std::string compose(const Fields& f, double share, int bar_width) {
    std::string line = f.label.empty() ? f.count : f.label + " " + f.count;
    if (bar_width > 0) line += " " + bar_text(share, bar_width);
    line += " " + f.percent;
    if (!f.rate.empty()) line += "  " + f.rate;
    if (!f.eta.empty()) line += "  " + f.eta;
    if (!f.failed.empty()) line += "  " + f.failed;
    return line;
}

constexpr int kWidestBar = 30;
constexpr int kNarrowestBar = 8;

}  // namespace

std::string progress_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                          double seconds, int columns) {
    const std::size_t room = static_cast<std::size_t>(std::max(columns - 1, 1));
    const double share = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    Fields f = fields_of(label, done, total, failed, seconds);
    // Fit with the widest bar that leaves room (at least kNarrowestBar);
    // failing that, drop a field, the least useful first. The failures and
    // the count stay to the last.
    const auto fitted = [&](const Fields& g) -> std::string {
        const std::size_t without_bar = compose(g, share, 0).size();
        const std::size_t spare = room > without_bar + 3 ? room - without_bar - 3 : 0;  // " [" and "]"
        const int bar = static_cast<int>(std::min<std::size_t>(spare, kWidestBar));
        return bar >= kNarrowestBar ? compose(g, share, bar) : std::string();
    };
    for (std::string* drop : {static_cast<std::string*>(nullptr), &f.rate, &f.label, &f.eta}) {
        if (drop) drop->clear();
        const std::string line = fitted(f);
        if (!line.empty()) return line;
    }
    std::string line = compose(f, share, 0);
    if (line.size() > room) line.resize(room);
    return line;
}

std::string progress_log_line(const std::string& label, std::size_t done, std::size_t total, std::size_t failed,
                              double seconds, bool final) {
    const Fields f = fields_of(label, done, total, failed, seconds);
    std::string line = label + ": " + f.count + " files (" + f.percent.substr(f.percent.find_first_not_of(' ')) + ")";
    if (final) line += " in " + clock_text(seconds) + (f.rate.empty() ? "" : ", " + f.rate);
    else if (!f.rate.empty()) line += ", " + f.rate + ", " + f.eta;
    if (!f.failed.empty()) line += ", " + f.failed;
    return line;
}

ProgressBar::ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled, bool terminal,
                         std::chrono::milliseconds log_every)
    : diag_(diag), label_(std::move(label)), total_(total), terminal_(terminal), log_every_(log_every),
      start_(std::chrono::steady_clock::now()) {
    if (enabled) thread_ = std::thread([this] { loop(); });
}

ProgressBar::ProgressBar(const Diagnostics& diag, std::string label, std::size_t total, bool enabled)
    : ProgressBar(diag, std::move(label), total, enabled, ::isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (terminal_)
        diag_.clear_status();
    else
        diag_.progress(progress_log_line(label_, done_, total_, failed_, elapsed(), true));
}

void ProgressBar::finished_one(bool failed) {
    ++done_;
    if (failed) ++failed_;
}

double ProgressBar::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressBar::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!terminal_) {
        // A log gets a line now and then, not a redraw five times a second.
        while (!wake_.wait_for(lock, log_every_, [this] { return stop_; }))
            diag_.progress(progress_log_line(label_, done_, total_, failed_, elapsed(), false));
        return;
    }
    while (!stop_) {
        // The width is read at each redraw: the terminal may be resized.
        diag_.draw_status(progress_line(label_, done_, total_, failed_, elapsed(), terminal_columns()));
        wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
    }
}

}  // namespace imgpar
