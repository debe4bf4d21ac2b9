#include "src/op/operation.hpp"

#include <algorithm>
#include <stdexcept>

#include "src/gpu/session.hpp"

namespace imgpar {

namespace {

// A host image through a job's GPU side: uploaded to the Input slot, the
// result made in the Output slot and downloaded.
template <typename T, typename Job>
Image<T> run_image_job(const Job& job, gpu::Session& session, ImageView<const T> src, RunNotes& notes) {
    const ImageShape out = job.output_shape(ImageShape{src.width, src.height, src.channels, sample_type_of<T>});
    const DeviceView<T> in = session.image<T>(gpu::Session::Slot::Input, src.width, src.height, src.channels);
    const DeviceView<T> dst = session.image<T>(gpu::Session::Slot::Output, out.width, out.height, out.channels);
    session.upload(src, in);
    job.run_gpu(session, DeviceView<const T>(in), dst, notes);
    Image<T> result(out.width, out.height, out.channels);
    session.download(DeviceView<const T>(dst), result.view());
    return result;
}

template <typename T>
DeviceView<const T> uploaded(gpu::Session& session, ImageView<const T> image) {
    const DeviceView<T> d = session.image<T>(gpu::Session::Slot::Input, image.width, image.height, image.channels);
    session.upload(image, d);
    return d;
}

[[noreturn]] void no_u16(const char* what) {
    throw std::logic_error(std::string(what) + " called for 16-bit samples on a job that does not take them");
}

}  // namespace

ImageU8 ImageJob::run(const BackendChoice& backend, ConstViewU8 src, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, notes);
    return run_image_job(*this, *backend.session, src, notes);
}

ImageU16 ImageJob::run(const BackendChoice& backend, ConstViewU16 src, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, notes);
    return run_image_job(*this, *backend.session, src, notes);
}

ImageU16 ImageJob::run_cpu(ConstViewU16, RunNotes&) const { no_u16("ImageJob::run_cpu"); }
void ImageJob::run_gpu(gpu::Session&, ConstDeviceViewU16, DeviceViewU16, RunNotes&) const {
    no_u16("ImageJob::run_gpu");
}

std::string ReportJob::run(const BackendChoice& backend, const ReportSource& source, ConstViewU8 image,
                           ReportFormat format, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(source, image, format, notes);
    return run_gpu(*backend.session, source, uploaded(*backend.session, image), format, notes);
}

std::string ReportJob::run(const BackendChoice& backend, const ReportSource& source, ConstViewU16 image,
                           ReportFormat format, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(source, image, format, notes);
    return run_gpu(*backend.session, source, uploaded(*backend.session, image), format, notes);
}

std::string ReportJob::run_cpu(const ReportSource&, ConstViewU16, ReportFormat, RunNotes&) const {
    no_u16("ReportJob::run_cpu");
}
std::string ReportJob::run_gpu(gpu::Session&, const ReportSource&, ConstDeviceViewU16, ReportFormat,
                               RunNotes&) const {
    no_u16("ReportJob::run_gpu");
}

NpyFile ArrayJob::run(const BackendChoice& backend, ConstViewU8 src, const std::string& file, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, file, notes);
    return run_gpu(*backend.session, uploaded(*backend.session, src), file, notes);
}

NpyFile ArrayJob::run(const BackendChoice& backend, ConstViewU16 src, const std::string& file, RunNotes& notes) const {
    if (backend.backend != Backend::Gpu) return run_cpu(src, file, notes);
    return run_gpu(*backend.session, uploaded(*backend.session, src), file, notes);
}

NpyFile ArrayJob::run_cpu(ConstViewU16, const std::string&, RunNotes&) const { no_u16("ArrayJob::run_cpu"); }
NpyFile ArrayJob::run_gpu(gpu::Session&, ConstDeviceViewU16, const std::string&, RunNotes&) const {
    no_u16("ArrayJob::run_gpu");
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
