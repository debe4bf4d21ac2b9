// The --json records of a command that writes a file per input (an image,
// a .npy array): the first members of every record, and the records of a
// file skipped (--skip-existing) or failed.
#pragma once

#include <string>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/report/json.hpp"
#include "src/run/batch.hpp"

namespace imgpar {

// `schema`, the command, the input and the output.
JsonObject output_record(const std::string& command, const BatchItem& item, const std::string& schema);

// Under --json: the record with "ok": true and "skipped": true; else nothing.
std::string output_skipped(const std::string& command, const BatchItem& item, bool json, const std::string& schema);

// Under --json: the record with "ok": false and the reason; else nothing.
std::string output_failure(const std::string& command, const BatchItem& item, const Error& error, bool json,
                           const std::string& schema);

// --json's members of a computed file: "operation", "backend", "device" (the
// GPU's name, null on the CPU), "gpu" (its index, on the GPU) and "kernel".
void add_run_members(JsonObject& o, const JsonObject& operation, const std::string& kernel, const BackendChoice& used);

// Whether --skip-existing leaves `item` alone: its output exists (never for
// standard output).
bool output_exists(const BatchItem& item);

}  // namespace imgpar
