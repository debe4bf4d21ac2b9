#include "src/run/gpu_service.hpp"

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "src/error.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

// What the starting threads of a GPU service may still say: nothing once
// the run is over.
struct ServiceLog {
    std::mutex mutex;
    const Diagnostics* diag = nullptr;  // null once the run has ended
    void info(const std::string& line) {
        std::lock_guard<std::mutex> lock(mutex);
        if (diag) diag->info(line);
    }
};

ServiceLogClose::~ServiceLogClose() {
    if (!log_) return;
    std::lock_guard<std::mutex> lock(log_->mutex);
    log_->diag = nullptr;
}

ServiceLogClose start_gpu_service(const Diagnostics& diag, const DeviceRequest& device,
                                  std::function<std::string(int)> start, std::string failed) {
    auto log = std::make_shared<ServiceLog>();
    log->diag = &diag;
    const auto start_on = [log, start, failed](int gpu_index, bool several) {
        try {
            const auto t0 = std::chrono::steady_clock::now();
            const std::string what = start(gpu_index);
            log->info(what + (several ? " of GPU " + std::to_string(gpu_index) : std::string()) + ", started in " +
                      ms_text(ms_since(t0)));
        } catch (const Error& e) {
            log->info(failed + e.what());
        }
    };
    // Finding the GPUs opens the first (a few tenths of a second): that too
    // happens on the service's thread, not on the one that starts the workers.
    std::thread([device, start_on] {
        const std::vector<int> gpus = planned_gpus(device);
        for (std::size_t i = 1; i < gpus.size(); ++i) std::thread(start_on, gpus[i], true).detach();
        if (!gpus.empty()) start_on(gpus[0], gpus.size() > 1);
    }).detach();
    return ServiceLogClose(log);
}

}  // namespace imgpar
