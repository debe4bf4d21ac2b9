#include "src/op/operation.hpp"

#include <algorithm>
#include <stdexcept>

#include "src/gpu/session.hpp"

namespace imgpar {

ImageU8 ImageJob::run(const BackendChoice& backend, ConstViewU8 src, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, notes);
    gpu::Session& session = *backend.session;
    const ImageShape out = output_shape(ImageShape{src.width, src.height, src.channels, SampleType::U8});
    const DeviceViewU8 in = session.image<std::uint8_t>(gpu::Session::Slot::Input, src.width, src.height, src.channels);
    const DeviceViewU8 dst = session.image<std::uint8_t>(gpu::Session::Slot::Output, out.width, out.height, out.channels);
    session.upload(src, in);
    run_gpu(session, in, dst, notes);
    ImageU8 result(out.width, out.height, out.channels);
    session.download(ConstDeviceViewU8(dst), result.view());
    return result;
}

namespace {

ConstDeviceViewU8 uploaded(gpu::Session& session, ConstViewU8 image) {
    const DeviceViewU8 d = session.image<std::uint8_t>(gpu::Session::Slot::Input, image.width, image.height, image.channels);
    session.upload(image, d);
    return d;
}

}  // namespace

std::string ReportJob::run(const BackendChoice& backend, const ReportSource& source, ConstViewU8 image,
                           ReportFormat format, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(source, image, format, notes);
    return run_gpu(*backend.session, source, uploaded(*backend.session, image), format, notes);
}

NpyFile ArrayJob::run(const BackendChoice& backend, ConstViewU8 src, const std::string& file, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, file, notes);
    return run_gpu(*backend.session, uploaded(*backend.session, src), file, notes);
}

std::vector<std::string> Operation::synopsis() const {
    if (kind == OperationKind::ImagesToReport) return {"FILE..."};
    const std::string single = kind == OperationKind::ImageToArray ? "IN OUT.npy"
                               : extra.name.empty()               ? "IN OUT"
                                                                  : "IN OUT [" + extra.name + "]";
    return {single, "--out-dir DIR IN...", "-o TEMPLATE IN..."};
}

Usage Operation::shown(const std::string& label, const std::string& files, std::string what) const {
    for (const Example& e : examples) {
        if (e.label != label) continue;
        std::string line = "imgpar " + name;
        for (const auto& [option, value] : e.values)
            line += " --" + option + (value.empty() ? std::string() : " " + shell_quoted(value));
        return {line + " " + files, std::move(what)};
    }
    throw std::logic_error(name + ": no example labelled '" + label + "' to show");
}

std::string shell_quoted(const std::string& word) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string("-_./:,=+%@").find(c) != std::string::npos;
    });
    if (plain) return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

const Operation* find_operation(const std::string& name) {
    for (const Operation& op : operations())
        if (op.name == name) return &op;
    return nullptr;
}

}  // namespace imgpar
