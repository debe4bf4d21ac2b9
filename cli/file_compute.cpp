#include "cli/file_compute.hpp"

#include <chrono>

#include "cli/timing.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/io/jpeg_layout.hpp"

namespace imgpar::cli {

namespace {

// The GPU path: decode on the hardware into the session's Input slot and run
// the job there. False, with nothing done, when the file is not one the
// hardware decodes to libjpeg-turbo's pixels (src/gpu/jpeg_hardware.hpp).
bool try_gpu_decode(const ImageJob& job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                    WorkerContext& ctx, ComputedFile& out) {
    if (!read_jpeg_layout(bytes.data(), bytes.size()).ycbcr_huffman_8bit()) return false;
    const BackendPool::Lease lease = ctx.backend.lease();
    gpu::Session& session = *lease.choice().session;
    const auto t0 = std::chrono::steady_clock::now();
    const std::optional<DeviceViewU8> input = gpu::decode_jpeg_on_gpu(session, name, bytes.data(), bytes.size());
    if (!input) return false;
    const auto t1 = std::chrono::steady_clock::now();
    out.pixels = job.run_on_device(session, ConstDeviceViewU8(*input), out.notes);
    out.decode_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    out.compute_ms = ms_since(t1);
    out.used = lease.choice();
    out.used.session.reset();
    out.decoded_on_gpu = true;
    return true;
}

}  // namespace

ComputedFile decode_and_compute(const ImageJob* job, const std::string& name, const std::vector<std::uint8_t>& bytes,
                                const ImageHeader& header, const LoadOptions& load, WorkerContext& ctx,
                                bool gpu_decode, int orientation) {
    const bool turn = orientation >= 2 && orientation <= 8;
    ComputedFile out;
    out.header = header;
    // The hardware decoder only once the GPU is up and the decoder started:
    // until then (and for every other file) the cores decode.
    if (job && gpu_decode && !turn && header.format == ImageFormat::Jpeg && header.channels == 3 &&
        ctx.backend.resolved_to_gpu() && gpu::jpeg_hardware_ready() && try_gpu_decode(*job, name, bytes, ctx, out))
        return out;
    const auto t0 = std::chrono::steady_clock::now();
    LoadedImage input = decode_image(name, bytes, load);
    out.decode_ms = ms_since(t0);
    out.warnings = std::move(input.warnings);
    if (turn) input.image = apply_orientation(input.image.view(), orientation);
    if (!job) {
        out.pixels = std::move(input.image);
        return out;
    }
    const BackendPool::Lease lease = ctx.backend.lease();
    const auto t1 = std::chrono::steady_clock::now();
    out.pixels = job->run(lease.choice(), input.image.view(), out.notes);
    out.compute_ms = ms_since(t1);
    out.used = lease.choice();
    out.used.session.reset();
    return out;
}

}  // namespace imgpar::cli
