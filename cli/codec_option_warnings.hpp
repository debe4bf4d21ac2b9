// The encoder options an output format does not use: --quality (JPEG, WebP,
// AVIF), --lossless (WebP), --chroma-subsampling and --jpeg-encoder (JPEG),
// --compression (PNG, TIFF).
// Given for a run none of whose outputs uses one, it would be silently
// ignored: the run warns once (not once per file) and goes on.
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "src/io/image_format.hpp"
#include "src/io/save.hpp"

namespace imgpar::cli {

struct PlannedOutput {
    std::string name;  // as the run writes it ("-": standard output)
    ImageFormat format;
};

// One line per given codec option that no output uses: "--quality applies to
// JPEG, WebP and AVIF outputs; out.png is PNG: ignored".
std::vector<std::string> unused_codec_options(const ParamValues& values, const std::vector<PlannedOutput>& outputs);

// Throws imgpar::Error (usage) when --compression's value (`value`, read
// into `save`) is one format's and an output is the other's: a PNG level
// for a TIFF output, lzw or deflate for a PNG output.
void check_compression_fits(const SaveOptions& save, const std::string& value, const std::vector<PlannedOutput>& outputs);

}  // namespace imgpar::cli
