// The three ways a command ends, wired to the engine (src/run/engine.hpp):
// an image written per input (the image operations, chain, convert), a
// report per input on standard output (histo, stats, a chain ending in
// one), or a .npy array per input (integral). Each reads the options of its
// kind, names the files, makes the sink and runs the chain; the work is the
// engine's.
#pragma once

#include <string>

#include "cli/command.hpp"
#include "src/op/operation.hpp"
#include "src/run/chain.hpp"

namespace imgpar::cli {

// IN OUT (at most `single_max` positional arguments: 3 with blur's RxS), or
// many inputs with --out-dir / --output. An empty chain only converts.
// `chain_text`: the text of `imgpar chain`, empty for an operation's command.
// `defaults`: what the operation's command does unless told otherwise
// (thumbnail: upright, the ICC profile only).
int run_image_command(Invocation& inv, const Chain& chain, int single_max, const std::string& chain_text = "",
                      const Operation::Defaults& defaults = {});

// FILE...: `job`'s report of each file after the chain, in input order.
// `peak_images`: the report's buffers (its operation's declaration).
int run_report_command(Invocation& inv, const Chain& chain, ReportJob& job, double peak_images,
                       const std::vector<std::string>& inputs);

// IN OUT.npy, or many inputs with --out-dir / --output.
int run_array_command(Invocation& inv, const Chain& chain, const ArrayJob& job, int single_max);

}  // namespace imgpar::cli
