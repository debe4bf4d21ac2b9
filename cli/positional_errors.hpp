// What a command line with more positional arguments than the IN OUT form
// takes meant, told from the arguments themselves, so the message names the
// real mistake: another file (one that exists, or a name with an extension
// or a folder) means several inputs, which need --out-dir or -o; a word
// shaped like a parameter (0x1, 90, 50%) after IN OUT of an operation that
// takes none there means one of its options.
#pragma once

#include <string>
#include <vector>

#include "src/op/operation.hpp"

namespace imgpar::cli {

// Whether `arg` is written as a file name, not a value: it holds a '/' or
// ends in an extension of letters (out.png, tables.npy).
bool written_as_a_file(const std::string& arg);

// The same, or it names a file that exists.
bool names_a_file(const std::string& arg);

// The usage error for the IN OUT form of `op`'s command given more than IN
// OUT, or IN OUT and a third argument that names a file or is not its extra
// argument: empty when that third argument is no file but a mistyped extra
// argument, whose own error then says more.
std::string too_many_positionals(const Operation& op, const std::vector<std::string>& positionals);

// The batch form (--out-dir, -o), where every argument is an input: the
// usage error for one that is no file but a parameter's value (0x2), or
// empty.
std::string parameter_among_inputs(const Operation& op, const std::vector<std::string>& inputs);

// The same for a command of no operation that takes IN OUT (convert, chain).
std::string too_many_files(const std::string& command, const std::vector<std::string>& positionals);

}  // namespace imgpar::cli
