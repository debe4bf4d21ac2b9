// Temporary files that do not outlive an interrupted run. An output is
// written to ".NAME.imgpar-XXXXXX" beside its target and renamed over it; if
// the process is stopped by SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU
// or SIGXFSZ meanwhile, a handler removes every such file the process has
// open, then the signal takes its default action (so the exit status is the
// usual 128+signal). SIGKILL cannot be caught: what it leaves is unique to one
// write and safe to delete.
//
// The registry is a fixed table of slots that workers claim and release with
// atomic operations, read by the handler without locks or allocation. The
// handlers are installed when a temporary file is made, for each signal whose
// action is the default (an ignored SIGHUP under nohup stays ignored).
#pragma once

#include <signal.h>

#include <string>

namespace imgpar {

// A file created with mkstemp from `path_template` (which ends in "XXXXXX"),
// registered for removal on those signals from the moment it exists.
class TempFile {
public:
    explicit TempFile(std::string path_template);
    // Removes the file unless it was kept (renamed into place).
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    // Whether the file was created; if not, error() is the errno.
    bool ok() const { return error_ == 0; }
    int error() const { return error_; }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }

    // Closes the descriptor; returns 0 or the errno of close().
    int close();
    // The file was renamed into place: it is no longer ours to remove.
    void keep();

private:
    std::string path_;
    int fd_ = -1;
    int error_ = 0;
    int slot_ = -1;
    bool kept_ = false;
};

// Held while a file is written in place (a target with several hard links,
// which a rename would split): the stop signals are blocked in this thread,
// and a handler running on another one waits for the write to end, up to a
// few seconds, before the process stops, so Ctrl-C does not cut it short.
class InPlaceWrite {
public:
    InPlaceWrite();
    ~InPlaceWrite();
    InPlaceWrite(const InPlaceWrite&) = delete;
    InPlaceWrite& operator=(const InPlaceWrite&) = delete;

private:
    sigset_t old_mask_;
    int slot_ = -1;
};

// The name of the temporary file for a target named `name` in `dir`:
// "DIR/.NAME.imgpar-XXXXXX", NAME shortened so that the file name stays
// within the 255 bytes a directory entry may have.
std::string temp_file_template(const std::string& dir, const std::string& name);

}  // namespace imgpar
