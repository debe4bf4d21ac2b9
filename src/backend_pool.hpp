// The backend of a multi-file run. Selection (for the GPU: starting CUDA,
// about half a second) runs on its own thread from the start, so the first
// files decode meanwhile; then workers lease the GPU one session at a time,
// several sessions (each with its own stream, device images and pinned
// staging) so one file's upload overlaps another's kernel and download.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "src/backend.hpp"

namespace imgpar {

class BackendPool {
public:
    // Starts `select` on a thread now. `max_sessions` >= 1 bounds the GPU
    // sessions open at once (and so their memory).
    BackendPool(std::function<BackendChoice()> select, int max_sessions);
    ~BackendPool();
    BackendPool(const BackendPool&) = delete;
    BackendPool& operator=(const BackendPool&) = delete;

    // Waits for the selection; rethrows its error (imgpar::Error, device,
    // when the requested GPU cannot be used) to every caller.
    const BackendChoice& choice();

    // Without waiting: whether the selection has finished with a GPU.
    bool resolved_to_gpu() const { return on_gpu_; }

    // The backend for one file's compute step. On the GPU it holds a session
    // the lease's owner alone uses until it ends.
    class Lease {
    public:
        Lease(BackendPool& pool, BackendChoice choice) : pool_(&pool), choice_(std::move(choice)) {}
        Lease(Lease&& other) noexcept : pool_(other.pool_), choice_(std::move(other.choice_)) { other.pool_ = nullptr; }
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        const BackendChoice& choice() const { return choice_; }

    private:
        BackendPool* pool_;
        BackendChoice choice_;
    };
    Lease lease();

    int sessions_opened() const;

private:
    void give_back(std::shared_ptr<gpu::Session> session);

    std::future<BackendChoice> pending_;
    std::once_flag resolved_once_;
    std::optional<BackendChoice> resolved_;
    std::exception_ptr failure_;
    int max_sessions_;
    mutable std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::shared_ptr<gpu::Session>> idle_;
    int opened_ = 0;
    std::atomic<bool> on_gpu_{false};
};

}  // namespace imgpar
