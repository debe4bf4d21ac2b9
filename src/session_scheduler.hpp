// Which GPU the next file of a batch goes to when the run spreads its files
// over several GPUs (--device gpu:all, gpu:0,1): the bookkeeping of
// BackendPool's sessions, without CUDA, so the policy is tested on any
// machine with simulated devices.
//
// Each GPU has sessions that are busy (leased to a worker, or still opening)
// or idle. A worker's file goes to the GPU with the fewest busy sessions among
// those that have an idle session or room to open one: the GPU that is least
// loaded right now, so a faster or less busy GPU takes more files. Ties go to
// an idle session (opening one costs device memory and time), then to the GPU
// listed first.
#pragma once

#include <vector>

namespace imgpar {

class SessionScheduler {
public:
    // `gpus` GPUs (positions 0..gpus-1), at most `per_gpu` sessions on each
    // and `total` over all of them (each >= 1).
    SessionScheduler(int gpus, int per_gpu, int total);

    struct Pick {
        enum class Kind { Reuse, Open, Wait };
        Kind kind = Kind::Wait;
        int gpu = -1;  // the position, for Reuse and Open
    };
    Pick pick() const;

    // What the pool did. take_idle: an idle session became busy. open: a
    // session is being opened (counted busy at once, so the limits hold while
    // it opens). open_failed: it could not be. give_back: a busy session
    // became idle.
    void take_idle(int gpu);
    void open(int gpu);
    void open_failed(int gpu);
    void give_back(int gpu);

    // A GPU that is starting (its first session opens on another thread) or
    // failed to start takes no new sessions; its idle ones are still reused.
    void set_open_allowed(int gpu, bool allowed);

    int gpus() const { return static_cast<int>(gpus_.size()); }
    int opened(int gpu) const { return gpus_[static_cast<std::size_t>(gpu)].busy + gpus_[static_cast<std::size_t>(gpu)].idle; }
    int opened_total() const { return opened_total_; }
    int busy(int gpu) const { return gpus_[static_cast<std::size_t>(gpu)].busy; }
    int idle(int gpu) const { return gpus_[static_cast<std::size_t>(gpu)].idle; }

private:
    struct Gpu {
        int busy = 0;
        int idle = 0;
        bool open_allowed = true;
    };
    std::vector<Gpu> gpus_;
    int per_gpu_;
    int total_;
    int opened_total_ = 0;
};

}  // namespace imgpar
