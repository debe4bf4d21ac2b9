// One input of a run, read and decoded as the commands that compute on whole
// images do it: the bytes (bounded by --max-memory), the header checked, the
// memory the file needs reserved from the run's budget before it decodes,
// then the pixels, with the decoder's warnings printed.
#pragma once

#include "cli/batch_runner.hpp"
#include "cli/diagnostics.hpp"
#include "src/io/load.hpp"

namespace imgpar::cli {

struct DecodedFile {
    ImageHeader header;
    LoadedImage image;
    MemoryBudget::Reservation reservation;  // held while the file's buffers are
};

// Throws imgpar::Error (input) for a file that cannot be read or decoded.
DecodedFile read_and_decode(const BatchItem& item, const LoadOptions& load, WorkerContext& ctx, const Diagnostics& diag);

}  // namespace imgpar::cli
