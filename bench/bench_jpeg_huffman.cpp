// JPEG Huffman decoding on the GPU (src/gpu/jpeg_huffman.hpp) against
// libjpeg-turbo's entropy decoder on one core (jpeg_read_coefficients, the
// split decode's CPU half), on camera-sized and 8K photos: host wall times,
// what a batch worker would wait for. The plan (destuffing the scan, on a
// core) is its own row: it is the part that stays on the host.
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/photo_like.hpp"
#include "cuda/buffers.hpp"
#include "src/gpu/jpeg_huffman.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_plan.hpp"
#include "src/parallel.hpp"

namespace imgpar::bench {
namespace {

void jpeg_huffman_cases(Context& ctx) {
    if (!jpeg_codec_available()) {
        std::fprintf(stderr, "jpeg-huffman: skipped (built without libjpeg-turbo)\n");
        return;
    }
    CpuThreadLimit one_core(1);
    for (const JpegPhoto& p : kJpegPhotos) {
        const ImageU8 host = make_photo_like(p.w, p.h, 3, 12);
        for (ChromaSubsampling chroma : {ChromaSubsampling::S444, ChromaSubsampling::S420}) {
            const std::string layout = chroma == ChromaSubsampling::S444 ? "4:4:4" : "4:2:0";
            const std::vector<std::uint8_t> bytes = jpeg_encode(host.view(), 90, chroma);
            const JpegHuffmanPlan plan = plan_jpeg_huffman(bytes.data(), bytes.size());
            if (!plan.taken) {
                std::fprintf(stderr, "jpeg-huffman: %s %s not taken: %s\n", p.label, layout.c_str(), plan.reason.c_str());
                continue;
            }
            std::vector<std::string> warnings;
            const auto read = [&] {
                const JpegCoefficients k = jpeg_read_coefficients("bench.jpg", bytes, p.w, p.h, warnings);
                std::vector<std::int16_t> out(k.blocks * 64);
                k.copy_blocks(0, k.blocks, out.data());
                return out;
            };
            const std::vector<std::int16_t> expected = read();
            JpegHuffmanResult gpu = gpu::decode_jpeg_huffman_gpu(ctx.session(), plan);  // allocates once

            Row decode;
            decode.group = "jpeg-huffman";
            decode.name = "JPEG Huffman decode q90 " + layout + ", GPU kernels (host wall, plan made)";
            decode.image = p.label;
            decode.bytes = static_cast<double>(bytes.size()) + static_cast<double>(expected.size()) * 2;
            cuda::DeviceBuffer<std::int16_t> coefficients(plan.blocks * 64);
            int passes = 0;
            const double gpu_ms = Context::time_host_ms(
                [&] { (void)gpu::decode_jpeg_huffman(ctx.session(), plan, coefficients.get(), &passes); }, 15);
            decode.gpu.median_ms = decode.gpu.min_ms = gpu_ms;
            decode.gpu.runs = 15;
            decode.cpu_ms = Context::time_host_ms([&] { (void)read(); }, 3);
            decode.note = "libjpeg-turbo's jpeg_read_coefficients on one core in the CPU column; " +
                          std::to_string(plan.subsequences()) + " subsequences, " + std::to_string(passes) +
                          " walk passes; " + (gpu.taken && gpu.blocks == expected ? "coefficients equal" : "COEFFICIENTS DIFFER");
            ctx.add(decode);

            Row planning;
            planning.group = "jpeg-huffman";
            planning.name = "JPEG Huffman plan (destuffing, tables) " + layout + ", one core";
            planning.image = p.label;
            planning.bytes = static_cast<double>(bytes.size()) * 2;
            const double plan_ms = Context::time_host_ms([&] { (void)plan_jpeg_huffman(bytes.data(), bytes.size()); }, 9);
            planning.gpu.median_ms = planning.gpu.min_ms = plan_ms;  // host time, in the time column
            planning.gpu.runs = 9;
            planning.cpu_ms = decode.cpu_ms;
            planning.note = "host time; libjpeg-turbo's Huffman decode on one core in the CPU column";
            ctx.add(planning);
        }
    }
}

}  // namespace

IMGPAR_BENCH(10, "jpeg-huffman", jpeg_huffman_cases);

}  // namespace imgpar::bench
