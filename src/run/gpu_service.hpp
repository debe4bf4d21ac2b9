// A service of a run that starts on the GPUs it will use, each on a thread
// of its own, while the first files decode and the sessions open: the
// hardware JPEG decoder (nvJPEG's start takes 0.5-2 s of a core). -v says
// what started and how long it took, or why it did not.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "src/backend.hpp"
#include "src/run/diagnostics.hpp"

namespace imgpar {

struct ServiceLog;

// Ends what the service's threads may say when the run ends (not copyable:
// a copy's end would end it early). The threads are not waited for: a run
// that ends before the service has started leaves it to the process's exit
// (main ends with _Exit once CUDA is initialised).
class ServiceLogClose {
public:
    ServiceLogClose() = default;
    explicit ServiceLogClose(std::shared_ptr<ServiceLog> log) : log_(std::move(log)) {}
    ServiceLogClose(ServiceLogClose&&) = default;
    ServiceLogClose(const ServiceLogClose&) = delete;
    ServiceLogClose& operator=(const ServiceLogClose&) = delete;
    ~ServiceLogClose();

private:
    std::shared_ptr<ServiceLog> log_;
};

// Runs start(gpu) for every GPU `device` gives the run (for auto, the GPU it
// would pick; none when none is usable), each on a thread; start returns
// what started, for -v; an imgpar::Error it throws is said after `failed`.
ServiceLogClose start_gpu_service(const Diagnostics& diag, const DeviceRequest& device,
                                  std::function<std::string(int)> start, std::string failed);

}  // namespace imgpar
