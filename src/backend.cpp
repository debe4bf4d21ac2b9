#include "src/backend.hpp"

#include <algorithm>
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
    const auto refuse = [&text](const std::string& why) {
        return usage_error("--device", "'" + text + "' is not a device" + why +
                                           " (allowed: auto, cpu, gpu, gpu:N, gpu:N,M,... or gpu:all)");
    };
    if (text.rfind("gpu", 0) != 0) throw refuse("");
    r.kind = DeviceRequest::Kind::Gpu;
    if (text == "gpu") return r;
    if (text == "gpu:all") {
        r.all_gpus = true;
        return r;
    }
    if (text.size() < 5 || text[3] != ':') throw refuse("");
    // gpu:N or gpu:N,M,...: each entry 1-3 digits.
    std::size_t start = 4;
    for (;;) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string entry = text.substr(start, end - start);
        bool digits = !entry.empty() && entry.size() <= 3;
        for (char ch : entry) digits = digits && std::isdigit(static_cast<unsigned char>(ch));
        if (!digits) throw refuse("");
        const int index = std::stoi(entry);
        for (int seen : r.gpu_list)
            if (seen == index) throw refuse(": GPU " + entry + " is named twice");
        r.gpu_list.push_back(index);
        if (end == text.size()) break;
        start = end + 1;
    }
    return r;
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

// GPU `index` if it exists and is usable (it is opened to find out), or
// null with the reason.
const GpuInfo* usable_gpu(const GpuStatus& inventory, int index, std::string& why) {
    if (index >= static_cast<int>(inventory.devices.size())) {
        why = with_visibility(inventory, inventory.devices.empty()
                                             ? inventory.reason
                                             : "there is no GPU " + std::to_string(index) + " (this machine has " +
                                                   std::to_string(inventory.devices.size()) + ")");
        return nullptr;
    }
    const GpuInfo& gpu = gpu_device(index);
    if (!gpu.usable) {
        why = "GPU " + std::to_string(index) + " " + gpu.problem;
        return nullptr;
    }
    return &gpu;
}

// The GPUs `request` names (every listed one must be usable), else the first
// usable one and, for gpu:all, every later GPU whose properties do not rule
// it out; empty with the reason. Only the GPUs that decide the answer are
// opened here: gpu:all's further GPUs open on their own threads as the run
// starts them (BackendPool), where one that cannot run imgpar's kernels is
// reported and its files go to the others.
std::vector<const GpuInfo*> pick_gpus(const DeviceRequest& request, std::string& why) {
    const GpuStatus& inventory = gpu_inventory();
    std::vector<const GpuInfo*> picked;
    if (!request.gpu_list.empty()) {
        for (int index : request.gpu_list) {
            const GpuInfo* gpu = usable_gpu(inventory, index, why);
            if (!gpu) return {};
            picked.push_back(gpu);
        }
        return picked;
    }
    for (const GpuInfo& d : inventory.devices) {
        if (picked.empty()) {
            const GpuInfo& gpu = gpu_device(d.index);
            if (gpu.usable) picked.push_back(&gpu);
        } else if (!d.probed || d.usable) {
            picked.push_back(&d);
        }
        if (!picked.empty() && !request.all_gpus) break;
    }
    if (picked.empty())
        why = inventory.devices.empty() ? with_visibility(inventory, inventory.reason)
                                        : "GPU 0 " + gpu_device(0).problem;
    return picked;
}

}  // namespace

std::vector<int> planned_gpus(const DeviceRequest& request) {
    std::vector<int> gpus;
    if (request.kind == DeviceRequest::Kind::Cpu) return gpus;
    std::string why;
    for (const GpuInfo* gpu : pick_gpus(request, why)) gpus.push_back(gpu->index);
    return gpus;
}

BackendChoice select_backend(const DeviceRequest& request) {
    BackendChoice choice;
    if (request.kind == DeviceRequest::Kind::Cpu) return choice;
    std::string why;
    const std::vector<const GpuInfo*> gpus = pick_gpus(request, why);

    if (gpus.empty()) {
        if (request.kind == DeviceRequest::Kind::Gpu)
            throw device_error("--device gpu", "no usable GPU: " + why);
        choice.fallback_reason = why;
        return choice;
    }
    const GpuInfo* first = gpus.front();
    choice.session = std::make_shared<gpu::Session>(first->index);
    choice.backend = Backend::Gpu;
    choice.gpu_index = first->index;
    choice.gpu_name = first->name;
    for (const GpuInfo* gpu : gpus) choice.gpus.push_back(gpu->index);
    return choice;
}

}  // namespace imgpar
