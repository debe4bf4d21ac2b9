// Which images `imgpar compare` compares: the pairs its arguments name, and
// where each pair's difference image and SSIM map go.
//
//   A B            two files
//   DIR_A DIR_B    every file of either folder, paired by name (files whose
//                  name starts with '.' and subfolders are not compared); a
//                  name in only one folder is a pair that fails
//   FILE... DIR    each FILE against DIR/its name (and DIR FILE, FILE DIR
//                  for one file, either way round); --files-from adds FILEs
// --shard K/N keeps the pairs number K, K+N, ... of the list.
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "src/run/compare_sink.hpp"

namespace imgpar::cli {

// The pairs of `positionals` and --files-from / --shard. Throws
// imgpar::Error: usage for arguments that name no pairs, input for a folder
// that cannot be listed.
std::vector<ComparePair> compare_pairs(const std::vector<std::string>& positionals, const ParamValues& values);

// Names each pair's outputs from the templates (--diff, --ssim-map; empty:
// none): {name}, {stem}, {ext}, {dir} of its first file, as --output's.
// Checks them before anything is read: a known image extension, not '-',
// never one of the inputs (by name or as the same file), no output named
// twice. With several pairs their folders are created. Throws imgpar::Error
// (usage), or (output) for a folder that cannot be made.
void plan_compare_outputs(std::vector<ComparePair>& pairs, const std::string& diff_template,
                          const std::string& map_template);

}  // namespace imgpar::cli
