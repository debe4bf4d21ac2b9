// One file's pipeline, the same for every command, one file or a batch, CPU
// or GPU:
//
//   Source (read once, header parsed once, decoded on the cores or the GPU)
//     -> Stages (0..n declared operations, src/run/chain.hpp)
//     -> Sink (image written, report rendered, array written, pair compared;
//              src/run/sink.hpp)
//
// The shapes of every image come from the header before anything is
// decoded, so the file's memory is checked against --max-memory and reserved
// from the run's budget first. On the GPU a file is uploaded once (or decoded
// there), its stages alternate between the session's Input and Output slots,
// and the sink takes the last image where it lies: one download, or none
// when the GPU encodes the JPEG or computes the report.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/report/json.hpp"
#include "src/run/batch.hpp"
#include "src/run/chain.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/sink.hpp"
#include "src/run/source.hpp"

namespace imgpar {

struct PipelineSettings {
    std::string command;  // names the run in messages: "blur", "chain"
    LoadOptions load;     // the limits; the memory a file needs comes from its shapes
    // How JPEG inputs decode when their files compute on the GPU; none: on
    // the host. Shared by the run's workers, which count what each took.
    std::shared_ptr<GpuJpegDecoders> jpeg_decoders;
    bool auto_orient = false;  // turn the pixels upright as the EXIF orientation says
};

class Pipeline {
public:
    // A file deeper than 8 bits loads at 16 bits where every stage and the
    // sink take u16 (takes_u16), else reduced to 8 bits with a warning.
    Pipeline(const Chain& chain, const Sink& sink, PipelineSettings settings, const Diagnostics& diag);

    const Chain& chain() const { return chain_; }
    const Sink& sink() const { return sink_; }
    const PipelineSettings& settings() const { return settings_; }
    // Whether a file needs a backend (a stage, or a sink that computes).
    bool computes() const { return !chain_.empty() || sink_.computes(); }
    // Whether every stage and the sink take 16-bit images.
    bool takes_u16() const;

    // The orientation --auto-orient applies to a file (0 when none).
    int orientation(const ImageHeader& header) const;
    // The shapes of a file's images (src/run/chain.hpp), the input turned
    // upright. Throws imgpar::Error (input) when a stage cannot take its input.
    std::vector<ImageShape> shapes(const ImageHeader& header, const std::string& name) const;
    // Bytes the file needs at its peak: its bytes, the decoder's own memory
    // and the pipeline's buffers (the stages', the sink's), from its header,
    // shapes and output.
    std::uint64_t memory_needed(const FileRun& file) const;

    // Runs one file: `preread` is its source when the run has read it
    // already (the first file, for --device auto and the GPU's set-up).
    ItemResult run(std::size_t index, const BatchItem& item, WorkerContext& ctx,
                   std::optional<SourceFile> preread) const;

private:
    void compute(FileRun& file, SourceFile& source, WorkerContext& ctx) const;
    template <typename T>
    void compute_decoded(FileRun& file, Image<T> decoded, WorkerContext& ctx) const;
    template <typename T>
    void run_on_device(FileRun& file, gpu::Session& session, DeviceView<const T> input) const;
    void say(const FileRun& file) const;

    const Chain& chain_;
    const Sink& sink_;
    PipelineSettings settings_;
    const Diagnostics& diag_;
};

// The stages on the host, each stage's record appended to `records`
// (`shapes` from Chain::shapes).
ImageU8 run_stages_on_host(const Chain& chain, ImageU8 image, const std::vector<ImageShape>& shapes,
                           std::vector<StageRecord>& records);
ImageU16 run_stages_on_host(const Chain& chain, ImageU16 image, const std::vector<ImageShape>& shapes,
                            std::vector<StageRecord>& records);
// The stages on the GPU from `input` (in the session's Input slot),
// alternating between the Input and Output slots; returns the last image,
// ready (the stages' times are read from the session's marks).
ConstDeviceViewU8 run_stages_on_device(const Chain& chain, gpu::Session& session, ConstDeviceViewU8 input,
                                       const std::vector<ImageShape>& shapes, std::vector<StageRecord>& records);
ConstDeviceViewU16 run_stages_on_device(const Chain& chain, gpu::Session& session, ConstDeviceViewU16 input,
                                        const std::vector<ImageShape>& shapes, std::vector<StageRecord>& records);
// A host image through the chain on `backend`: on the GPU uploaded once and
// downloaded once. What the tests compare across backends.
ImageU8 run_chain(const Chain& chain, const BackendChoice& backend, ConstViewU8 image,
                  std::vector<StageRecord>* records = nullptr);
ImageU16 run_chain(const Chain& chain, const BackendChoice& backend, ConstViewU16 image,
                   std::vector<StageRecord>* records = nullptr);

// What a file's record says of its stages: --json's "stages" (each with its
// operation, parameters, kernel, time and output shape), the kernels joined
// by " | ", and the stages' time.
JsonArray stages_json(const FileRun& file);
std::string kernels_text(const FileRun& file);

}  // namespace imgpar
