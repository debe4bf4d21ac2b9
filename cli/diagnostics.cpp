#include "cli/diagnostics.hpp"

namespace imgpar::cli {

void Diagnostics::error(const std::string& message) const { err_ << "imgpar: error: " << message << std::endl; }

void Diagnostics::warning(const std::string& message) const {
    if (!quiet_) err_ << "imgpar: warning: " << message << std::endl;
}

void Diagnostics::notice(const std::string& message) const {
    if (!quiet_) err_ << "imgpar: " << message << std::endl;
}

void Diagnostics::info(const std::string& message) const {
    if (verbose_ && !quiet_) err_ << "imgpar: " << message << std::endl;
}

}  // namespace imgpar::cli
