// The GPU's Huffman decoding (cuda/jpeg_huffman.cu) left in the stream, for
// a decoder that goes on in the same stream (cuda/jpeg_idct.cu): the walks
// over decoders out of step need the host, the rest does not, so the whole
// decode waits for the stream once.
#pragma once

#include <cstdint>

#include "src/gpu/session.hpp"
#include "src/io/jpeg_huffman_plan.hpp"

namespace imgpar::gpu {

struct HuffmanEnqueued {
    int passes = 0;             // the walks phase 2 took
    bool out_of_step = false;   // still out of step after max_passes: nothing more enqueued
    // Otherwise: pinned memory that holds the damage flags (huffman::Damage)
    // once the session's stream has reached this point.
    const volatile std::uint32_t* damage = nullptr;
};

// Enqueues a taken plan's decoding into `coefficients` (plan.blocks * 64
// int16 of device memory) on the session's stream, waiting only for the walks.
HuffmanEnqueued enqueue_jpeg_huffman(Session& session, const JpegHuffmanPlan& plan, std::int16_t* coefficients,
                                     int max_passes);

}  // namespace imgpar::gpu
