// JPEG Huffman decoding on the GPU (src/gpu/jpeg_huffman.hpp) against
// libjpeg-turbo's entropy decoder on one core (jpeg_read_coefficients, the
// split decode's CPU half), on camera-sized and 8K photos: host wall times,
// what a batch worker would wait for. The plan (destuffing the scan, on a
// core) is its own row: it is the part that stays on the host. With
// IMGPAR_BENCH_JPEG_DIR set, a folder of real photos too: files/s of the
// GPU's Huffman decoding (planned on the cores, decoded by several sessions
// at once, as a batch's workers do) against libjpeg-turbo's on every core.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench.hpp"
#include "bench/photo_like.hpp"
#include "cuda/buffers.hpp"
#include "src/gpu/jpeg_huffman.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_plan.hpp"
#include "src/io/file_bytes.hpp"
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

// Seconds of `work(file)` over every file, `threads` at a time.
template <typename Work>
double files_seconds(std::size_t files, int threads, Work work) {
    std::atomic<std::size_t> next{0};
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = next++; i < files; i = next++) work(t, i);
        });
    for (std::thread& th : pool) th.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void jpeg_folder_case(Context& ctx) {
    const char* dir = std::getenv("IMGPAR_BENCH_JPEG_DIR");
    if (!dir || !jpeg_codec_available()) return;
    std::vector<std::vector<std::uint8_t>> files;
    std::vector<JpegHeaderInfo> headers;
    double bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".jpg") continue;
        std::vector<std::uint8_t> b = read_file_bytes(e.path().string(), ReadBound{});
        if (!plan_jpeg_huffman(b.data(), b.size()).taken) continue;  // progressive and the like: cores only
        headers.push_back(jpeg_read_header_info(e.path().string(), b));
        bytes += static_cast<double>(b.size());
        files.push_back(std::move(b));
    }
    if (files.empty()) return;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // libjpeg-turbo's entropy decoder on every core, a file a thread at a time.
    const double cpu_s = files_seconds(files.size(), cores, [&](int, std::size_t i) {
        CpuThreadLimit one(1);
        std::vector<std::string> warnings;
        const JpegCoefficients k = jpeg_read_coefficients("bench.jpg", files[i], headers[i].width, headers[i].height, warnings);
        std::vector<std::int16_t> out(k.blocks * 64);
        k.copy_blocks(0, k.blocks, out.data());
    });
    // The GPU: a session a thread, each planning its files and decoding them.
    const int sessions = 8;
    std::vector<std::unique_ptr<gpu::Session>> pool;
    std::vector<std::unique_ptr<cuda::DeviceBuffer<std::int16_t>>> out;
    for (int t = 0; t < sessions; ++t) {
        pool.push_back(std::make_unique<gpu::Session>(ctx.session().device()));
        out.push_back(std::make_unique<cuda::DeviceBuffer<std::int16_t>>());
    }
    std::atomic<int> damaged{0};
    const auto gpu_run = [&] {
        return files_seconds(files.size(), sessions, [&](int t, std::size_t i) {
            const JpegHuffmanPlan plan = plan_jpeg_huffman(files[i].data(), files[i].size());
            out[static_cast<std::size_t>(t)]->reserve(plan.blocks * 64);
            if (gpu::decode_jpeg_huffman(*pool[static_cast<std::size_t>(t)], plan, out[static_cast<std::size_t>(t)]->get()))
                ++damaged;
        });
    };
    (void)gpu_run();  // buffers sized
    const double gpu_s = gpu_run();
    Row r;
    r.group = "jpeg-huffman";
    r.name = "JPEG Huffman decode of a folder: " + std::to_string(files.size()) + " baseline files, " +
             std::to_string(sessions) + " sessions (planned on their threads)";
    r.image = std::filesystem::path(dir).filename().string();
    r.bytes = bytes;
    r.gpu.median_ms = r.gpu.min_ms = gpu_s * 1000;
    r.gpu.runs = 1;
    r.cpu_ms = cpu_s * 1000;
    char note[200];
    std::snprintf(note, sizeof note, "files/s: GPU %.0f, libjpeg-turbo on %d cores %.0f (%.2fx); %d not taken by the GPU",
                  static_cast<double>(files.size()) / gpu_s, cores, static_cast<double>(files.size()) / cpu_s, cpu_s / gpu_s,
                  damaged.load());
    r.note = note;
    ctx.add(r);
}

void jpeg_huffman_all(Context& ctx) {
    jpeg_huffman_cases(ctx);
    jpeg_folder_case(ctx);
}

}  // namespace

IMGPAR_BENCH(10, "jpeg-huffman", jpeg_huffman_all);

}  // namespace imgpar::bench
