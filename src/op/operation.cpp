#include "src/op/operation.hpp"

#include "src/gpu/session.hpp"

namespace imgpar {

ImageU8 ImageJob::run(const BackendChoice& backend, ConstViewU8 src, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, notes);
    gpu::Session& session = *backend.session;
    return gpu::run_on_images(session, src, output_channels(src.channels),
                              [&](ConstDeviceViewU8 in, DeviceViewU8 out) { run_gpu(session, in, out, notes); });
}

std::string Operation::positional_help() const {
    if (kind == OperationKind::ImagesToReport) return "FILE...";
    return extra.name.empty() ? "IN OUT" : "IN OUT [" + extra.name + "]";
}

const Operation* find_operation(const std::string& name) {
    for (const Operation& op : operations())
        if (op.name == name) return &op;
    return nullptr;
}

}  // namespace imgpar
