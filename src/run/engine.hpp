// The engine: one run of a pipeline (src/run/pipeline.hpp) over one file or
// many, on either backend, with everything a batch has: workers (--jobs)
// sharing the CPU threads and the GPU's sessions, a memory budget each file
// reserves from before it decodes, the backend chosen (--device auto
// weighing the whole chain) while CUDA starts on its own thread, the GPU's
// JPEG decoders for batches, a failed file reported in its place while the
// others go on, --json records and reports in input order, the progress bar,
// --skip-existing, and the end's summary line and exit code. Every command
// is this: a chain of stages (maybe none) and a sink.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "src/backend.hpp"
#include "src/io/load.hpp"
#include "src/run/batch.hpp"
#include "src/run/chain.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/sink.hpp"

namespace imgpar {

// Exit codes.
constexpr int kExitOk = 0;
// A file failed (unreadable, corrupt, unwritable).
constexpr int kExitFileFailed = 1;
constexpr int kExitUsage = 2;
// The requested GPU is unavailable or failed: the files are not at fault, so
// a scheduler can run the job again on another node.
constexpr int kExitGpuUnavailable = 3;
// Every file was read, and a check failed (compare --fail-above/--fail-below):
// a regression, told apart from a broken pipeline (1), which wins when both
// happen in one run.
constexpr int kExitCheckFailed = 4;

// GPU sessions a run keeps open on each GPU at most: one per worker up to
// this many, so few workers wait for another's copies (each session holds two
// pinned staging buffers and device images as large as its largest file).
constexpr int kMaxGpuSessions = 16;

// Starting the hardware JPEG decoder costs a few tenths of a second: worth
// it from this many files on.
constexpr std::size_t kMinFilesForGpuDecode = 32;

// --jpeg-decoder: how JPEG inputs of files that compute on the GPU decode.
// Auto and Gpu decode on the GPU, its Huffman decoding included where it
// takes the scan (Auto may share those between the GPU and the cores, see
// kGpuHuffmanSlots; Gpu is asked for by name); Hardware adds the hardware
// decoder.
enum class JpegDecoder { Auto, Gpu, Hardware, Cpu };

// Files whose Huffman decoding the GPU takes at once under Auto, the others
// going to the cores meanwhile; -1: every file it takes. On the 16-core H100
// machine the GPU decodes 3.4-6.6x as many files a second as the cores, and
// a batch ran faster with every scan on the GPU than with 8 at once
// (bench/TUNING.md). IMGPAR_GPU_HUFFMAN_SLOTS overrides it for tuning.
constexpr int kGpuHuffmanSlots = -1;

struct RunSettings {
    std::string command;  // names the run in messages, the progress bar and the records
    DeviceRequest device;
    LoadOptions load;     // the limits; images 0 reads headers only (info)
    BatchSettings batch;  // workers and progress
    bool jobs_given = false;  // --jobs given: kept as it is on the GPU
    JpegDecoder jpeg_decoder = JpegDecoder::Auto;
    bool auto_orient = false;
    // The summary line at the end: always (many outputs), or only when some
    // file failed (reports).
    bool summary_line = false;
    bool summary_when_failed = false;
};

struct RunOutcome {
    BatchSummary summary;
    std::size_t checks_failed = 0;
    int exit_code() const {
        return summary.failed ? kExitFileFailed : checks_failed ? kExitCheckFailed : kExitOk;
    }
};

// Runs `chain` then `sink` over `items`. Throws imgpar::Error (usage,
// device) for what stops the whole run; a file's own failure is that file's.
RunOutcome run_files(const std::vector<BatchItem>& items, const Chain& chain, const Sink& sink,
                     const RunSettings& settings, const Diagnostics& diag, std::ostream& out);

// Readies a GPU session for a file of these shapes (its Input and Output
// slots sized), computing nothing.
void prepare_session(const BackendChoice& choice, const std::vector<ImageShape>& shapes);

}  // namespace imgpar
