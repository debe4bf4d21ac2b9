#include "cli/decode_ahead.hpp"

#include "src/parallel.hpp"

namespace imgpar::cli {

DecodeAhead::DecodeAhead(const std::vector<BatchItem>& items, std::size_t first, int threads,
                         std::function<bool()> keep_going, std::function<bool(const BatchItem&, EarlyDecode&)> decode)
    : items_(items),
      keep_going_(std::move(keep_going)),
      decode_(std::move(decode)),
      state_(items.size(), State::Open),
      done_(items.size()),
      next_(first) {
    for (int t = 0; t < threads; ++t) threads_.emplace_back([this] { run(); });
}

DecodeAhead::~DecodeAhead() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        next_ = items_.size();  // take nothing more
    }
    for (std::thread& t : threads_) t.join();
}

void DecodeAhead::run() {
    // One core each: the workers' first decodes use theirs.
    CpuThreadLimit limit(1);
    while (keep_going_()) {
        std::size_t index;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            while (next_ < items_.size() && state_[next_] != State::Open) ++next_;  // a worker took it first
            if (next_ >= items_.size()) return;
            index = next_++;
            state_[index] = State::Decoding;
        }
        std::optional<EarlyDecode> result;
        try {
            EarlyDecode early;
            if (decode_(items_[index], early)) result.emplace(std::move(early));
        } catch (...) {
            result.emplace();
            result->error = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (result) done_[index].emplace(std::move(*result));
            state_[index] = State::Done;
        }
        finished_.notify_all();
    }
}

std::optional<EarlyDecode> DecodeAhead::take(std::size_t index) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (state_[index] == State::Open) {
        state_[index] = State::Taken;
        return std::nullopt;
    }
    finished_.wait(lock, [&] { return state_[index] == State::Done; });
    state_[index] = State::Taken;
    std::optional<EarlyDecode> out = std::move(done_[index]);
    done_[index].reset();
    if (out) ++handed_over_;
    return out;
}

std::size_t DecodeAhead::handed_over() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return handed_over_;
}

}  // namespace imgpar::cli
