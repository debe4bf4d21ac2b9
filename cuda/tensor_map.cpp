// Tensor maps through the driver entry point the runtime hands out, so the
// build needs no link against the driver library.
#include "cuda/tensor_map.hpp"

#include <cudaTypedefs.h>

#include <string>

#include "cuda/check.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
    static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found{};
        IMGPAR_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess || p == nullptr)
            throw device_error("CUDA", "the driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12 driver)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }();
    return fn;
}

}  // namespace

CUtensorMap byte_tile_map(const void* data, std::size_t row_bytes, int rows, std::size_t pitch, int box_bytes,
                          int box_rows) {
    CUtensorMap map{};
    const cuuint64_t dims[2] = {row_bytes, static_cast<cuuint64_t>(rows)};
    const cuuint64_t strides[1] = {pitch};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_bytes), static_cast<cuuint32_t>(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(data), dims, strides, box,
                                      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        throw device_error("CUDA", "cuTensorMapEncodeTiled refused a " + std::to_string(row_bytes) + " x " +
                                       std::to_string(rows) + " byte image (pitch " + std::to_string(pitch) +
                                       ", box " + std::to_string(box_bytes) + " x " + std::to_string(box_rows) +
                                       "): error " + std::to_string(static_cast<int>(r)));
    return map;
}

}  // namespace imgpar::cuda
