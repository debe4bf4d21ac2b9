#include "src/run/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "src/gpu/session.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/metadata.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

namespace {

template <typename T>
void download_and_take(const Sink& sink, FileRun& file, gpu::Session& session, DeviceView<const T> image) {
    Image<T> host(image.width, image.height, image.channels);
    session.download(image, host.view());
    BackendChoice cpu;
    sink.take_host(file, std::move(host), cpu);
}

}  // namespace

void Sink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const {
    download_and_take(*this, file, session, image);
}

void Sink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const {
    download_and_take(*this, file, session, image);
}

void Sink::take_host(FileRun&, ImageU16, const BackendChoice&) const {
    throw std::logic_error("Sink::take_host called with 16-bit samples on a sink that does not take them");
}

Pipeline::Pipeline(const Chain& chain, const Sink& sink, PipelineSettings settings, const Diagnostics& diag)
    : chain_(chain), sink_(sink), settings_(std::move(settings)), diag_(diag) {
    settings_.load.keep_16_bits = takes_u16();
}

bool Pipeline::takes_u16() const {
    if (!sink_.takes_u16()) return false;
    for (const Stage& stage : chain_.stages())
        if (!stage.job->takes_u16()) return false;
    return true;
}

int Pipeline::orientation(const ImageHeader& header) const {
    return settings_.auto_orient ? exif_orientation(header.metadata.exif) : 0;
}

namespace {

// The decoded image's shape once turned (orientation 5-8: a quarter turn).
ImageShape upright_shape(const ImageHeader& header, int orientation, const LoadOptions& load) {
    const bool swapped = orientation >= 5;  // turned a quarter: width and height swap
    return {swapped ? header.height : header.width, swapped ? header.width : header.height, header.channels,
            loaded_type(header, load)};
}

}  // namespace

std::vector<ImageShape> Pipeline::shapes(const ImageHeader& header, const std::string& name) const {
    return chain_.shapes(upright_shape(header, orientation(header), settings_.load), name);
}

std::uint64_t Pipeline::memory_needed(const FileRun& file) const {
    // The largest of: the decoded input (twice while --auto-orient turns
    // it), each stage's buffers, the sink's; the file, the decoder's
    // buffers and the metadata beside any of them.
    const double input = static_cast<double>(file.shapes.front().bytes()) * (file.orientation >= 2 ? 2 : 1);
    const double buffers = std::max({input, chain_.peak_bytes(file.shapes, 0), sink_.peak_bytes(file)});
    return static_cast<std::uint64_t>(file.header.file_bytes) + file.header.decoder_bytes +
           metadata_memory(file.header) + static_cast<std::uint64_t>(std::ceil(buffers));
}

ItemResult Pipeline::run(std::size_t index, const BatchItem& item, WorkerContext& ctx,
                         std::optional<SourceFile> preread) const {
    ItemResult result;
    if (sink_.skips(item)) {
        diag_.info(settings_.command + ": " + item.output + " exists: skipped");
        result.text = sink_.skipped(item);
        result.skipped = true;
        return result;
    }
    sink_.check(index, item);
    FileRun file;
    file.start_s = seconds_since_start();
    file.index = index;
    file.item = &item;
    SourceFile source = preread ? std::move(*preread) : read_source(item, settings_.load);
    file.read_ms = source.read_ms;
    file.header = source.header;
    if (!sink_.reads_pixels()) {
        result.text = sink_.complete(file);
        return result;
    }
    file.orientation = orientation(file.header);
    // Shrink-on-load: a JPEG decoded smaller where the first stage makes the
    // same image of it (a thumbnail); libjpeg-turbo's, so on the cores.
    Chain::LoadShapes load =
        chain_.load_shapes(upright_shape(file.header, file.orientation, settings_.load),
                          file.header.format == ImageFormat::Jpeg, item.name);
    file.shrink = load.shrink;
    file.shapes = std::move(load.shapes);
    sink_.check_output(file);
    // What the sink reads for itself (compare's second image) is checked
    // and reserved with the file: one reservation, so two workers never
    // each hold a part of the budget while waiting for the other's.
    const std::uint64_t need = memory_needed(file) + sink_.read_extra(file);
    const std::uint64_t decoding = file.header.file_bytes + file.header.decoder_bytes + metadata_memory(file.header) +
                                   file.shapes.front().bytes();
    check_memory(sink_.memory_subject(file), file.header, need, need > decoding, settings_.load);
    const auto reserving = std::chrono::steady_clock::now();
    const MemoryBudget::Reservation reservation = ctx.memory.reserve(need);
    file.wait_ms += ms_since(reserving);
    sink_.prepare(file, ctx);
    compute(file, source, ctx);
    for (const std::string& w : file.warnings) diag_.warning(item.name + ": " + w);
    result.text = sink_.complete(file);
    say(file);
    return result;
}

void Pipeline::compute(FileRun& file, SourceFile& source, WorkerContext& ctx) const {
    const std::string& name = file.name();
    const LoadOptions& load = settings_.load;
    // The sink takes a device image after stages, or when it can read one.
    const bool on_device = !chain_.empty() || sink_.takes_device_image();
    GpuJpegDecoders* decoders = settings_.jpeg_decoders.get();
    if (decoders && computes() && on_device && file.orientation < 2 && file.shrink == 1 &&
        ctx.backend.resolved_to_gpu()) {
        if (std::optional<DeviceDecoded> d = decode_on_gpu(source, name, load, *decoders, ctx.backend)) {
            std::vector<std::uint8_t>().swap(source.bytes);
            file.decode_ms = d->ms;
            file.warnings = std::move(d->warnings);
            file.decoded_on_gpu = true;
            file.jpeg_decoder = d->decoder;
            file.wait_ms += d->lease.waited_ms();
            run_on_device(file, *d->lease.choice().session, ConstDeviceViewU8(d->image));
            file.used = d->lease.choice();
            file.used.session.reset();
            return;
        }
    }
    if (decoders && file.header.format == ImageFormat::Jpeg) decoders->count(GpuJpegDecoders::Decoder::Host);
    HostDecoded decoded = decode_on_host(source, name, load, file.orientation, file.shrink);
    std::vector<std::uint8_t>().swap(source.bytes);  // the file's bytes go before the results come
    file.decode_ms = decoded.ms;
    file.warnings = std::move(decoded.warnings);
    if (decoded.sixteen())
        compute_decoded(file, std::move(decoded.image16), ctx);
    else
        compute_decoded(file, std::move(decoded.image), ctx);
}

template <typename T>
void Pipeline::compute_decoded(FileRun& file, Image<T> decoded, WorkerContext& ctx) const {
    if (!computes()) {
        sink_.take_host(file, std::move(decoded), BackendChoice{});
        return;
    }
    const bool on_device = !chain_.empty() || sink_.takes_device_image();
    const BackendPool::Lease lease = ctx.backend.lease();
    file.wait_ms += lease.waited_ms();
    const BackendChoice& choice = lease.choice();
    if (choice.backend == Backend::Gpu && on_device) {
        gpu::Session& session = *choice.session;
        const ImageView<const T> in = decoded.view();
        const DeviceView<T> slot = session.image<T>(gpu::Session::Slot::Input, in.width, in.height, in.channels);
        const auto t0 = std::chrono::steady_clock::now();
        session.upload(in, slot);
        decoded = Image<T>();
        const double upload_ms = ms_since(t0);
        run_on_device(file, session, DeviceView<const T>(slot));
        file.compute_ms += upload_ms;
    } else if (choice.backend == Backend::Gpu) {
        // No stage: the sink uploads for itself (compare's two images).
        const auto t0 = std::chrono::steady_clock::now();
        sink_.take_host(file, std::move(decoded), choice);
        file.compute_ms = ms_since(t0);
    } else {
        const auto t0 = std::chrono::steady_clock::now();
        Image<T> result = run_stages_on_host(chain_, std::move(decoded), file.shapes, file.stages);
        sink_.take_host(file, std::move(result), choice);
        file.compute_ms = ms_since(t0) - file.encode_ms;
    }
    file.used = choice;
    file.used.session.reset();
}

namespace {

StageRecord record_of(const Stage& stage, RunNotes& notes, const ImageShape& output) {
    StageRecord r;
    r.name = stage.op ? stage.op->name : std::string();
    r.text = stage.text;
    r.describe = stage.job->describe();
    r.details = stage.job->details();
    r.details.merge(notes.details);
    r.kernel = std::move(notes.kernel);
    r.output = output;
    r.info = std::move(notes.info);
    r.warnings = std::move(notes.warnings);
    return r;
}

}  // namespace

namespace {

template <typename T>
Image<T> stages_on_host(const Chain& chain, Image<T> image, const std::vector<ImageShape>& shapes,
                        std::vector<StageRecord>& records) {
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        RunNotes notes;
        Image<T> out = chain.stages()[i].job->run_cpu(image.view(), notes);
        image = Image<T>();  // the stage's input goes before the next stage's buffers come
        records.push_back(record_of(chain.stages()[i], notes, shapes[i + 1]));
        records.back().ms = ms_since(t0);
        image = std::move(out);
    }
    return image;
}

template <typename T>
DeviceView<const T> stages_on_device(const Chain& chain, gpu::Session& session, DeviceView<const T> input,
                                     const std::vector<ImageShape>& shapes, std::vector<StageRecord>& records) {
    session.clear_marks();
    std::vector<int> marks{session.mark()};
    DeviceView<const T> image = input;
    gpu::Session::Slot slot = gpu::Session::Slot::Input;  // where the image is
    const std::size_t first = records.size();
    for (std::size_t i = 0; i < chain.size(); ++i) {
        slot = slot == gpu::Session::Slot::Input ? gpu::Session::Slot::Output : gpu::Session::Slot::Input;
        const ImageShape& out = shapes[i + 1];
        const DeviceView<T> dst = session.image<T>(slot, out.width, out.height, out.channels);
        RunNotes notes;
        chain.stages()[i].job->run_gpu(session, image, dst, notes);
        marks.push_back(session.mark());
        records.push_back(record_of(chain.stages()[i], notes, out));
        image = dst;
    }
    // The stages' times are known before the sink reads the image (it waits
    // for them anyway): a report's record carries them.
    session.synchronize();
    for (std::size_t i = 0; i < chain.size(); ++i) records[first + i].ms = session.marked_ms(marks[i], marks[i + 1]);
    return image;
}

template <typename T>
Image<T> chain_on(const Chain& chain, const BackendChoice& backend, ImageView<const T> image,
                  std::vector<StageRecord>* records) {
    std::vector<StageRecord> ignored;
    std::vector<StageRecord>& out = records ? *records : ignored;
    const std::vector<ImageShape> shapes =
        chain.shapes({image.width, image.height, image.channels, sample_type_of<T>}, "image");
    if (backend.backend != Backend::Gpu) return stages_on_host(chain, Image<T>::copy_of(image), shapes, out);
    gpu::Session& session = *backend.session;
    const DeviceView<T> in = session.image<T>(gpu::Session::Slot::Input, image.width, image.height, image.channels);
    session.upload(image, in);
    const DeviceView<const T> last = stages_on_device(chain, session, DeviceView<const T>(in), shapes, out);
    Image<T> result(last.width, last.height, last.channels);
    session.download(last, result.view());
    return result;
}

}  // namespace

ImageU8 run_stages_on_host(const Chain& chain, ImageU8 image, const std::vector<ImageShape>& shapes,
                           std::vector<StageRecord>& records) {
    return stages_on_host(chain, std::move(image), shapes, records);
}

ImageU16 run_stages_on_host(const Chain& chain, ImageU16 image, const std::vector<ImageShape>& shapes,
                            std::vector<StageRecord>& records) {
    return stages_on_host(chain, std::move(image), shapes, records);
}

ConstDeviceViewU8 run_stages_on_device(const Chain& chain, gpu::Session& session, ConstDeviceViewU8 input,
                                       const std::vector<ImageShape>& shapes, std::vector<StageRecord>& records) {
    return stages_on_device(chain, session, input, shapes, records);
}

ConstDeviceViewU16 run_stages_on_device(const Chain& chain, gpu::Session& session, ConstDeviceViewU16 input,
                                        const std::vector<ImageShape>& shapes, std::vector<StageRecord>& records) {
    return stages_on_device(chain, session, input, shapes, records);
}

ImageU8 run_chain(const Chain& chain, const BackendChoice& backend, ConstViewU8 image, std::vector<StageRecord>* records) {
    return chain_on(chain, backend, image, records);
}

ImageU16 run_chain(const Chain& chain, const BackendChoice& backend, ConstViewU16 image,
                   std::vector<StageRecord>* records) {
    return chain_on(chain, backend, image, records);
}

template <typename T>
void Pipeline::run_on_device(FileRun& file, gpu::Session& session, DeviceView<const T> input) const {
    const auto t0 = std::chrono::steady_clock::now();
    const DeviceView<const T> image = stages_on_device(chain_, session, input, file.shapes, file.stages);
    sink_.take_device(file, session, image);
    file.compute_ms = ms_since(t0) - file.encode_ms;
}

void Pipeline::say(const FileRun& file) const {
    if (file.shrink > 1)
        diag_.info(settings_.command + ": " + file.name() + ": shrink-on-load: decoded at 1/" +
                   std::to_string(file.shrink) + ", " + describe_shape(file.shapes.front()) + " of " +
                   std::to_string(file.header.width) + "x" + std::to_string(file.header.height));
    for (const StageRecord& s : file.stages) {
        for (const std::string& w : s.warnings) diag_.warning(w);
        for (const std::string& line : s.info) diag_.info(line);
    }
    if (!diag_.verbose() || file.stages.size() < 2) return;
    for (std::size_t i = 0; i < file.stages.size(); ++i) {
        const StageRecord& s = file.stages[i];
        diag_.info(settings_.command + ": " + file.name() + ": stage " + std::to_string(i + 1) + "/" +
                   std::to_string(file.stages.size()) + " " + s.describe + " -> " + describe_shape(s.output) +
                   "; kernel " + s.kernel + "; " + ms_text(s.ms));
    }
}

JsonArray stages_json(const FileRun& file) {
    JsonArray list;
    for (const StageRecord& s : file.stages) {
        JsonObject o;
        o.add("name", s.name).add("parameters", s.details).add("kernel", s.kernel).add("ms", s.ms);
        o.add("width", s.output.width).add("height", s.output.height).add("channels", s.output.channels);
        list.push(o);
    }
    return list;
}

std::string kernels_text(const FileRun& file) {
    std::string text;
    for (const StageRecord& s : file.stages) text += (text.empty() ? "" : " | ") + s.kernel;
    return text;
}

}  // namespace imgpar
