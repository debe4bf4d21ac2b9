#include "src/io/temp_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>

namespace imgpar {
namespace {

// The signals that stop a run and after which no temporary file may remain.
// SIGPIPE: a report piped into `head` that exits early; SIGXCPU, SIGXFSZ:
// limits set by ulimit or a batch scheduler.
constexpr int kStopSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ};

// One write in flight. Free -> Claimed (a temporary file being created: the
// handler waits for it) -> Ready (it exists: `path` may be read and removed)
// -> Free. A handler takes Ready -> Cleaning, so the owner cannot free the
// name it is reading. InPlace: a file written in place, which the handler
// lets finish.
enum SlotState : int { Free, Claimed, Ready, InPlace, Cleaning };

struct Slot {
    std::atomic<int> state{Free};
    const char* path = nullptr;  // valid while Ready or Cleaning
};

// Each worker (--jobs, at most 1024) holds one slot at a time; a claim waits
// when every slot is taken, so the size bounds nothing but concurrency.
constexpr int kSlots = 2048;
Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs lock-free atomics");

// Set by the first handler: a claim that sees it gives its slot back and
// waits for the end instead of creating a file the handler may have missed.
std::atomic<bool> g_stopping{false};

// How long a handler waits, over all slots, for files being created or
// written in place before the process stops anyway.
constexpr int kSettleBudgetMs = 5000;

void sleep_one_ms() {
    timespec t{0, 1000000};
    ::nanosleep(&t, nullptr);
}

// Async-signal-safe: atomics, unlink, nanosleep.
void remove_when_settled(Slot& slot, int& budget_ms) {
    for (;;) {
        int state = slot.state.load();
        if (state == Free || state == Cleaning) return;
        if (state == Ready) {
            if (slot.state.compare_exchange_strong(state, Cleaning)) {
                ::unlink(slot.path);
                return;
            }
            continue;
        }
        if (budget_ms <= 0) return;  // Claimed or InPlace for too long
        sleep_one_ms();
        --budget_ms;
    }
}

extern "C" void on_stop_signal(int sig) {
    const int saved_errno = errno;
    g_stopping.store(true);
    int budget_ms = kSettleBudgetMs;
    for (Slot& slot : g_slots) remove_when_settled(slot, budget_ms);
    // Then the default action, so the exit status says which signal it was.
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);  // pending: blocked while its handler runs
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
    errno = saved_errno;
}

void install_handlers() {
    struct sigaction sa{};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : kStopSignals) sigaddset(&sa.sa_mask, s);
    sa.sa_flags = SA_RESTART;
    for (int s : kStopSignals) {
        struct sigaction old{};
        if (::sigaction(s, nullptr, &old) != 0) continue;
        // Ignored (nohup, a background job) or handled by someone else: left so.
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
        ::sigaction(s, &sa, nullptr);
    }
}

// Blocks the stop signals in this thread, so that a handler never runs on a
// thread that holds a slot it would wait for; `old` gets the mask before.
void block_stop_signals(sigset_t& old) {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kStopSignals) sigaddset(&set, s);
    ::pthread_sigmask(SIG_BLOCK, &set, &old);
}

// The stop signals blocked for the lifetime of this object.
class StopSignalsBlocked {
public:
    StopSignalsBlocked() { block_stop_signals(old_); }
    ~StopSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    const sigset_t& old() const { return old_; }

private:
    sigset_t old_;
};

// A handler on another thread is stopping the process and reads a slot this
// thread cannot give back: wait for the end, with the signals this thread
// had unblocked.
[[noreturn]] void wait_for_the_end(const sigset_t* mask) {
    if (mask) ::pthread_sigmask(SIG_SETMASK, mask, nullptr);
    for (;;) ::pause();
}

// Called with the stop signals blocked in this thread.
int claim_slot(SlotState as, const sigset_t& unblocked) {
    // Each time (a few sigaction calls against a file's write): a signal set
    // back to its default since the last file is covered again.
    install_handlers();
    for (;;) {
        for (int i = 0; i < kSlots; ++i) {
            int expected = Free;
            if (!g_slots[i].state.compare_exchange_strong(expected, as)) continue;
            // Either the handler sees this slot taken, or this sees it stopping.
            if (g_stopping.load()) {
                g_slots[i].state.store(Free);
                wait_for_the_end(&unblocked);
            }
            return i;
        }
        sched_yield();
    }
}

void free_slot(int slot, int from) {
    int expected = from;
    if (!g_slots[slot].state.compare_exchange_strong(expected, Free)) wait_for_the_end(nullptr);
}

}  // namespace

TempFile::TempFile(std::string path_template) : path_(std::move(path_template)) {
    StopSignalsBlocked blocked;
    slot_ = claim_slot(Claimed, blocked.old());
    fd_ = ::mkostemp(&path_[0], O_CLOEXEC);
    if (fd_ < 0) {
        error_ = errno;
        g_slots[slot_].state.store(Free);
        slot_ = -1;
        return;
    }
    g_slots[slot_].path = path_.c_str();
    g_slots[slot_].state.store(Ready);
}

TempFile::~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (slot_ < 0) return;
    if (!kept_) ::unlink(path_.c_str());
    free_slot(slot_, Ready);
}

int TempFile::close() {
    if (fd_ < 0) return 0;
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
}

void TempFile::keep() {
    kept_ = true;
    if (slot_ >= 0) free_slot(slot_, Ready);
    slot_ = -1;
}

InPlaceWrite::InPlaceWrite() {
    block_stop_signals(old_mask_);
    slot_ = claim_slot(InPlace, old_mask_);
}

InPlaceWrite::~InPlaceWrite() {
    free_slot(slot_, InPlace);
    ::pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

std::string temp_file_template(const std::string& dir, const std::string& name) {
    static const std::string suffix = ".imgpar-XXXXXX";
    constexpr std::size_t kMaxEntry = 255;
    const std::string shown = name.substr(0, kMaxEntry - 1 - suffix.size());
    return dir + "/." + shown + suffix;
}

}  // namespace imgpar
