#include "cli/file_compute.hpp"

#include <chrono>

#include "cli/timing.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/gpu/jpeg_idct.hpp"
#include "src/io/jpeg_coefficients.hpp"

namespace imgpar::cli {

namespace {

// The job on the session from `input` (in its Input slot): downloaded, or
// encoded there when asked.
void finish_on_device(const ImageJob& job, gpu::Session& session, ConstDeviceViewU8 input,
                      const GpuJpegEncode* gpu_encode, ComputedFile& out) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!gpu_encode) {
        out.pixels = job.run_on_device(session, input, out.notes);
        out.compute_ms = ms_since(t0);
        return;
    }
    const DeviceViewU8 result = job.run_into_output(session, input, out.notes);
    session.synchronize();  // the compute time apart from the encode's
    out.compute_ms = ms_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    out.jpeg = gpu::encode_jpeg_on_gpu(session, ConstDeviceViewU8(result), gpu_encode->quality, gpu_encode->chroma);
    out.encode_ms = ms_since(t1);
}

// The GPU path: decode on the hardware into the session's Input slot and run
// the job there. False, with nothing done, when the file is not one the
// hardware decodes to libjpeg-turbo's pixels (src/gpu/jpeg_hardware.hpp).
bool try_gpu_decode(const ImageJob& job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                    WorkerContext& ctx, const GpuJpegEncode* gpu_encode, ComputedFile& out) {
    const auto t0 = std::chrono::steady_clock::now();
    // The walk through the scan takes a core a while: done before a session
    // is held, so other workers' files go on meanwhile.
    const std::optional<gpu::HardwareJpeg> file = gpu::jpeg_for_hardware(bytes.data(), bytes.size());
    if (!file) return false;
    const BackendPool::Lease lease = ctx.backend.lease();
    gpu::Session& session = *lease.choice().session;
    const std::optional<DeviceViewU8> input = gpu::decode_jpeg_on_gpu(session, name, *file, bytes.data(), bytes.size());
    if (!input) return false;
    out.decode_ms = ms_since(t0);
    finish_on_device(job, session, ConstDeviceViewU8(*input), gpu_encode, out);
    out.used = lease.choice();
    out.used.session.reset();
    out.decoded_on_gpu = true;
    return true;
}

// The split path: the coefficients read on this core (before a session is
// held, so other workers' files go on meanwhile), the rest of the decode and
// the job on the GPU. False, with nothing done, when the file does not suit
// it (src/io/jpeg_coefficients.hpp) or has an unsafe block; a file that
// cannot be decoded at all throws as libjpeg-turbo's decode would.
bool try_split_decode(const ImageJob& job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                      const ImageHeader& header, const LoadOptions& load, WorkerContext& ctx,
                      const GpuJpegEncode* gpu_encode, ComputedFile& out) {
    if (!jpeg_coefficients_suit(bytes.data(), bytes.size())) return false;
    const auto t0 = std::chrono::steady_clock::now();
    JpegDecodeOptions options;
    options.allow_partial = load.allow_partial;
    options.max_memory = load.max_memory;
    std::vector<std::string> warnings = header.notes;
    const JpegCoefficients coefficients = jpeg_read_coefficients(name, bytes, header.width, header.height, warnings, options);
    const BackendPool::Lease lease = ctx.backend.lease();
    if (lease.choice().backend != Backend::Gpu) return false;
    gpu::Session& session = *lease.choice().session;
    const std::optional<DeviceViewU8> input = gpu::decode_jpeg_coefficients(session, coefficients);
    if (!input) return false;
    out.decode_ms = ms_since(t0);
    out.warnings = std::move(warnings);
    finish_on_device(job, session, ConstDeviceViewU8(*input), gpu_encode, out);
    out.used = lease.choice();
    out.used.session.reset();
    out.decoded_on_gpu = true;
    return true;
}

}  // namespace

ComputedFile decode_and_compute(const ImageJob* job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                                const ImageHeader& header, const LoadOptions& load, WorkerContext& ctx,
                                GpuJpegDecode gpu_decode, int orientation, const GpuJpegEncode* gpu_encode) {
    const bool turn = orientation >= 2 && orientation <= 8;
    ComputedFile out;
    out.header = header;
    // The GPU's decoders once the run is known to compute there: the hardware
    // once it has started (colour files), else the split decode.
    if (job && gpu_decode != GpuJpegDecode::None && !turn && header.format == ImageFormat::Jpeg &&
        ctx.backend.resolved_to_gpu()) {
        if (gpu_decode == GpuJpegDecode::Hardware && header.channels == 3 && gpu::jpeg_hardware_ready() &&
            try_gpu_decode(*job, name, bytes, ctx, gpu_encode, out))
            return out;
        if (try_split_decode(*job, name, bytes, header, load, ctx, gpu_encode, out)) return out;
    }
    const auto t0 = std::chrono::steady_clock::now();
    LoadedImage input = decode_image(name, bytes, header, load);
    out.decode_ms = ms_since(t0);
    out.warnings = std::move(input.warnings);
    if (turn) input.image = apply_orientation(input.image.view(), orientation);
    if (!job) {
        out.pixels = std::move(input.image);
        return out;
    }
    const BackendPool::Lease lease = ctx.backend.lease();
    const BackendChoice& choice = lease.choice();
    if (gpu_encode && choice.backend == Backend::Gpu) {
        gpu::Session& session = *choice.session;
        const ConstViewU8 in = input.image.view();
        const DeviceViewU8 slot = session.image<std::uint8_t>(gpu::Session::Slot::Input, in.width, in.height, in.channels);
        session.upload(in, slot);
        finish_on_device(*job, session, ConstDeviceViewU8(slot), gpu_encode, out);
    } else {
        const auto t1 = std::chrono::steady_clock::now();
        out.pixels = job->run(choice, input.image.view(), out.notes);
        out.compute_ms = ms_since(t1);
    }
    out.used = choice;
    out.used.session.reset();
    return out;
}

}  // namespace imgpar::cli
