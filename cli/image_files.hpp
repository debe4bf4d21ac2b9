// The driver of every image -> image command (the operations and convert):
// IN OUT, or many inputs with --out-dir / --output, run through the batch
// runner (cli/batch_runner.hpp) either way, so one file also gets the GPU
// started while it decodes.
#pragma once

#include <string>

#include "cli/command.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cli {

// Runs `job` over the command's files; with no job (convert) the images are
// decoded and encoded only, and no GPU is started. `single_max` is how many
// positional arguments the IN OUT form takes (3 with blur's RxS).
// `peak_images`: the image-sized buffers a file holds at its peak, decoded
// input included (Operation::peak_images), for the memory budget.
int run_image_files(Invocation& inv, const ImageJob* job, int single_max, double peak_images);

}  // namespace imgpar::cli
