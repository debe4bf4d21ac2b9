// --json-file TEMPLATE: the JSON Lines a run prints under --json, written to
// a file instead of standard output, named from the run's shard so that each
// task of an array job writes its own (report-{shard}.jsonl) and the files
// concatenate into one manifest. The report is kept in memory and written
// atomically (src/io/atomic_write.hpp) when the run ends, so it exists only
// for a run that got to its end (files that failed included), and a task
// that is killed leaves the previous report, if any, untouched.
#pragma once

#include <optional>
#include <sstream>
#include <string>

#include "src/op/param.hpp"
#include "src/run/input_list.hpp"

namespace imgpar {

ParamSpec json_file_param();

// The file name TEMPLATE gives: "{shard}" becomes K-of-N with K padded to
// N's width ("03-of-16"; "1-of-1" without --shard), "{{" and "}}" are
// braces. Throws imgpar::Error (usage) for any other placeholder.
std::string report_file_name(const std::string& name_template, const Shard& shard);

class ReportFile {
public:
    explicit ReportFile(std::string path) : path_(std::move(path)) {}
    std::ostream& stream() { return text_; }
    // Writes what the run printed to the file, creating missing folders.
    // Throws imgpar::Error (output) naming the file and the reason.
    void commit();

private:
    std::string path_;
    std::ostringstream text_;
};

// The report file of a command that has --json-file, when it was given.
std::optional<ReportFile> open_report_file(const ParamValues& values);

}  // namespace imgpar
