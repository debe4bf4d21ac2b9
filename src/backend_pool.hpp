// The backend of a multi-file run. Selection (for the GPU: starting CUDA,
// about half a second) runs on its own thread from the start, so the first
// files decode meanwhile; then workers lease the GPU one session at a time,
// several sessions (each with its own stream, device images and pinned
// staging) so one file's upload overlaps another's kernel and download.
// For `--device auto` the files asked for before CUDA is up may compute on
// the CPU instead of waiting (the bytes are the same either way).
//
// A run on several GPUs (gpu:all, gpu:0,1) starts the other GPUs on threads
// of their own once the first is up, and hands each file to the least busy
// GPU (src/session_scheduler.hpp): the bytes are the same on every GPU.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/backend.hpp"
#include "src/session_scheduler.hpp"

namespace imgpar {

struct PoolOptions {
    int sessions_per_gpu = 1;  // >= 1: bounds each GPU's sessions (and so its memory)
    int max_sessions = 1;      // >= 1: bounds the sessions over all GPUs (the workers that use them)
    // A lease asked for while the selection still runs is the CPU's instead
    // of a wait: the cores compute the first files while CUDA starts.
    bool cpu_until_selected = false;
    // Readies each further GPU's first session (the selection readies the
    // first GPU's): called on that GPU's starting thread.
    std::function<void(const BackendChoice&)> warm_up;
    // Says that a further GPU of the run could not start (its files go to
    // the others).
    std::function<void(const std::string&)> gpu_failed;
};

class BackendPool {
public:
    // Starts `select` on a thread now.
    BackendPool(std::function<BackendChoice()> select, PoolOptions options);
    // One GPU's worth: `max_sessions` sessions at most, on one GPU or over all.
    BackendPool(std::function<BackendChoice()> select, int max_sessions, bool cpu_until_selected = false);
    ~BackendPool();
    BackendPool(const BackendPool&) = delete;
    BackendPool& operator=(const BackendPool&) = delete;

    // Waits for the selection; rethrows its error (imgpar::Error, device,
    // when the requested GPU cannot be used) to every caller.
    const BackendChoice& choice();

    // Without waiting: whether the selection has finished with a GPU.
    bool resolved_to_gpu() const { return on_gpu_; }

    // How many leases went to the CPU while the selection still ran.
    int leased_before_selection() const { return early_cpu_; }

    // The backend for one file's compute step. On the GPU it holds a session
    // the lease's owner alone uses until it ends; its choice names that
    // session's GPU.
    class Lease {
    public:
        Lease(BackendPool& pool, BackendChoice choice, int position = -1)
            : pool_(&pool), choice_(std::move(choice)), position_(position) {}
        Lease(Lease&& other) noexcept
            : pool_(other.pool_), choice_(std::move(other.choice_)), position_(other.position_),
              waited_ms_(other.waited_ms_) {
            other.pool_ = nullptr;
        }
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        const BackendChoice& choice() const { return choice_; }
        // How long lease() took: waiting for the GPU's selection or a free
        // session, or opening one.
        double waited_ms() const { return waited_ms_; }

    private:
        friend class BackendPool;
        BackendPool* pool_;
        BackendChoice choice_;
        int position_;  // the GPU's place in choice().gpus
        double waited_ms_ = 0;
    };
    Lease lease();

    int sessions_opened() const;

    // For each GPU of the run (choice().gpus, in order): its index and the
    // leases it gave.
    std::vector<std::pair<int, int>> leases_by_gpu() const;

private:
    Lease take_lease();
    void on_resolved();
    void start_gpu(std::size_t position);
    BackendChoice for_position(const BackendChoice& base, std::size_t position) const;
    void give_back(std::shared_ptr<gpu::Session> session, int position);

    PoolOptions options_;
    std::future<BackendChoice> pending_;
    std::once_flag resolved_once_;
    std::optional<BackendChoice> resolved_;
    std::exception_ptr failure_;
    mutable std::mutex mutex_;
    std::condition_variable returned_;
    std::optional<SessionScheduler> scheduler_;             // once resolved to the GPU
    std::vector<std::vector<std::shared_ptr<gpu::Session>>> idle_;  // by position
    std::vector<std::string> gpu_names_;                      // by position
    std::vector<int> leases_;                                 // by position
    std::vector<std::future<void>> starting_;                 // the further GPUs' starts
    std::atomic<bool> on_gpu_{false};
    std::atomic<bool> selected_{false};  // the selection has returned (or thrown)
    std::atomic<int> early_cpu_{0};
};

}  // namespace imgpar
