#include "src/run/diagnostics.hpp"

#include "src/report/text_escape.hpp"

namespace imgpar {

namespace {
constexpr const char* kEraseLine = "\r\033[K";
}  // namespace

void Diagnostics::line(const std::string& prefix, const std::string& message) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!status_.empty()) err_ << kEraseLine;
    err_ << prefix << escape_control(message) << "\n";
    if (!status_.empty()) err_ << status_;
    err_.flush();
}

void Diagnostics::error(const std::string& message) const { line("imgpar: error: ", message); }

void Diagnostics::warning(const std::string& message) const {
    if (!quiet_) line("imgpar: warning: ", message);
}

void Diagnostics::notice(const std::string& message) const {
    if (!quiet_) line("imgpar: ", message);
}

void Diagnostics::info(const std::string& message) const {
    if (verbose_ && !quiet_) line("imgpar: ", message);
}

void Diagnostics::progress(const std::string& message) const { line("imgpar: ", message); }

void Diagnostics::draw_status(const std::string& text) const {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = escape_control(text);
    err_ << kEraseLine << status_;
    err_.flush();
}

void Diagnostics::clear_status() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_.empty()) return;
    err_ << kEraseLine;
    err_.flush();
    status_.clear();
}

}  // namespace imgpar
