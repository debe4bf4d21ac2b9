// JPEG Huffman decoding on the GPU: the self-synchronising phases of
// src/io/jpeg_huffman_decode.hpp as kernels, a thread a subsequence, on a
// plan made on the host (src/io/jpeg_huffman_plan.hpp). The coefficients are
// libjpeg-turbo's (its CPU twin, src/io/jpeg_huffman_cpu.hpp, is proven
// against libjpeg-turbo; the GPU tests compare the two), in JpegCoefficients'
// block layout, ready for the split decode's inverse DCT. Declared without
// CUDA headers; implemented in cuda/jpeg_huffman.cu, or by cuda/no_cuda.cpp.
#pragma once

#include <cstdint>

#include "src/gpu/session.hpp"
#include "src/io/jpeg_huffman_cpu.hpp"
#include "src/io/jpeg_huffman_plan.hpp"

namespace imgpar::gpu {

// Decodes a taken plan's scan into `coefficients`: device memory of
// plan.blocks * 64 int16 on the session's device, written on its stream and
// complete when this returns. Returns 0 for a clean scan, else the damage
// flags (huffman::Damage): the file is not taken, and libjpeg-turbo decodes
// it as before; huffman::kOutOfStep when the decoders are still out of step
// after `max_passes` walks. `sync_passes`, when given, receives phase 2's walks. Throws
// imgpar::Error (usage) for a plan not taken, (device) when the GPU fails.
std::uint32_t decode_jpeg_huffman(Session& session, const JpegHuffmanPlan& plan, std::int16_t* coefficients,
                                  int* sync_passes = nullptr, int max_passes = huffman::kMaxPasses);

// The same, the coefficients downloaded: the form the tests compare with the
// CPU twin's result.
JpegHuffmanResult decode_jpeg_huffman_gpu(Session& session, const JpegHuffmanPlan& plan);

}  // namespace imgpar::gpu
