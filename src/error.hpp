// Errors inside the library are exceptions; only main turns them into exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace imgpar {

// Which exit code an error maps to in the command-line tool.
enum class ErrorKind {
    Usage,   // a bad parameter or option: exit 2
    Input,   // an input could not be read or decoded: exit 1
    Output,  // an output could not be written: exit 1
    Device,  // the requested GPU is unavailable, or it failed: exit 3 (retry elsewhere; not a bad file)
};

// An error that says what went wrong and where: the file, the operation or
// the parameter it concerns ("subject") and the reason.
class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string subject, const std::string& reason)
        : std::runtime_error(subject.empty() ? reason : subject + ": " + reason),
          kind_(kind), subject_(std::move(subject)), reason_(reason) {}

    ErrorKind kind() const noexcept { return kind_; }
    const std::string& subject() const noexcept { return subject_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    ErrorKind kind_;
    std::string subject_;
    std::string reason_;
};

inline Error usage_error(std::string subject, const std::string& reason) {
    return Error(ErrorKind::Usage, std::move(subject), reason);
}
inline Error input_error(std::string file, const std::string& reason) {
    return Error(ErrorKind::Input, std::move(file), reason);
}
inline Error output_error(std::string file, const std::string& reason) {
    return Error(ErrorKind::Output, std::move(file), reason);
}
inline Error device_error(std::string subject, const std::string& reason) {
    return Error(ErrorKind::Device, std::move(subject), reason);
}

}  // namespace imgpar
