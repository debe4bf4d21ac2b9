#include "src/backend_pool.hpp"

#include <algorithm>
#include <chrono>

#include "src/error.hpp"
#include "src/gpu_runtime.hpp"

namespace imgpar {

BackendPool::BackendPool(std::function<BackendChoice()> select, PoolOptions options) : options_(std::move(options)) {
    options_.sessions_per_gpu = std::max(options_.sessions_per_gpu, 1);
    options_.max_sessions = std::max(options_.max_sessions, 1);
    pending_ = std::async(std::launch::async, [this, select = std::move(select)] {
        struct Done {
            std::atomic<bool>& flag;
            ~Done() { flag = true; }
        } done{selected_};
        return select();
    });
}

BackendPool::BackendPool(std::function<BackendChoice()> select, int max_sessions, bool cpu_until_selected)
    : BackendPool(std::move(select), PoolOptions{max_sessions, max_sessions, cpu_until_selected, {}, {}}) {}

BackendPool::~BackendPool() {
    // A selection nobody waited for (every file failed first) still ends
    // here, and so do the further GPUs' starts.
    if (pending_.valid()) pending_.wait();
    for (auto& s : starting_) s.wait();
}

const BackendChoice& BackendPool::choice() {
    std::call_once(resolved_once_, [this] {
        try {
            resolved_ = pending_.get();
            on_resolved();
        } catch (...) {
            failure_ = std::current_exception();
        }
    });
    if (failure_) std::rethrow_exception(failure_);
    return *resolved_;
}

void BackendPool::on_resolved() {
    if (resolved_->backend != Backend::Gpu) return;
    std::vector<int>& gpus = resolved_->gpus;
    if (gpus.empty()) gpus.push_back(resolved_->gpu_index);  // a choice made by hand names its GPU alone
    const std::size_t n = gpus.size();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        scheduler_.emplace(static_cast<int>(n), options_.sessions_per_gpu, options_.max_sessions);
        idle_.assign(n, {});
        leases_.assign(n, 0);
        gpu_names_.assign(n, {});
        const GpuStatus& status = gpu_inventory();
        for (std::size_t p = 0; p < n; ++p)
            if (gpus[p] >= 0 && static_cast<std::size_t>(gpus[p]) < status.devices.size())
                gpu_names_[p] = status.devices[static_cast<std::size_t>(gpus[p])].name;
        if (resolved_->session) {
            scheduler_->open(0);
            scheduler_->give_back(0);
            idle_[0].push_back(resolved_->session);
        }
        for (std::size_t p = 1; p < n; ++p) {
            scheduler_->open(static_cast<int>(p));  // the session that starts it, busy until it is up
            scheduler_->set_open_allowed(static_cast<int>(p), false);
        }
    }
    on_gpu_ = true;
    for (std::size_t p = 1; p < n; ++p) starting_.push_back(std::async(std::launch::async, [this, p] { start_gpu(p); }));
}

BackendChoice BackendPool::for_position(const BackendChoice& base, std::size_t position) const {
    BackendChoice c = base;
    c.session.reset();
    c.gpu_index = base.gpus[position];
    c.gpu_name = gpu_names_[position];
    return c;
}

// A further GPU of the run: its context and first session open here (a few
// tenths of a second, while the first GPU already works), readied as the
// first GPU's was; then its files come.
void BackendPool::start_gpu(std::size_t position) {
    const int p = static_cast<int>(position);
    try {
        BackendChoice c = for_position(*resolved_, position);
        c.session = std::make_shared<gpu::Session>(c.gpu_index);
        if (options_.warm_up) options_.warm_up(c);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            idle_[position].push_back(std::move(c.session));
            scheduler_->give_back(p);
            scheduler_->set_open_allowed(p, true);
        }
    } catch (const std::exception& e) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            scheduler_->open_failed(p);
        }
        if (options_.gpu_failed)
            options_.gpu_failed("GPU " + std::to_string(resolved_->gpus[position]) + " could not start (" + e.what() +
                                "): its share of the files goes to the other GPUs");
    }
    returned_.notify_all();
}

BackendPool::Lease BackendPool::lease() {
    const auto t0 = std::chrono::steady_clock::now();
    Lease lease = take_lease();
    lease.waited_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return lease;
}

BackendPool::Lease BackendPool::take_lease() {
    if (options_.cpu_until_selected && !selected_) {
        ++early_cpu_;
        return Lease(*this, BackendChoice{});
    }
    const BackendChoice& base = this->choice();
    if (base.backend != Backend::Gpu) return Lease(*this, base);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        const SessionScheduler::Pick pick = scheduler_->pick();
        const std::size_t p = static_cast<std::size_t>(pick.gpu);
        if (pick.kind == SessionScheduler::Pick::Kind::Reuse) {
            scheduler_->take_idle(pick.gpu);
            ++leases_[p];
            BackendChoice choice = for_position(base, p);
            choice.session = std::move(idle_[p].back());
            idle_[p].pop_back();
            return Lease(*this, std::move(choice), pick.gpu);
        }
        if (pick.kind == SessionScheduler::Pick::Kind::Open) {
            scheduler_->open(pick.gpu);  // counted before opening, so no other worker opens one past the limit
            ++leases_[p];
            lock.unlock();
            BackendChoice choice = for_position(base, p);
            try {
                choice.session = std::make_shared<gpu::Session>(choice.gpu_index);
            } catch (...) {
                lock.lock();
                scheduler_->open_failed(pick.gpu);
                --leases_[p];
                throw;
            }
            return Lease(*this, std::move(choice), pick.gpu);
        }
        // Every session is busy, or the other GPUs are still starting.
        returned_.wait(lock);
    }
}

BackendPool::Lease::~Lease() {
    if (pool_ && choice_.session) pool_->give_back(std::move(choice_.session), position_);
}

void BackendPool::give_back(std::shared_ptr<gpu::Session> session, int position) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_[static_cast<std::size_t>(position)].push_back(std::move(session));
        scheduler_->give_back(position);
    }
    returned_.notify_one();
}

int BackendPool::sessions_opened() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return scheduler_ ? scheduler_->opened_total() : 0;
}

std::vector<std::pair<int, int>> BackendPool::leases_by_gpu() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::pair<int, int>> out;
    for (std::size_t p = 0; p < leases_.size(); ++p) out.emplace_back(resolved_->gpus[p], leases_[p]);
    return out;
}

}  // namespace imgpar
