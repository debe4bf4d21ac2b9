#include "src/run/report_sink.hpp"

#include <memory>
#include <utility>

#include "src/io/atomic_write.hpp"
#include "src/run/output_names.hpp"
#include "src/run/output_record.hpp"
#include "src/run/pipeline.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

// --- report -------------------------------------------------------------------

ReportSource ReportSink::source(const FileRun& file, const char* backend) const {
    ReportSource s{file.name(), backend, {}};
    if (!file.stages.empty()) s.extra.add("stages", stages_json(file));
    return s;
}

void ReportSink::take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const {
    file.text = job_.run(backend, source(file, backend_name(backend.backend)), image.view(), format_, file.notes);
}

void ReportSink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const {
    file.text = job_.run_gpu(session, source(file, "gpu"), image, format_, file.notes);
}

void ReportSink::take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const {
    file.text = job_.run(backend, source(file, backend_name(backend.backend)), image.view(), format_, file.notes);
}

void ReportSink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const {
    file.text = job_.run_gpu(session, source(file, "gpu"), image, format_, file.notes);
}

std::string ReportSink::complete(FileRun& file) const {
    for (const std::string& w : file.notes.warnings) diag_.warning(w);
    for (const std::string& line : file.notes.info) diag_.info(line);
    const std::string kernel = file.stages.empty() ? file.notes.kernel : kernels_text(file) + " | " + file.notes.kernel;
    diag_.info(command_ + ": " + file.name() + ": backend " + file.used.describe() + "; kernel " + kernel + "; " +
               ms_text(file.compute_ms));
    return std::move(file.text);
}

std::string ReportSink::failed(std::size_t index, const BatchItem& item, const Error& error) const {
    (void)index;
    if (format_ != ReportFormat::Json) return std::string();
    JsonObject o;
    o.add("schema", job_.json_schema()).add("file", item.name).add("ok", false).add("error", error.what());
    return o.str() + "\n";
}

// --- array --------------------------------------------------------------------

void ArraySink::probe_cpu(ConstViewU8 sample, const ImageShape& real) const {
    (void)real;
    RunNotes ignored;
    (void)job_.run_cpu(sample, "probe", ignored);
}

bool ArraySink::skips(const BatchItem& item) const { return skip_existing_ && output_exists(item); }

void ArraySink::take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const {
    file.extra = std::make_shared<NpyFile>(job_.run(backend, image.view(), file.name(), file.notes));
}

void ArraySink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const {
    file.extra = std::make_shared<NpyFile>(job_.run_gpu(session, image, file.name(), file.notes));
}

void ArraySink::take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const {
    file.extra = std::make_shared<NpyFile>(job_.run(backend, image.view(), file.name(), file.notes));
}

void ArraySink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const {
    file.extra = std::make_shared<NpyFile>(job_.run_gpu(session, image, file.name(), file.notes));
}

std::string ArraySink::complete(FileRun& file) const {
    const BatchItem& item = *file.item;
    const NpyFile& array = *std::static_pointer_cast<NpyFile>(file.extra);
    const auto t0 = std::chrono::steady_clock::now();
    if (make_folders_) make_output_folder(item.output);
    write_file_atomically(item.output, array.bytes(), array.size());
    const double write_ms = ms_since(t0);
    for (const std::string& w : file.notes.warnings) diag_.warning(w);
    for (const std::string& line : file.notes.info) diag_.info(line);
    const std::string kernel = file.stages.empty() ? file.notes.kernel : kernels_text(file) + " | " + file.notes.kernel;
    diag_.info(command_ + ": " + item.name + " (" + std::to_string(file.header.width) + "x" +
               std::to_string(file.header.height) + " " + channel_layout_name(file.header.channels) + ") -> " +
               output_name(item.output) + ": " + job_.describe() + "; backend " + file.used.describe() + "; kernel " +
               kernel + "; stages: read+decode " + ms_text(file.read_ms + file.decode_ms) + ", compute " +
               ms_text(file.compute_ms) + ", write " + ms_text(write_ms));
    if (!json_) return std::string();
    JsonObject o = output_record(command_, item, kJsonSchema);
    o.add("ok", true).add("width", file.header.width).add("height", file.header.height).add("channels", file.header.channels);
    JsonObject operation = job_.details();
    operation.merge(file.notes.details);
    add_run_members(o, operation, kernel, file.used);
    o.add("elapsed_ms", file.compute_ms).add("decode_ms", file.read_ms + file.decode_ms).add("write_ms", write_ms);
    if (!file.stages.empty()) o.add("stages", stages_json(file));
    return o.str() + "\n";
}

std::string ArraySink::failed(std::size_t index, const BatchItem& item, const Error& error) const {
    (void)index;
    return output_failure(command_, item, error, json_, kJsonSchema);
}

std::string ArraySink::skipped(const BatchItem& item) const { return output_skipped(command_, item, json_, kJsonSchema); }

// --- info ---------------------------------------------------------------------

std::string InfoSink::print(const InfoRecord& r) const {
    switch (format_) {
        case ReportFormat::Text: return r.ok ? info_text(r) + "\n" : std::string();
        case ReportFormat::Csv: return info_csv_row(r) + "\n";
        case ReportFormat::Json: return info_json(r) + "\n";
    }
    return std::string();
}

void InfoSink::take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const {
    (void)backend;
    file.image = std::move(image);
}

void InfoSink::take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const {
    (void)backend;
    file.image16 = std::move(image);
}

std::string InfoSink::complete(FileRun& file) const {
    InfoRecord r;
    r.file = file.name();
    r.header = file.header;
    r.decoded = verify_;
    r.decoded_bytes = file.image.size_bytes() + file.image16.size_bytes();
    r.ok = true;
    return print(r);
}

std::string InfoSink::failed(std::size_t index, const BatchItem& item, const Error& error) const {
    (void)index;
    InfoRecord r;
    r.file = item.name;
    r.error = error.reason();
    return print(r);
}

}  // namespace imgpar
