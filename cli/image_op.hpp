// The shape every IN -> OUT image command shares: validate, load, choose the
// backend, run, save atomically, report (verbose line on stderr, --json on stdout).
#pragma once

#include <functional>
#include <string>

#include "cli/command.hpp"
#include "src/image.hpp"
#include "src/report/json.hpp"

namespace imgpar::cli {

struct ImageOp {
    std::string description;  // one line for --verbose, e.g. the filter's describe()
    JsonObject details;       // operation-specific JSON members (kernel, sigma, border...)
    // The work itself; it may add members to `details` (e.g. a chosen
    // threshold) and names the kernel that ran in `kernel`.
    std::function<ImageU8(ConstViewU8 input, const BackendChoice& backend, JsonObject& details, std::string& kernel)> run;
};

// Adds --json and the image output options.
void add_image_op_options(cxxopts::Options& options);

// Runs `op` on positionals[0] -> positionals[1] and returns the exit code.
int run_image_op(Invocation& inv, ImageOp op);

}  // namespace imgpar::cli
