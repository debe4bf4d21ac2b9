// How a run over many files names its outputs: --out-dir DIR (each output
// named as its input) or --output TEMPLATE ('out/{stem}_blur.{ext}'), checked
// before any file is touched: every placeholder known, no two inputs sent to
// one output, and no input overwritten.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/io/image_format.hpp"

namespace imgpar {

struct OutputRule {
    std::string out_dir;                // --out-dir, or empty
    std::string output_template;        // --output, or empty
    std::optional<ImageFormat> format;  // --format: with --out-dir, the extension it gets
};

// The parts of an input name a template can use: {name} "a.b.jpg",
// {stem} "a.b", {ext} "jpg" (without the dot; empty when there is none),
// {dir} its folder as given ("." when none). "{{" and "}}" are braces. A
// page of a multi-page file, "a.tif[2]", has {name} "a_p2.tif" and {stem}
// "a_p2", as --out-dir names it.
// Throws imgpar::Error (usage) naming an unknown or unclosed placeholder.
std::string expand_output_template(const std::string& output_template, const std::string& input);

// The output of `input` under `rule`.
std::string output_for(const OutputRule& rule, const std::string& input);

// Usage errors, before anything runs: standard input (which has no name to
// derive one from), two inputs with one output, or an output that is one of
// the inputs (by name, or by identity when it exists: a link to an input
// counts).
void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

// Creates the folder `output` is to be written in, if missing. Throws
// imgpar::Error (output) naming it.
void make_output_folder(const std::string& output);

// An output as messages and --json name it: "<stdout>" for -.
std::string output_name(const std::string& output);

}  // namespace imgpar
