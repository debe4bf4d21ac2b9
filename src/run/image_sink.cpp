#include "src/run/image_sink.hpp"

#include <chrono>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "src/gpu/jpeg_encoder.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/encode_memory.hpp"
#include "src/io/metadata.hpp"
#include "src/io/save.hpp"
#include "src/io/tiff_codec.hpp"
#include "src/run/device_choice.hpp"
#include "src/run/output_names.hpp"
#include "src/run/output_record.hpp"
#include "src/run/pipeline.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

namespace {

// -v's word for where a file decoded: "cpu", "gpu", or for a JPEG on the
// GPU which of its decoders ("gpu, Huffman decoding on the GPU").
std::string decoded_on(const FileRun& file) {
    if (!file.decoded_on_gpu) return "cpu";
    if (!file.jpeg_decoder) return "gpu";
    switch (*file.jpeg_decoder) {
        case GpuJpegDecoders::Decoder::GpuHuffman: return "gpu, Huffman decoding on the GPU";
        case GpuJpegDecoders::Decoder::Split: return "gpu, Huffman decoding on a core";
        default: return std::string("gpu, ") + decoder_name(*file.jpeg_decoder) + " decoder";
    }
}

}  // namespace

ImageFileSink::ImageFileSink(ImageSinkSettings settings, const Diagnostics& diag)
    : settings_(std::move(settings)),
      diag_(diag),
      gpu_encoder_(settings_.jpeg_encoder != JpegEncoder::Cpu && gpu::jpeg_gpu_encoder_built()) {}

bool ImageFileSink::encodes_on_gpu(const BatchItem& item) const {
    return gpu_encoder_ && output_format(item.output, settings_.save.format) == ImageFormat::Jpeg;
}

double ImageFileSink::encode_seconds_saved_per_pixel(const FileRun& file) const {
    if (!encodes_on_gpu(*file.item)) return 0;
    return cpu_jpeg_encode_seconds_per_pixel(file.output_shape().channels,
                                             resolved_chroma(settings_.save.chroma, settings_.save.quality));
}

double ImageFileSink::peak_bytes(const FileRun& file) const {
    const ImageShape& last = file.output_shape();
    const ImageFormat format = output_format(file.item->output, settings_.save.format);
    const ImageMetadata& m = file.header.metadata;
    const std::uint64_t metadata = settings_.strip ? 0 : m.bytes();
    // A TIFF streamed to its file holds its strips, not the file.
    if (saves_streamed(file.item->output, format, last.type, settings_.save.depth))
        return static_cast<double>(last.bytes() + tiff_stream_memory(last.width, last.height, last.channels,
                                                                     static_cast<int>(sample_bytes(last.type))));
    return static_cast<double>(last.bytes() + encode_memory(format, last, settings_.save, metadata));
}

bool ImageFileSink::skips(const BatchItem& item) const { return settings_.skip_existing && output_exists(item); }

void ImageFileSink::check(std::size_t index, const BatchItem& item) const {
    (void)index;
    std::error_code ec;
    if (item.output != "-" && std::filesystem::is_directory(item.output, ec))
        throw output_error(item.output, "is a directory");
}

void ImageFileSink::check_output(const FileRun& file) const {
    const ImageShape& last = file.output_shape();
    const ImageFormat format = output_format(file.item->output, settings_.save.format);
    check_output_size(file.item->output, format, last.width, last.height);
    check_output_depth(file.item->output, format, settings_.save.depth);
}

void ImageFileSink::take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const {
    (void)backend;
    file.image = std::move(image);
}

void ImageFileSink::take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const {
    (void)backend;
    file.image16 = std::move(image);
}

void ImageFileSink::take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const {
    if (!encodes_on_gpu(*file.item)) {
        Sink::take_device(file, session, image);
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    file.bytes = gpu::encode_jpeg_on_gpu(session, image, settings_.save.quality, settings_.save.chroma);
    file.encode_ms = ms_since(t0);
    file.encoded_on_gpu = true;
}

std::string ImageFileSink::complete(FileRun& file) const {
    const BatchItem& item = *file.item;
    // The input's metadata goes to the output unless --strip (thumbnail:
    // the ICC profile only); --auto-orient turned the pixels upright and
    // says so in the EXIF.
    ImageMetadata metadata = settings_.strip ? ImageMetadata{} : file.header.metadata;
    if (settings_.icc_only) {
        ImageMetadata icc;
        icc.icc = std::move(metadata.icc);
        metadata = std::move(icc);
    }
    if (file.orientation >= 2) set_exif_orientation(metadata.exif, 1);
    if (settings_.jpeg_encoder == JpegEncoder::Gpu && !file.encoded_on_gpu && !file.stages.empty())
        std::call_once(cpu_encode_noted_, [&] {
            diag_.notice("--jpeg-encoder gpu: this run is on the CPU, so its JPEGs are encoded there");
        });
    if (settings_.make_folders) make_output_folder(item.output);
    std::vector<std::string> warnings;
    const auto t0 = std::chrono::steady_clock::now();
    if (file.encoded_on_gpu) {
        std::call_once(gpu_encode_noted_,
                       [&] { diag_.info("JPEG: encoding on the GPU with " + gpu::jpeg_gpu_encoder_name()); });
        // As save_image writes them: the metadata, and a dropped alpha said.
        if (has_alpha(file.output_shape().channels)) warnings.push_back(kJpegAlphaDropped);
        note_metadata_left_out(metadata, ImageFormat::Jpeg, warnings);
        const std::vector<std::uint8_t> bytes = insert_jpeg_metadata(file.bytes, metadata);
        write_file_atomically(item.output, bytes.data(), bytes.size());
    } else {
        SaveOptions save = settings_.save;
        save.metadata = metadata.empty() ? nullptr : &metadata;
        if (!file.image16.empty())
            save_image(item.output, file.image16.view(), save, warnings);
        else
            save_image(item.output, file.image.view(), save, warnings);
    }
    file.encode_ms += ms_since(t0);
    file.done_s = seconds_since_start();
    for (const std::string& w : warnings) diag_.warning(output_name(item.output) + ": " + w);
    say(file, metadata);
    return settings_.report == ReportFormat::Json ? record(file) : std::string();
}

void ImageFileSink::say(const FileRun& file, const ImageMetadata& metadata) const {
    if (!diag_.verbose()) return;
    const BatchItem& item = *file.item;
    const std::string in = std::to_string(file.header.width) + "x" + std::to_string(file.header.height) + " " +
                           channel_layout_name(file.header.channels);
    if (file.stages.empty()) {
        const ImageFormat f = output_format(item.output, settings_.save.format);
        diag_.info(settings_.command + ": " + item.name + " (" + format_name(file.header.format) + " " + in + ") -> " +
                   output_name(item.output) + " (" + format_name(f) +
                   output_settings_text(f, settings_.save) + ")");
        return;
    }
    std::string what;
    for (const StageRecord& s : file.stages) what += (what.empty() ? "" : " | ") + s.describe;
    diag_.info(settings_.command + ": " + item.name + " (" + in + ") -> " + output_name(item.output) +
               (file.stages.size() > 1 || file.shapes.front() != file.output_shape()
                    ? " (" + describe_shape(file.output_shape()) + ")"
                    : std::string()) +
               ": " + what + "; backend " + file.used.describe() + "; kernel " + kernels_text(file) +
               "; stages: read+decode (" + decoded_on(file) + ") " +
               ms_text(file.read_ms + file.decode_ms) + ", compute " + ms_text(file.compute_ms) + ", encode+write (" +
               (file.encoded_on_gpu ? "gpu" : "cpu") + ") " + ms_text(file.encode_ms) + "; metadata written: " +
               (settings_.strip ? std::string("none (--strip)") : describe_metadata(metadata)) +
               (file.shrink > 1 ? "; shrink-on-load 1/" + std::to_string(file.shrink) : std::string()));
}

int ImageFileSink::written_depth(const FileRun& file) const {
    const ImageFormat format = output_format(file.item->output, settings_.save.format);
    if (!format_holds_16_bits(format) || settings_.save.depth == 8) return 8;
    return settings_.save.depth == 16 || file.output_shape().type == SampleType::U16 ? 16 : 8;
}

std::string ImageFileSink::record(const FileRun& file) const {
    const ImageShape& out = file.output_shape();
    JsonObject o = output_record(settings_.command, *file.item, kJsonSchema);
    o.add("ok", true)
        .add("width", file.header.width)
        .add("height", file.header.height)
        .add("channels", file.header.channels)
        .add("output_width", out.width)
        .add("output_height", out.height)
        .add("output_channels", out.channels)
        .add("output_depth", written_depth(file));
    if (!file.stages.empty()) {
        JsonObject operation;
        if (settings_.chain_text.empty() && file.stages.size() == 1) {
            operation = file.stages[0].details;
        } else {
            operation.add("name", "chain").add("chain", settings_.chain_text).add("stages", static_cast<int>(file.stages.size()));
        }
        add_run_members(o, operation, kernels_text(file), file.used);
        o.add("elapsed_ms", file.compute_ms).add("stages", stages_json(file));
    }
    o.add("decoded_on", file.decoded_on_gpu ? "gpu" : "cpu");
    if (file.jpeg_decoder) o.add("jpeg_decoder", decoder_name(*file.jpeg_decoder));
    o
        .add("decode_ms", file.read_ms + file.decode_ms)
        .add("encoded_on", file.encoded_on_gpu ? "gpu" : "cpu")
        .add("encode_ms", file.encode_ms)
        .add("wait_ms", file.wait_ms)
        .add("start_s", file.start_s)
        .add("done_s", file.done_s);
    return o.str() + "\n";
}

std::string ImageFileSink::failed(std::size_t index, const BatchItem& item, const Error& error) const {
    (void)index;
    return output_failure(settings_.command, item, error, settings_.report == ReportFormat::Json, kJsonSchema);
}

std::string ImageFileSink::skipped(const BatchItem& item) const {
    return output_skipped(settings_.command, item, settings_.report == ReportFormat::Json, kJsonSchema);
}

}  // namespace imgpar
