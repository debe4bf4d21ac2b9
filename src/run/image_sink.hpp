// The sink of every command that writes an image (the operations, chain,
// convert): the last image encoded by OUT's format and written atomically,
// with the input's metadata unless --strip. A JPEG computed on the GPU is
// encoded there (--jpeg-encoder auto or gpu), from the session's last image,
// with libjpeg-turbo's bytes; anything else is downloaded once and encoded
// on a core after the session is given back.
#pragma once

#include <mutex>
#include <string>

#include "src/io/save.hpp"
#include "src/report/format.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/sink.hpp"

namespace imgpar {

enum class JpegEncoder { Auto, Cpu, Gpu };

struct ImageSinkSettings {
    std::string command;        // names the run in messages and --json records
    SaveOptions save;           // quality, chroma, compression, --format (metadata is the sink's)
    bool strip = false;         // write no metadata
    bool icc_only = false;      // of the metadata, keep the ICC profile only (thumbnail)
    bool auto_orient = false;   // the pixels were turned upright: the EXIF says orientation 1
    JpegEncoder jpeg_encoder = JpegEncoder::Auto;
    ReportFormat report = ReportFormat::Text;  // --json: a record per file
    bool skip_existing = false;
    bool make_folders = false;  // outputs named by --out-dir / --output: their folders are made
    // The text of `imgpar chain`, for the records' "operation"; empty for an
    // operation's own command.
    std::string chain_text;
};

class ImageFileSink final : public Sink {
public:
    static constexpr const char* kJsonSchema = "imgpar.image_op/2";

    ImageFileSink(ImageSinkSettings settings, const Diagnostics& diag);

    bool computes() const override { return false; }
    bool takes_device_image() const override { return true; }
    // The result and its encoding (peak_bytes counts them by format).
    double peak_images() const override { return 2; }
    // The last image and what encoding it as the item's output holds
    // (src/io/encode_memory.hpp).
    double peak_bytes(const FileRun& file) const override;
    double encode_seconds_saved_per_pixel(const FileRun& file) const override;
    bool skips(const BatchItem& item) const override;
    // An output that is a directory, and one its format cannot hold, fail
    // the file before it is read or decoded.
    void check(std::size_t index, const BatchItem& item) const override;
    void check_output(const FileRun& file) const override;

    void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const override;
    void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const override;
    bool takes_u16() const override { return true; }
    void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const override;
    std::string complete(FileRun& file) const override;

    std::string failed(std::size_t index, const BatchItem& item, const Error& error) const override;
    std::string skipped(const BatchItem& item) const override;
    std::string verb() const override { return "written"; }

private:
    bool encodes_on_gpu(const BatchItem& item) const;
    void say(const FileRun& file, const ImageMetadata& metadata) const;
    std::string record(const FileRun& file) const;
    // Bits per sample of the file written (--depth, the format, the image).
    int written_depth(const FileRun& file) const;

    ImageSinkSettings settings_;
    const Diagnostics& diag_;
    bool gpu_encoder_;  // JPEG results computed on the GPU are encoded there
    mutable std::once_flag cpu_encode_noted_, gpu_encode_noted_;
};

}  // namespace imgpar
