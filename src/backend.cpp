#include "src/backend.hpp"

#include <cctype>
#include <cstdlib>

#include "src/error.hpp"
#include "src/gpu_runtime.hpp"


namespace imgpar {

const char* backend_name(Backend b) { return b == Backend::Gpu ? "gpu" : "cpu"; }

DeviceRequest parse_device_request(const std::string& text) {
    DeviceRequest r;
    if (text == "auto") return r;
    if (text == "cpu") {
        r.kind = DeviceRequest::Kind::Cpu;
        return r;
    }
    if (text == "gpu") {
        r.kind = DeviceRequest::Kind::Gpu;
        return r;
    }
    if (text.rfind("gpu:", 0) == 0 && text.size() > 4 && text.size() <= 7) {
        bool digits = true;
        for (std::size_t i = 4; i < text.size(); ++i) digits = digits && std::isdigit(static_cast<unsigned char>(text[i]));
        if (digits) {
            r.kind = DeviceRequest::Kind::Gpu;
            r.gpu_index = std::stoi(text.substr(4));
            r.index_given = true;
            return r;
        }
    }
    throw usage_error("--device", "'" + text + "' is not a device (allowed: auto, cpu, gpu, gpu:N)");
}

namespace {

// Slurm (--gres=gpu:N), container runtimes and users hand a process its GPUs
// with CUDA_VISIBLE_DEVICES; CUDA then numbers only those, from 0. imgpar
// keeps that numbering (gpu:N is the N-th GPU listed) and names the entry in
// what it reports, so a log says which of the machine's GPUs ran. Null when
// the variable is unset.
const char* visible_devices() { return std::getenv("CUDA_VISIBLE_DEVICES"); }

// Entry `index` of the comma-separated list, or "" when it has none.
std::string visible_entry(const std::string& list, int index) {
    std::size_t start = 0;
    for (int i = 0; i < index; ++i) {
        start = list.find(',', start);
        if (start == std::string::npos) return "";
        ++start;
    }
    return list.substr(start, list.find(',', start) - start);
}

}  // namespace

std::string BackendChoice::describe() const {
    if (backend == Backend::Cpu) return "cpu";
    std::string text = "gpu " + std::to_string(gpu_index) + " (" + gpu_name;
    if (const char* list = visible_devices()) {
        const std::string entry = visible_entry(list, gpu_index);
        if (!entry.empty()) text += "; '" + entry + "' of CUDA_VISIBLE_DEVICES=" + list;
    }
    return text + ")";
}

namespace {

// The reason no GPU is usable, with CUDA_VISIBLE_DEVICES when it is set: an
// empty or wrong list hides GPUs the machine has.
std::string with_visibility(const GpuStatus& status, std::string why) {
    const char* list = visible_devices();
    if (list && status.built_with_cuda)
        why += std::string(" (CUDA_VISIBLE_DEVICES='") + list + "': CUDA sees only the GPUs it lists)";
    return why;
}

// The GPU `request` names (or the first usable one), or null with the reason.
const GpuInfo* pick_gpu(const DeviceRequest& request, std::string& why) {
    const GpuStatus& status = gpu_status();
    if (request.index_given) {
        if (request.gpu_index >= static_cast<int>(status.devices.size()))
            why = with_visibility(status, status.devices.empty()
                                              ? status.reason
                                              : "there is no GPU " + std::to_string(request.gpu_index) +
                                                    " (this machine has " + std::to_string(status.devices.size()) + ")");
        else if (!status.devices[request.gpu_index].usable)
            why = "GPU " + std::to_string(request.gpu_index) + " " + status.devices[request.gpu_index].problem;
        else
            return &status.devices[request.gpu_index];
        return nullptr;
    }
    for (const auto& d : status.devices)
        if (d.usable) return &d;
    why = status.devices.empty() ? with_visibility(status, status.reason) : status.reason;
    return nullptr;
}

}  // namespace

int planned_gpu(const DeviceRequest& request) {
    if (request.kind == DeviceRequest::Kind::Cpu) return -1;
    std::string why;
    const GpuInfo* gpu = pick_gpu(request, why);
    return gpu ? gpu->index : -1;
}

BackendChoice select_backend(const DeviceRequest& request) {
    BackendChoice choice;
    if (request.kind == DeviceRequest::Kind::Cpu) return choice;
    std::string why;
    const GpuInfo* gpu = pick_gpu(request, why);

    if (!gpu) {
        if (request.kind == DeviceRequest::Kind::Gpu)
            throw device_error("--device gpu", "no usable GPU: " + why);
        choice.fallback_reason = why;
        return choice;
    }
    choice.session = std::make_shared<gpu::Session>(gpu->index);
    choice.backend = Backend::Gpu;
    choice.gpu_index = gpu->index;
    choice.gpu_name = gpu->name;
    return choice;
}

}  // namespace imgpar
