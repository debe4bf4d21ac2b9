#include "src/run/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <thread>

#include "src/io/file_bytes.hpp"
#include "src/parallel.hpp"
#include "src/run/progress.hpp"

namespace imgpar {

MemoryBudget::Reservation::~Reservation() {
    if (!budget_) return;
    {
        std::lock_guard<std::mutex> lock(budget_->mutex_);
        budget_->used_ -= bytes_;
    }
    budget_->freed_.notify_all();
}

MemoryBudget::Reservation MemoryBudget::reserve(std::size_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    freed_.wait(lock, [&] { return used_ == 0 || used_ + bytes <= total_; });
    used_ += bytes;
    return Reservation(*this, bytes);
}

std::size_t default_memory_budget() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    const std::size_t gib = std::size_t{1} << 30;
    if (pages <= 0 || page <= 0) return 4 * gib;
    return std::max(gib, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2);
}

namespace {

// Prints each file's lines once every file before it has printed.
class OrderedOutput {
public:
    OrderedOutput(std::ostream& out, std::size_t count) : out_(out), pending_(count) {}
    void put(std::size_t index, std::string text) {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_[index] = std::move(text);
        bool wrote = false;
        while (next_ < pending_.size() && pending_[next_]) {
            out_ << *pending_[next_];
            pending_[next_].reset();
            ++next_;
            wrote = true;
        }
        if (wrote) out_.flush();  // a consumer of JSON Lines sees each file as it is done
    }

private:
    std::ostream& out_;
    std::vector<std::optional<std::string>> pending_;
    std::size_t next_ = 0;
    std::mutex mutex_;
};

}  // namespace

std::vector<BatchItem> batch_items(const std::vector<std::string>& inputs) {
    if (inputs.empty()) throw usage_error("inputs", "no input files (name them, or give --files-from FILE)");
    std::vector<BatchItem> items;
    items.reserve(inputs.size());
    for (const std::string& in : inputs) items.push_back({in, display_name(in), {}});
    return items;
}

std::string summary_line(const std::string& command, const BatchSummary& s, const std::string& verb) {
    char timing[96];
    std::snprintf(timing, sizeof timing, " in %.2f s (%.1f files/s)", s.seconds,
                  s.seconds > 0 ? static_cast<double>(s.done + s.failed) / s.seconds : 0.0);
    std::string line = command + ": " + std::to_string(s.done) + " " + verb;
    if (s.failed) line += ", " + std::to_string(s.failed) + " failed";
    if (s.skipped) line += ", " + std::to_string(s.skipped) + " skipped";
    return line + "; " + std::to_string(s.total) + " file" + (s.total == 1 ? "" : "s") + timing;
}

std::string batch_timing_line(const BatchSummary& s, double startup, double teardown) {
    const std::size_t finished = s.done + s.skipped + s.failed;
    char buf[256];
    if (finished == 0) {
        std::snprintf(buf, sizeof buf, "timing: start-up %.3f s, no file finished, teardown %.3f s", startup, teardown);
        return buf;
    }
    std::string line;
    std::snprintf(buf, sizeof buf, "timing: start-up %.3f s, first file done %.3f s after the process started",
                  startup, startup + s.first_finished);
    line = buf;
    // The steady rate: the files after the first over the time after it, so
    // the start (CUDA, nvJPEG, the first decode) does not dilute it.
    const double span = s.last_finished - s.first_finished;
    if (finished > 1 && span > 0) {
        std::snprintf(buf, sizeof buf, ", then %zu file%s at %.1f files/s", finished - 1, finished == 2 ? "" : "s",
                      static_cast<double>(finished - 1) / span);
        line += buf;
    }
    std::snprintf(buf, sizeof buf, ", teardown %.3f s", teardown);
    return line + buf;
}

BatchSummary run_batch(const std::vector<BatchItem>& items, const BatchSettings& settings, BackendPool& backend,
                       MemoryBudget& memory, const Diagnostics& diag, std::ostream& out, const ProcessItem& process,
                       const ItemFailure& failure) {
    const auto start = std::chrono::steady_clock::now();
    BatchSummary summary;
    summary.total = items.size();
    const int workers = static_cast<int>(std::min<std::size_t>(std::max(settings.jobs, 1), items.size()));
    // The CPU threads (--threads) shared out among the files worked on at once.
    const int threads_each = workers > 0 ? std::max(1, cpu_thread_count() / workers) : 1;

    OrderedOutput ordered(out, items.size());
    std::atomic<std::size_t> next{0}, done{0}, skipped{0}, failed{0};
    std::atomic<bool> stop{false};
    std::mutex finish_mutex;  // the first and last finishing times
    std::exception_ptr fatal;
    std::mutex fatal_mutex;
    {
        ProgressBar bar(diag, settings.label, items.size(), settings.progress);
        const auto work = [&] {
            CpuThreadLimit limit(threads_each);
            WorkerContext context{backend, memory, threads_each};
            for (std::size_t i = next++; i < items.size() && !stop; i = next++) {
                const BatchItem& item = items[i];
                std::string text;
                bool bad = false;
                try {
                    ItemResult r = process(i, item, context);
                    text = std::move(r.text);
                    ++(r.skipped ? skipped : done);
                } catch (const Error& e) {
                    if (e.kind() == ErrorKind::Device) {
                        std::lock_guard<std::mutex> lock(fatal_mutex);
                        if (!fatal) fatal = std::current_exception();
                        stop = true;
                        return;
                    }
                    // The command line was checked before the first file:
                    // what a file's run refuses (a kernel's limit on the
                    // image, a parameter the image cannot take) is that
                    // file's failure, never the end of the batch.
                    const Error f = e.kind() == ErrorKind::Usage ? input_error(item.name, e.what()) : e;
                    diag.error(f.what());
                    text = failure(i, item, f);
                    bad = true;
                } catch (const std::bad_alloc&) {
                    const Error e = input_error(item.name, "out of memory");
                    diag.error(e.what());
                    text = failure(i, item, e);
                    bad = true;
                } catch (const std::exception& ex) {
                    const Error e = input_error(item.name, ex.what());
                    diag.error(e.what());
                    text = failure(i, item, e);
                    bad = true;
                }
                if (bad) ++failed;
                {
                    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                    std::lock_guard<std::mutex> lock(finish_mutex);
                    if (summary.first_finished < 0) summary.first_finished = t;
                    summary.last_finished = std::max(summary.last_finished, t);
                }
                ordered.put(i, std::move(text));
                bar.finished_one(bad);
            }
        };
        std::vector<std::thread> pool;
        for (int w = 1; w < workers; ++w) pool.emplace_back(work);
        if (workers > 0) work();
        for (std::thread& t : pool) t.join();
    }
    if (fatal) std::rethrow_exception(fatal);
    summary.done = done;
    summary.skipped = skipped;
    summary.failed = failed;
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace imgpar
