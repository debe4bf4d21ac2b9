// GPU resize (cuda/resize.cu): cpu::resize (src/ops/resize.hpp holds the
// contract) as its two passes, each a thin kernel over the same integer
// arithmetic (src/ops/resize_math.hpp) and the same tables:
//   - down the columns: one thread an intermediate pixel (all its channels)
//     of a kept output row, as wide as the input, into the workspace's buffer
//     (signed 16 bits a sample after a filter, 32 after area, a copy or
//     premultiplied);
//   - along the rows: one thread an output pixel, reading the run of its
//     intermediate row its taps name; premultiplied colour divided by alpha
//     there.
// The tables are uploaded once per plan (a batch of one size uploads them
// once).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/buffers.hpp"
#include "src/image.hpp"
#include "src/ops/resize.hpp"

namespace imgpar::cuda {

// Launch shape: 256 threads a block, 2-D blocks of 64 x 4 pixels (a warp
// reads 32 neighbouring output pixels' taps). Not yet tuned by a sweep.
struct ResizePolicy {
    static constexpr int block_x = 64;
    static constexpr int block_y = 4;
};

// K of the tensor cores' groups down the columns and along the rows, 0
// where they do not take that pass (resize_mma_shape).
// `rows_window`: the widest group's window down the columns (input rows).
struct ResizeMmaShape {
    int k_rows = 0, k_cols = 0;
    int rows_window = 0;
};

class ResizeWorkspace {
public:
    // The plan's tables on the device (uploaded unless they are the last
    // plan's), and an intermediate buffer of at least `bytes`.
    // `mma`: the tensor cores' weight fragments after them, for that shape
    // (none where its K are 0: resize_tables).
    const std::int32_t* tables(const ResizePlan& plan, cudaStream_t stream, const ResizeMmaShape& mma = {});
    void* intermediate(std::size_t bytes, cudaStream_t stream);

private:
    DeviceBuffer<std::int32_t> tables_;
    DeviceBuffer<std::uint8_t> intermediate_;
    std::string key_;  // what the uploaded tables are
};

// The device tables' layout: x.start, x.weight, y.start, y.weight, then
// (16-byte aligned) the tensor cores' weight fragments down the columns
// and along the rows (cuda/resize_tiles.hpp).
struct ResizeTables {
    const std::int32_t* x_start;
    const std::int32_t* x_weight;
    const std::int32_t* y_start;
    const std::int32_t* y_weight;
    const uint4* y_frag = nullptr;
    const uint4* x_frag = nullptr;
    int y_frag_k = 0, x_frag_k = 0;  // 0: no fragments
    int y_rows_window = 0;            // ResizeMmaShape::rows_window
};
ResizeTables resize_tables(const ResizePlan& plan, const std::int32_t* device, const ResizeMmaShape& mma = {});

// How a tiled resize made its passes: not at all (no tile fits), both on
// the CUDA cores, the first (down the columns) on the tensor cores
// (cuda/resize_first_pass_mma.cuh), or both there
// (cuda/resize_second_pass_mma.cuh). Asked for, the most the tensor cores
// may take; Best: both passes there where both apply, else the CUDA cores'
// (the first pass alone there measured no faster: bench/TUNING.md).
enum class TilePasses { None, Cores, FirstOnTensorCores, TensorCores, Best };

// Block means at whole area factors (cuda/resize_blocks.hpp), else the tiled
// kernel where its tiles fit (cuda/resize_tiles.hpp), else the two passes;
// `tiles` false: the two passes always (the tests run both).
// `tensor_cores`: the most of the tiled kernel's passes the tensor cores
// may take (the tests run each); Best (the default): as IMGPAR_RESIZE_MMA
// says where it is set (docs/development.md).
void resize(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst, ResizeWorkspace& ws,
            cudaStream_t stream, std::string* kernel, bool tiles = true, TilePasses tensor_cores = TilePasses::Best);
// 16-bit samples (a plan made for U16; src/ops/resize.hpp, 16 BITS): the
// tiled kernel where its tiles fit, else the two passes; 64-bit sums, a 32-
// or 64-bit intermediate. `tiles` false: the two passes always.
void resize(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst, ResizeWorkspace& ws,
            cudaStream_t stream, std::string* kernel, bool tiles = true);

}  // namespace imgpar::cuda
