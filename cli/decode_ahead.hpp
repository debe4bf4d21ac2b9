// Decoding ahead while the GPU starts. A GPU batch's workers decode their
// first file and then wait for CUDA (a few tenths of a second); meanwhile
// these threads decode the files the workers will take next, on the idle
// cores, so the GPU starts with work queued. They stop taking files once the
// backend is chosen; a worker whose file one of them has (or is decoding)
// takes it from there, every other file it reads and decodes itself.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/batch_runner.hpp"
#include "src/io/load.hpp"

namespace imgpar::cli {

// One file read and decoded ahead, or the error that stopped it.
struct EarlyDecode {
    std::vector<std::uint8_t> bytes;  // the file, kept for the caller's hardware path and metadata
    ImageHeader header;
    LoadedImage image;
    double read_ms = 0, decode_ms = 0;
    std::optional<MemoryBudget::Reservation> memory;  // held until the file is written
    std::exception_ptr error;
};

class DecodeAhead {
public:
    // Starts `threads` threads over `items` from index `first` on, each
    // decoding with `decode` while `keep_going()` (checked before taking each
    // file) says so. `decode` returns false for a file it leaves to the
    // worker (standard input, an output to skip).
    DecodeAhead(const std::vector<BatchItem>& items, std::size_t first, int threads, std::function<bool()> keep_going,
                std::function<bool(const BatchItem&, EarlyDecode&)> decode);
    ~DecodeAhead();  // waits for the threads (each finishes the file it has)
    DecodeAhead(const DecodeAhead&) = delete;
    DecodeAhead& operator=(const DecodeAhead&) = delete;

    // Item `index`'s early decode, waiting for it when a thread is on it;
    // nullopt when no thread took it (none will take it after this call).
    std::optional<EarlyDecode> take(std::size_t index);

    // How many files take() has handed over so far.
    std::size_t handed_over() const;

private:
    enum class State { Open, Decoding, Done, Taken };
    void run();

    const std::vector<BatchItem>& items_;
    std::function<bool()> keep_going_;
    std::function<bool(const BatchItem&, EarlyDecode&)> decode_;
    mutable std::mutex mutex_;
    std::condition_variable finished_;
    std::vector<State> state_;
    std::vector<std::optional<EarlyDecode>> done_;
    std::size_t next_;
    std::size_t handed_over_ = 0;
    std::vector<std::thread> threads_;
};

}  // namespace imgpar::cli
