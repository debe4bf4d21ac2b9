#include "src/op/operation.hpp"

#include <algorithm>

#include "src/gpu/session.hpp"

namespace imgpar {

ImageU8 ImageJob::run(const BackendChoice& backend, ConstViewU8 src, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, notes);
    gpu::Session& session = *backend.session;
    return gpu::run_on_images(session, src, output_channels(src.channels),
                              [&](ConstDeviceViewU8 in, DeviceViewU8 out) { run_gpu(session, in, out, notes); });
}

DeviceViewU8 ImageJob::run_into_output(gpu::Session& session, ConstDeviceViewU8 src, RunNotes& notes) const {
    const int channels = output_channels(src.channels);
    const DeviceViewU8 out = session.image<std::uint8_t>(gpu::Session::Slot::Output, src.width, src.height, channels);
    run_gpu(session, src, out, notes);
    return out;
}

ImageU8 ImageJob::run_on_device(gpu::Session& session, ConstDeviceViewU8 src, RunNotes& notes) const {
    const DeviceViewU8 out = run_into_output(session, src, notes);
    ImageU8 result(out.width, out.height, out.channels);
    session.download(ConstDeviceViewU8(out), result.view());
    return result;
}

void ImageJob::warm_up(const BackendChoice& backend, int width, int height, int channels) const {
    if (backend.backend != Backend::Gpu) return;
    gpu::Session& session = *backend.session;
    session.image<std::uint8_t>(gpu::Session::Slot::Input, width, height, channels);
    session.image<std::uint8_t>(gpu::Session::Slot::Output, width, height, output_channels(channels));
    // Enough rows that the copies fill the staging buffers (8 MiB), as the
    // whole image will.
    const std::size_t row = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
    const int rows = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(height), (std::size_t{8} << 20) / row + 1));
    const ImageU8 strip(width, rows, channels);
    RunNotes ignored;
    run(backend, strip.view(), ignored);
}

std::string Operation::positional_help() const {
    if (kind == OperationKind::ImagesToReport) return "FILE...";
    if (kind == OperationKind::ImageToArray) return "IN OUT.npy";
    return extra.name.empty() ? "IN OUT" : "IN OUT [" + extra.name + "]";
}

const Operation* find_operation(const std::string& name) {
    for (const Operation& op : operations())
        if (op.name == name) return &op;
    return nullptr;
}

}  // namespace imgpar
