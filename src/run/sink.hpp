// Where a file's pipeline ends (src/run/pipeline.hpp): the image encoded
// and written, a report rendered, an array written, a pair compared, or the
// header described. A sink is shared by the run's workers and keeps nothing
// of one file: what it makes of a file lives in that file's FileRun.
//
// A file reaches its sink in these steps:
//   check      before its file is read (compare: a pair missing a side)
//   prepare    before the compute, without a GPU session held (compare reads
//              its second image here)
//   take_*     the last image, under the backend's lease: on the host
//              (take_host) or, when the stages ran on the GPU, where it lies
//              in the session (take_device: a report reads it there, the
//              GPU encoder encodes it there; otherwise it is downloaded)
//   complete   after the lease is given back: writes the file, returns the
//              file's lines for standard output
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/image.hpp"
#include "src/io/load.hpp"
#include "src/op/operation.hpp"
#include "src/report/json.hpp"
#include "src/run/batch.hpp"
#include "src/run/gpu_jpeg_decoders.hpp"

namespace imgpar {

// What one stage did to one file: for --json's "stages" and -v.
struct StageRecord {
    std::string name;    // the operation: "blur"
    std::string text;    // as written: "blur --sigma 2"
    std::string describe;
    JsonObject details;  // the job's parameters, with what the run added
    std::string kernel;
    double ms = 0;       // its compute (GPU time between marks on the GPU)
    ImageShape output;
    std::vector<std::string> info;      // lines for -v (threshold's level)
    std::vector<std::string> warnings;
};

// One file on its way through the pipeline: what the source read, the
// shapes, the stages' records, the times, and what the sink made of it.
struct FileRun {
    std::size_t index = 0;
    const BatchItem* item = nullptr;
    ImageHeader header;              // the input's, as read once
    std::vector<ImageShape> shapes;  // the input (turned upright) and each stage's output
    int orientation = 0;             // 2..8: the pixels are turned upright after decoding (--auto-orient)
    int shrink = 1;                  // 2, 4, 8: a JPEG decoded at that fraction of its size (shrink-on-load)
    std::vector<StageRecord> stages;
    BackendChoice used;              // where it computed (its session released)
    bool decoded_on_gpu = false;
    std::optional<GpuJpegDecoders::Decoder> jpeg_decoder;  // for a JPEG decoded on the GPU: which of its decoders
    bool encoded_on_gpu = false;
    double read_ms = 0, decode_ms = 0, compute_ms = 0, encode_ms = 0;
    // For a batch's timeline (--json): seconds since the process started
    // when the worker took the file and when its output was written, and
    // the time it waited for the memory budget and for GPU sessions.
    double start_s = 0, done_s = 0, wait_ms = 0;
    std::vector<std::string> warnings;  // the decoder's, printed with the input's name

    // What the sink made in take_*, for complete().
    ImageU8 image;                    // pixels on the host
    ImageU16 image16;                 // 16-bit pixels on the host (a run that took u16)
    std::vector<std::uint8_t> bytes;  // a whole file's bytes (a JPEG encoded on the GPU, a .npy)
    std::string text;                 // rendered lines
    RunNotes notes;                   // the sink's own computation (a report's kernel)
    std::shared_ptr<void> extra;      // anything else a sink keeps for the file (compare's second image)

    const std::string& name() const { return item->name; }
    const ImageShape& output_shape() const { return shapes.back(); }
};

class Sink {
public:
    virtual ~Sink() = default;

    // Whether the sink computes (a report, an array, a comparison): then it
    // needs the run's backend even after no stage.
    virtual bool computes() const = 0;
    // Whether it needs the pixels at all (info reads headers only).
    virtual bool reads_pixels() const { return true; }
    // Whether take_device can take the image where it lies on the GPU
    // (else a GPU decode is not used after no stage).
    virtual bool takes_device_image() const { return false; }
    // Image-sized buffers the sink holds at its peak, the last image
    // included, in units of its bytes (a report's tables): what peak_bytes
    // counts unless the sink counts its buffers itself.
    virtual double peak_images() const = 0;
    // Bytes the sink holds at its peak for `file` (its shapes and output
    // known, nothing decoded yet), the last image included: the encoder's
    // buffers and the file it makes, a report's tables, an array, compare's
    // second image. The memory estimate checked against --max-memory.
    virtual double peak_bytes(const FileRun& file) const {
        return peak_images() * static_cast<double>(file.output_shape().bytes());
    }
    // Before the file's memory is checked and reserved: reads what else the
    // sink needs for the item (compare: the second image's file and header)
    // and returns the bytes that holds besides peak_bytes (that file and its
    // decoder's buffers), counted in the same check and reservation.
    virtual std::uint64_t read_extra(FileRun& file) const {
        (void)file;
        return 0;
    }
    // Whom a refusal by --max-memory names: the input, or the pair.
    virtual std::string memory_subject(const FileRun& file) const { return file.name(); }
    // What --device auto times of the sink on the CPU: its computation on a
    // made-up image `sample` for a file whose last image is `real`.
    virtual void probe_cpu(ConstViewU8 sample, const ImageShape& real) const {
        (void)sample;
        (void)real;
    }
    // Estimated CPU seconds per pixel of encoding the output that the GPU
    // takes over (a JPEG the GPU encoder writes); 0 when none.
    virtual double encode_seconds_saved_per_pixel(const FileRun& file) const {
        (void)file;
        return 0;
    }

    // --skip-existing: whether this item is left alone (its output exists).
    virtual bool skips(const BatchItem& item) const {
        (void)item;
        return false;
    }

    virtual void check(std::size_t index, const BatchItem& item) const {
        (void)index;
        (void)item;
    }
    // Once the file's shapes are known, before anything is decoded: throws
    // imgpar::Error (output) when its output cannot hold the last image (a
    // JPEG wider than 65,500 pixels), so the file fails before its compute.
    virtual void check_output(const FileRun& file) const { (void)file; }
    virtual void prepare(FileRun& file, WorkerContext& ctx) const {
        (void)file;
        (void)ctx;
    }
    // `backend` may be the GPU after no stage: the sink then uploads itself.
    virtual void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const = 0;
    // On the GPU, the image in the session's Input or Output slot. By
    // default it is downloaded and taken as a host image.
    virtual void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const;
    // 16-bit images: a sink that takes them says so (then a 16-bit file
    // whose stages all take u16 stays 16-bit) and overrides take_host's u16
    // form; the default take_device downloads and takes a host image, the
    // default take_host throws std::logic_error.
    virtual bool takes_u16() const { return false; }
    virtual void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const;
    virtual void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const;
    virtual std::string complete(FileRun& file) const = 0;

    // Standard output's lines for an item that failed or was skipped.
    virtual std::string failed(std::size_t index, const BatchItem& item, const Error& error) const = 0;
    virtual std::string skipped(const BatchItem& item) const {
        (void)item;
        return std::string();
    }

    // The run's end: what a file that succeeded was ("written"); how many
    // files failed a check (compare --fail-above) besides those that failed.
    virtual std::string verb() const = 0;
    virtual std::size_t checks_failed() const { return 0; }
    virtual std::string checks_text() const { return std::string(); }
};

}  // namespace imgpar
