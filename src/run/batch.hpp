// Runs one command over many files on a pool of worker threads, every file
// start to finish on one worker (read, decode, compute, encode, write), so
// with N workers N files are in flight: the cores decode and encode while
// the GPU, leased one session at a time (src/backend_pool.hpp), computes.
// Memory is bounded by a byte budget each file reserves before it decodes.
// What the files print on stdout comes out in input order; messages go to
// stderr as they happen; a failed file is reported and the others go on.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/run/diagnostics.hpp"

namespace imgpar {

struct BatchItem {
    std::string path;    // as given ("-" is standard input)
    std::string name;    // for messages ("<stdin>")
    std::string output;  // where an image command writes; empty for reports
};

// The inputs as batch items (outputs left empty). Throws imgpar::Error
// (usage) when there are none.
std::vector<BatchItem> batch_items(const std::vector<std::string>& inputs);

// What one file produced: its lines for stdout, or that it was skipped.
struct ItemResult {
    bool skipped = false;
    std::string text;
};

// Bytes that files in flight may hold at once (decoded images, results).
class MemoryBudget {
public:
    explicit MemoryBudget(std::size_t bytes) : total_(bytes) {}
    class Reservation {
    public:
        Reservation(MemoryBudget& budget, std::size_t bytes) : budget_(&budget), bytes_(bytes) {}
        Reservation(Reservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.budget_ = nullptr; }
        Reservation& operator=(Reservation&&) = delete;
        ~Reservation();

    private:
        MemoryBudget* budget_;
        std::size_t bytes_;
    };
    // Waits until `bytes` fit beside what others hold; a file larger than
    // the whole budget waits until it is alone.
    Reservation reserve(std::size_t bytes);
    std::size_t total() const { return total_; }

private:
    std::size_t total_;
    std::size_t used_ = 0;
    std::mutex mutex_;
    std::condition_variable freed_;
};

// Half the machine's memory, at least 1 GiB.
std::size_t default_memory_budget();

// What a worker hands a file's processing.
struct WorkerContext {
    BackendPool& backend;
    MemoryBudget& memory;
    int threads;  // for the file's own parallel work (CpuThreadLimit is set)
};

struct BatchSettings {
    std::string label;  // the command, for the progress bar
    int jobs = 1;       // workers at most
    bool progress = false;
};

struct BatchSummary {
    std::size_t total = 0, done = 0, skipped = 0, failed = 0;
    double seconds = 0;
    // When the first and the last file finished (done, skipped or failed),
    // seconds after the batch started; -1 when none did.
    double first_finished = -1, last_finished = -1;
};

// The -v line of a run's fixed costs and pace: `startup` seconds from the
// process's start to the batch's, the first file's finish, the rate of the
// files after it, and `teardown` (the GPU sessions and services closed).
std::string batch_timing_line(const BatchSummary& s, double startup, double teardown);

// process(index, item, context) does one file and returns its result, or
// throws imgpar::Error: an input or output error fails that file (reported
// on stderr; failure(index, item, error) gives its lines for stdout), and so
// does a usage error (the command line was checked before the first file, so
// what a file's run refuses is about that file: an input error naming it); a
// device error stops the run and is rethrown once the workers have stopped.
using ProcessItem = std::function<ItemResult(std::size_t index, const BatchItem&, WorkerContext&)>;
using ItemFailure = std::function<std::string(std::size_t index, const BatchItem&, const Error&)>;
BatchSummary run_batch(const std::vector<BatchItem>& items, const BatchSettings& settings, BackendPool& backend,
                       MemoryBudget& memory, const Diagnostics& diag, std::ostream& out, const ProcessItem& process,
                       const ItemFailure& failure);

// "blur: 498 written, 2 failed, 0 skipped; 500 files in 12.3 s (40.6 files/s)";
// `verb` says what happened to a file that succeeded.
std::string summary_line(const std::string& command, const BatchSummary& s, const std::string& verb);

}  // namespace imgpar
