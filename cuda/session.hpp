// The CUDA side of a GPU session (src/gpu/session.hpp): what the entry points
// of cuda/*.cu reach through Session::impl().
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/adaptive_threshold.hpp"
#include "cuda/buffers.hpp"
#include "cuda/compare.hpp"
#include "cuda/filter.hpp"
#include "cuda/histogram.hpp"
#include "cuda/integral.hpp"
#include "cuda/resize.hpp"
#include "cuda/stats.hpp"
#include "src/gpu/session.hpp"

namespace imgpar::gpu {

struct Session::Impl {
    explicit Impl(int device_index);

    int device;  // first: set (and made current) before the stream is created
    std::string name;
    cuda::Stream stream;
    cuda::FilterWorkspace filters;
    cuda::HistogramWorkspace histograms;
    cuda::IntegralWorkspace integrals;
    cuda::AdaptiveWorkspace adaptive;
    cuda::CompareWorkspace compare;
    cuda::StatsWorkspace statistics;
    cuda::ResizeWorkspace resizes;
    cuda::DeviceBuffer<std::uint8_t> slots[3];  // Session::Slot::Input, Output, Aux
    // The stage timing marks (Session::mark), made as needed and reused.
    std::vector<std::unique_ptr<cuda::TimingEvent>> marks;
    int marks_used = 0;
    // Staging: host pixels pass through two pinned buffers in turn, so the
    // host copy of one piece overlaps the DMA of the other; staged[k] marks
    // when the stream is done with buffer k.
    cuda::PinnedBuffer<std::uint8_t> staging[2];
    cuda::Event staged[2];
    // The hardware JPEG decoder's state for this session's stream, made on
    // first use (cuda/jpeg_hardware.cpp); empty until then.
    std::shared_ptr<void> jpeg;
    std::shared_ptr<void> jpeg_idct;     // the split JPEG decode's buffers (cuda/jpeg_idct.cu)
    std::shared_ptr<void> jpeg_huffman;  // the parallel Huffman decode's buffers (cuda/jpeg_huffman.cu)
    std::shared_ptr<void> jpeg_encoder;  // the JPEG encoder's working memory (cuda/jpeg_encode.cu)
};

}  // namespace imgpar::gpu

namespace imgpar::cuda {

// Makes the session's device current and returns its stream: the first thing
// every GPU entry point does.
cudaStream_t enter(gpu::Session& session);

}  // namespace imgpar::cuda
