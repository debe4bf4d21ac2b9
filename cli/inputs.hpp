// The loop every multi-file command shares (info and the report operations):
// one input after another, a failed input reported and the others still done.
#pragma once

#include <functional>
#include <string>

#include "cli/command.hpp"
#include "src/error.hpp"

namespace imgpar::cli {

// Calls each(path, name) for every positional argument, in order (`name` is
// how messages call it: "<stdin>" for "-"). An input or output error is
// printed on stderr, passed to failed(name, error) when given, and the loop
// goes on; usage errors end it. Returns true when every input succeeded.
// (Callers check first that standard input is named at most once.)
bool for_each_input(const Invocation& inv, const std::function<void(const std::string& path, const std::string& name)>& each,
                    const std::function<void(const std::string& name, const Error& error)>& failed = {});

}  // namespace imgpar::cli
