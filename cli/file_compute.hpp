// One file's decode and compute, as a worker of an image command does them:
// JPEGs the GPU's hardware decoder takes go straight into the leased
// session's device memory and the job runs there; everything else is decoded
// on the CPU and computed on the run's backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/batch_runner.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/op/operation.hpp"

namespace imgpar::cli {

// Encoding JPEG results on the GPU (src/gpu/jpeg_encoder.hpp): what to write.
struct GpuJpegEncode {
    int quality;
    ChromaSubsampling chroma;
};

// How a batch's JPEG inputs may be decoded when their files compute on the
// GPU (--jpeg-decoder): on the cores only; split (the entropy decoding on a
// core, the rest on the GPU: src/gpu/jpeg_idct.hpp); or on the hardware
// decoder (src/gpu/jpeg_hardware.hpp) once it is up, split until then and
// for the files it does not take. The pixels are libjpeg-turbo's each way.
enum class GpuJpegDecode { None, Split, Hardware };

struct ComputedFile {
    ImageHeader header;       // the input's
    ImageU8 pixels;           // the result (or, with no job, the decoded input); empty when `jpeg` is set
    std::vector<std::uint8_t> jpeg;  // the result encoded on the GPU (no metadata yet), when it was
    RunNotes notes;
    BackendChoice used;       // where the job ran (session released)
    bool decoded_on_gpu = false;
    double decode_ms = 0;     // decode only (the read is the caller's)
    double compute_ms = 0;
    double encode_ms = 0;     // the GPU encode, when there was one
    std::vector<std::string> warnings;  // the decoder's
};

// `job` null: decode only. `gpu_decode`: how a JPEG may decode for the GPU.
// `orientation` 2..8: the decoded pixels are turned upright first (see
// apply_orientation) and the job runs on those. `gpu_encode`: a result
// computed on the GPU is encoded there to `jpeg`.
ComputedFile decode_and_compute(const ImageJob* job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                                const ImageHeader& header, const LoadOptions& load, WorkerContext& ctx, GpuJpegDecode gpu_decode,
                                int orientation, const GpuJpegEncode* gpu_encode);

}  // namespace imgpar::cli
