#include "src/session_scheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace imgpar {

SessionScheduler::SessionScheduler(int gpus, int per_gpu, int total)
    : gpus_(static_cast<std::size_t>(std::max(gpus, 1))), per_gpu_(std::max(per_gpu, 1)), total_(std::max(total, 1)) {}

SessionScheduler::Pick SessionScheduler::pick() const {
    Pick best;
    int best_busy = 0;
    for (int g = 0; g < gpus(); ++g) {
        const Gpu& s = gpus_[static_cast<std::size_t>(g)];
        Pick::Kind kind;
        if (s.idle > 0)
            kind = Pick::Kind::Reuse;
        else if (s.open_allowed && s.busy < per_gpu_ && opened_total_ < total_)
            kind = Pick::Kind::Open;
        else
            continue;
        const bool better = best.kind == Pick::Kind::Wait || s.busy < best_busy ||
                            (s.busy == best_busy && kind == Pick::Kind::Reuse && best.kind == Pick::Kind::Open);
        if (better) {
            best = {kind, g};
            best_busy = s.busy;
        }
    }
    return best;
}

void SessionScheduler::take_idle(int gpu) {
    Gpu& s = gpus_.at(static_cast<std::size_t>(gpu));
    if (s.idle < 1) throw std::logic_error("SessionScheduler: no idle session to take");
    --s.idle;
    ++s.busy;
}

void SessionScheduler::open(int gpu) {
    ++gpus_.at(static_cast<std::size_t>(gpu)).busy;
    ++opened_total_;
}

void SessionScheduler::open_failed(int gpu) {
    Gpu& s = gpus_.at(static_cast<std::size_t>(gpu));
    if (s.busy < 1) throw std::logic_error("SessionScheduler: no session was opening");
    --s.busy;
    --opened_total_;
}

void SessionScheduler::give_back(int gpu) {
    Gpu& s = gpus_.at(static_cast<std::size_t>(gpu));
    if (s.busy < 1) throw std::logic_error("SessionScheduler: no busy session to give back");
    --s.busy;
    ++s.idle;
}

void SessionScheduler::set_open_allowed(int gpu, bool allowed) { gpus_.at(static_cast<std::size_t>(gpu)).open_allowed = allowed; }

}  // namespace imgpar
