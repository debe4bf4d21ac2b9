#include "src/backend_pool.hpp"

#include <algorithm>

namespace imgpar {

BackendPool::BackendPool(std::function<BackendChoice()> select, int max_sessions)
    : pending_(std::async(std::launch::async, std::move(select))), max_sessions_(std::max(max_sessions, 1)) {}

BackendPool::~BackendPool() {
    // A selection nobody waited for (every file failed first) still ends here.
    if (pending_.valid()) pending_.wait();
}

const BackendChoice& BackendPool::choice() {
    std::call_once(resolved_once_, [this] {
        try {
            resolved_ = pending_.get();
            if (resolved_->session) {
                idle_.push_back(resolved_->session);
                opened_ = 1;
            }
            on_gpu_ = resolved_->backend == Backend::Gpu;
        } catch (...) {
            failure_ = std::current_exception();
        }
    });
    if (failure_) std::rethrow_exception(failure_);
    return *resolved_;
}

BackendPool::Lease BackendPool::lease() {
    BackendChoice choice = this->choice();
    if (choice.backend != Backend::Gpu) return Lease(*this, std::move(choice));
    std::unique_lock<std::mutex> lock(mutex_);
    if (idle_.empty() && opened_ < max_sessions_) {
        ++opened_;  // counted before opening, so no other worker opens one past the limit
        lock.unlock();
        try {
            choice.session = std::make_shared<gpu::Session>(choice.gpu_index);
        } catch (...) {
            lock.lock();
            --opened_;
            throw;
        }
        return Lease(*this, std::move(choice));
    }
    returned_.wait(lock, [this] { return !idle_.empty(); });
    choice.session = std::move(idle_.back());
    idle_.pop_back();
    return Lease(*this, std::move(choice));
}

BackendPool::Lease::~Lease() {
    if (pool_ && choice_.session) pool_->give_back(std::move(choice_.session));
}

void BackendPool::give_back(std::shared_ptr<gpu::Session> session) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_.push_back(std::move(session));
    }
    returned_.notify_one();
}

int BackendPool::sessions_opened() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return opened_;
}

}  // namespace imgpar
