// The JPEG stages a GPU batch runs per photo, alone on an idle GPU: imgpar's
// CUDA encoder (libjpeg-turbo's bytes) against libjpeg-turbo on one core,
// and the walk through a scan's Huffman codes that decides whether the
// hardware decoder may take a file (src/io/jpeg_scan.hpp), against
// libjpeg-turbo decoding the same file on one core. Host wall times: what a
// batch worker waits for (the encoder synchronizes twice and assembles the
// file on the host).
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/photo_like.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_scan.hpp"
#include "src/io/load.hpp"
#include "src/parallel.hpp"

namespace imgpar::bench {
namespace {

void jpeg_cases(Context& ctx) {
    if (!jpeg_codec_available() || !gpu::jpeg_gpu_encoder_built()) {
        std::fprintf(stderr, "jpeg: skipped (built without libjpeg-turbo)\n");
        return;
    }
    CpuThreadLimit one_core(1);
    for (const JpegPhoto& p : kJpegPhotos) {
        const ImageU8 host = make_photo_like(p.w, p.h, 3, 11);
        const cuda::DeviceImageU8 device = cuda::DeviceImageU8::from_host(host.view(), ctx.stream());
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
        const double pixel_bytes = static_cast<double>(p.w) * p.h * 3;
        for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S420}) {
            const std::string layout = chroma == ChromaSubsampling::S444 ? "4:4:4" : "4:2:0";
            std::vector<std::uint8_t> gpu_bytes, cpu_bytes;
            gpu_bytes = gpu::encode_jpeg_on_gpu(ctx.session(), ConstDeviceViewU8(device.view()), 95, chroma);  // allocates once
            Row enc;
            enc.group = "jpeg";
            enc.name = "JPEG encode q95 " + layout + ", GPU (host wall)";
            enc.image = p.label;
            enc.bytes = pixel_bytes;
            const double gpu_ms = Context::time_host_ms(
                [&] { gpu_bytes = gpu::encode_jpeg_on_gpu(ctx.session(), ConstDeviceViewU8(device.view()), 95, chroma); }, 15);
            enc.gpu.median_ms = enc.gpu.min_ms = gpu_ms;
            enc.gpu.runs = 15;
            enc.cpu_ms = Context::time_host_ms([&] { cpu_bytes = jpeg_encode(host.view(), 95, chroma); }, 3);
            enc.note = std::string("libjpeg-turbo on one core in the CPU column; ") +
                       (gpu_bytes == cpu_bytes ? "bytes equal libjpeg-turbo's" : "BYTES DIFFER from libjpeg-turbo's");
            ctx.add(enc);

            Row walk;
            walk.group = "jpeg";
            walk.name = "JPEG scan walk (hardware decoder's check) " + layout + ", one core";
            walk.image = p.label;
            walk.bytes = static_cast<double>(cpu_bytes.size());
            bool clean = false;
            const double walk_ms =
                Context::time_host_ms([&] { clean = jpeg_scan_is_clean(cpu_bytes.data(), cpu_bytes.size()); }, 9);
            walk.gpu.median_ms = walk.gpu.min_ms = walk_ms;  // host time, in the time column
            walk.gpu.runs = 9;
            walk.cpu_ms = Context::time_host_ms([&] { (void)decode_image("bench.jpg", cpu_bytes, LoadOptions{}); }, 3);
            walk.note = std::string("host time; libjpeg-turbo's whole decode on one core in the CPU column; ") +
                        (clean ? "clean" : "NOT CLEAN");
            ctx.add(walk);
        }
    }
}

}  // namespace

IMGPAR_BENCH(6, "jpeg", jpeg_cases);

}  // namespace imgpar::bench
