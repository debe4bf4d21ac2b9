// The inputs of a multi-file command: the names on the command line, then
// those of --files-from, then the share --shard K/N picks. Names are kept
// byte for byte (commas, spaces, quotes, any bytes but NUL).
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"

namespace imgpar::cli {

// --files-from and --shard.
OptionGroup input_list_options();

struct Shard {
    long long index = 1;  // K, 1-based
    long long count = 1;  // N
};

// "K/N" with 1 <= K <= N. Throws imgpar::Error (usage).
Shard parse_shard(const std::string& text);

// The file names in a list: NUL-separated when it holds a NUL byte (find
// -print0), else one per line ("\n" or "\r\n"); empty entries are skipped.
std::vector<std::string> split_file_list(const std::string& text);

// Element i (0-based) is in shard K/N when i mod N == K - 1: deterministic
// for a given list, and every shard gets an even share of a sorted list.
std::vector<std::string> take_shard(const std::vector<std::string>& names, const Shard& shard);

// `positionals` (from a command's inputs), then --files-from's names, then
// --shard. Throws imgpar::Error: usage for a bad option or for standard
// input named twice, input when the list cannot be read.
std::vector<std::string> gather_inputs(const std::vector<std::string>& positionals, const ParamValues& values);

}  // namespace imgpar::cli
