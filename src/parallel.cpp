#include "src/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace imgpar {

namespace {
thread_local int thread_limit = 0;  // 0: none
std::atomic<int> chosen_count{0};   // 0: the default

// One parallel_for call: chunks [0, chunks) of [0, count), claimed one at a
// time by the calling thread and by at most `helpers` pool threads.
struct Job {
    const std::function<void(int, int)>* body = nullptr;
    int count = 0, chunk = 0, chunks = 0, helpers = 0;
    std::atomic<int> next{0};     // the next unclaimed chunk
    int joined = 0;               // pool threads that took part (pool mutex)
    int active = 0;               // pool threads inside work() (job mutex)
    int done = 0;                 // chunks finished (job mutex)
    std::mutex mutex;
    std::condition_variable finished;
    std::exception_ptr failure;   // the first chunk's exception (job mutex)

    // Runs chunks until none is left; returns once this thread has none.
    void work() {
        for (int c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
            std::exception_ptr error;
            try {
                (*body)(c * chunk, std::min(count, (c + 1) * chunk));
            } catch (...) {
                error = std::current_exception();
            }
            std::lock_guard<std::mutex> lock(mutex);
            if (error && !failure) failure = error;
            if (++done == chunks) finished.notify_all();
        }
    }
};

// Threads that live as long as the process, so a call costs a wake-up, not a
// thread start (tens of microseconds each, which small images and batches of
// them feel). The pool grows to the most threads any call has asked for.
// Jobs wait in a queue; a thread takes the oldest that still wants helpers.
// The caller works on its own job too, so a job finishes even when every
// pool thread is busy elsewhere, and a parallel_for inside a chunk (or in
// several batch threads at once) cannot deadlock.
class Pool {
public:
    static Pool& instance() {
        // Never destroyed: threads still parked at exit must not touch a
        // destroyed pool; the process ends them.
        static Pool* pool = new Pool;
        return *pool;
    }

    void run(Job& job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            while (static_cast<int>(threads_.size()) < job.helpers) {
                threads_.emplace_back([this] { serve(); });
                threads_.back().detach();
            }
            queue_.push_back(&job);
        }
        wake_.notify_all();
        job.work();
        {
            // No pool thread may pick the job up once it is finished.
            std::lock_guard<std::mutex> lock(mutex_);
            queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
        }
        // The job lives on the caller's stack: wait for the last chunk and
        // for every helper to be out of it.
        std::unique_lock<std::mutex> lock(job.mutex);
        job.finished.wait(lock, [&] { return job.done == job.chunks && job.active == 0; });
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            Job* job = nullptr;
            wake_.wait(lock, [&] { return (job = wanting_help()) != nullptr; });
            ++job->joined;
            {
                std::lock_guard<std::mutex> job_lock(job->mutex);
                ++job->active;
            }
            lock.unlock();
            job->work();
            {
                std::lock_guard<std::mutex> job_lock(job->mutex);
                if (--job->active == 0) job->finished.notify_all();
            }
            lock.lock();
        }
    }

    // The oldest queued job with chunks unclaimed and room for a helper.
    Job* wanting_help() {
        for (Job* job : queue_)
            if (job->joined < job->helpers && job->next.load() < job->chunks) return job;
        return nullptr;
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job*> queue_;
    std::vector<std::thread> threads_;
};

}  // namespace

CpuThreadLimit::CpuThreadLimit(int threads) : previous_(thread_limit) { thread_limit = std::max(threads, 1); }
CpuThreadLimit::~CpuThreadLimit() { thread_limit = previous_; }

int default_cpu_thread_count() {
    static const int count = [] {
        if (const char* env = std::getenv("IMGPAR_THREADS")) {
            int n = std::atoi(env);
            if (n > 0) return std::min(n, 256);
        }
        unsigned hc = std::thread::hardware_concurrency();
        return hc == 0 ? 1 : static_cast<int>(hc);
    }();
    return count;
}

void set_cpu_thread_count(int threads) { chosen_count = std::clamp(threads, 0, 256); }

int cpu_thread_count() {
    const int chosen = chosen_count.load(std::memory_order_relaxed);
    const int count = chosen > 0 ? chosen : default_cpu_thread_count();
    return thread_limit > 0 ? std::min(count, thread_limit) : count;
}

void parallel_for(int count, int grain, const std::function<void(int, int)>& body) {
    if (count <= 0) return;
    grain = std::max(grain, 1);
    const int workers = std::min(cpu_thread_count(), std::max(1, count / grain));
    if (workers <= 1) {
        body(0, count);
        return;
    }
    // One chunk per worker, as equal as whole rows allow: the bodies set up
    // per-chunk state (a band's first rows, buffers), so more chunks cost.
    Job job;
    job.body = &body;
    job.count = count;
    job.chunk = (count + workers - 1) / workers;
    job.chunks = (count + job.chunk - 1) / job.chunk;
    job.helpers = job.chunks - 1;
    Pool::instance().run(job);
    if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace imgpar
