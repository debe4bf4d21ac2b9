// Option groups shared by several commands, and readers for their values.
#pragma once

#include <optional>
#include <string>

#include "cli/command.hpp"
#include "src/backend.hpp"
#include "src/op/operation.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "src/report/format.hpp"
#include "src/report/json.hpp"

namespace imgpar::cli {

// --device, -q/--quiet, -v/--verbose, --max-pixels, --max-memory,
// --allow-partial, -h/--help (every command).
OptionGroup common_options();
GlobalOptions read_global_options(const ParamValues& values);

// --json (and --csv) for commands that print a report per input.
OptionGroup report_options(bool csv);
ReportFormat read_report_format(const ParamValues& values);

// --quality (JPEG, WebP, AVIF), --lossless (WebP), --chroma-subsampling
// (JPEG), --compression (PNG, TIFF) and --format
// for commands that write an image, and --json
// describing the run when `json` says what it prints.
OptionGroup image_output_options(const std::string& json = "");
SaveOptions read_save_options(const ParamValues& values);
// --compression's value into `s`: a PNG level 0-9, a TIFF compression
// (lzw, deflate), or none (both). Throws imgpar::Error (usage) for others.
void read_compression(const std::string& value, SaveOptions& s);

// `images`: the image-sized buffers the command holds at its peak, the
// decoded input included (LoadOptions::images; 0 for headers only).
LoadOptions load_options(const GlobalOptions& global, double images = 1);


}  // namespace imgpar::cli
