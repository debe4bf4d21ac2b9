// The inputs of a multi-file command: the names on the command line, then
// those of --files-from, then the share --shard K/N (or slurm) picks. Names are kept
// byte for byte (commas, spaces, quotes, any bytes but NUL).
#pragma once

#include <string>
#include <vector>

#include "src/op/param.hpp"

namespace imgpar {

struct Shard {
    long long index = 1;  // K, 1-based
    long long count = 1;  // N
};

// Thrown by gather_inputs when the inputs are all in other shares (a job
// array with more tasks than files): main ends such a run with a notice and
// exit code 0, since there is nothing for it to do, and writes its empty
// --json-file report. Not an std::exception, so that nothing on the way
// mistakes it for a failure.
struct EmptyShare {
    std::string shard;         // as given: "3/8", "slurm"
    std::size_t inputs = 0;    // in the whole list
};

// "K/N" with 1 <= K <= N, or "slurm": this Slurm array task's share
// (cli/slurm_array.hpp). Throws imgpar::Error (usage).
Shard parse_shard(const std::string& text);

// The file names in a list: NUL-separated when it holds a NUL byte (find
// -print0), else one per line ("\n" or "\r\n"); empty entries are skipped.
std::vector<std::string> split_file_list(const std::string& text);

// A name is in shard K/N when its rank r (0-based) among the distinct names,
// sorted byte by byte, has r mod N == K - 1: the split depends on the set of
// names only, not on their order in the list, and the shares are even. The
// names picked keep their order in the list.
std::vector<std::string> take_shard(const std::vector<std::string>& names, const Shard& shard);

// `positionals` (from a command's inputs), then --files-from's names, then
// --shard. Throws imgpar::Error: usage for a bad option, for standard
// input named twice or for no inputs at all, input when the list cannot be
// read; EmptyShare when there are inputs, none of them in this shard.
std::vector<std::string> gather_inputs(const std::vector<std::string>& positionals, const ParamValues& values);

// Throws imgpar::Error (usage) if "-" (standard input) is named more than once.
void check_stdin_used_once(const std::vector<std::string>& inputs);

}  // namespace imgpar
