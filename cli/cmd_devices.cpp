// imgpar devices: the GPUs this imgpar can use, or why there are none.
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/gpu_runtime.hpp"
#include "src/report/json.hpp"

#include <cstdio>

namespace imgpar::cli {
namespace {

std::string gib(std::size_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
    return buf;
}

int run(Invocation& inv) {
    ReportFormat format = read_report_format(inv.values);
    const GpuStatus& s = gpu_status();
    if (format == ReportFormat::Json) {
        JsonArray devices;
        for (const auto& d : s.devices) {
            JsonObject o;
            o.add("index", d.index).add("name", d.name).add("compute_capability",
                std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor))
                .add("multiprocessors", d.multiprocessors)
                .add("total_memory_bytes", static_cast<unsigned long long>(d.total_memory))
                .add("free_memory_bytes", static_cast<unsigned long long>(d.free_memory))
                .add("usable", d.usable);
            if (!d.usable) o.add("problem", d.problem);
            devices.push(o);
        }
        JsonObject o;
        o.add("schema", "imgpar.devices/1")
            .add("cuda_backend", s.built_with_cuda)
            .add("cuda_runtime", cuda_version_string(s.runtime_version))
            .add("cuda_driver", cuda_version_string(s.driver_version))
            .add("usable", s.usable())
            .add("devices", devices);
        if (!s.usable()) o.add("reason", s.reason);
        inv.out << o.str() << "\n";
        return kExitOk;
    }
    for (const auto& d : s.devices) {
        inv.out << "GPU " << d.index << ": " << d.name << ", compute capability " << d.compute_major << "."
                << d.compute_minor << ", " << d.multiprocessors << " SMs, " << gib(d.total_memory) << " ("
                << gib(d.free_memory) << " free)";
        if (d.usable)
            inv.out << ", usable\n";
        else
            inv.out << ", not usable: " << d.problem << "\n";
    }
    if (!s.usable()) inv.out << "No usable GPU: " << s.reason << ". imgpar runs on the CPU.\n";
    inv.diag.info("CUDA runtime " + cuda_version_string(s.runtime_version) + ", driver supports CUDA " +
                  cuda_version_string(s.driver_version));
    return kExitOk;
}

}  // namespace

Command devices_command() {
    return {"devices", "List the GPUs imgpar can use", {},
            "Lists each CUDA GPU: name, compute capability, multiprocessors and memory, and whether this build of\n"
            "imgpar can run on it. Without a usable GPU it says why (no driver, no device, a driver too old, a\n"
            "build without CUDA); commands then run on the CPU with --device auto.",
            0, 0,
            {{"Output",
              {ParamSpec::flag("json", "Print one JSON object (schema imgpar.devices/1): the build's CUDA versions, "
                                       "each GPU, and why none is usable")}}},
            run,
            {{"imgpar devices", "Each GPU, or why there is none"},
             {"imgpar devices --json", "The same as one JSON object, for scripts"},
             {"imgpar devices -v", "Also the CUDA runtime and driver versions"}},
            {}};
}

}  // namespace imgpar::cli
