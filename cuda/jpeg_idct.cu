// The GPU half of the split JPEG decode (src/gpu/jpeg_idct.hpp): the
// coefficients uploaded through the session's staging buffers, the inverse
// DCT into component planes, then cuda/jpeg_color.cu's upsampling and
// colour conversion (or, for gray, a copy) into the Input slot.
#include "src/gpu/jpeg_idct.hpp"

#include <memory>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/jpeg_huffman_enqueue.hpp"
#include "cuda/jpeg_color.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/io/jpeg_idct.hpp"

namespace imgpar::gpu {
namespace {

// Eight threads take one 8x8 block: each a column in pass 1, then a row in
// pass 2, through shared memory (rows 9 apart, so the row reads of pass 2
// fall in different banks).
constexpr int kBlocksPerCta = 32;
constexpr int kWsStride = 9;

struct IdctComponent {
    const std::int16_t* coef;  // its blocks, row by row
    int blocks_wide;
    int first_block;  // its first block's index among all components' blocks
    std::uint8_t* plane;
    std::size_t pitch;
};

struct IdctJob {
    IdctComponent component[3];
    int components;
    int total_blocks;
    std::uint16_t quant[3][64];
    int* unsafe;  // set to 1 when a block is unsafe
};

__global__ void __launch_bounds__(kBlocksPerCta * 8) idct_kernel(const __grid_constant__ IdctJob job) {
    __shared__ std::uint16_t quant[3][64];
    __shared__ std::int32_t ws[kBlocksPerCta][8 * kWsStride];
    for (int i = static_cast<int>(threadIdx.x); i < 3 * 64; i += static_cast<int>(blockDim.x)) quant[i / 64][i % 64] = job.quant[i / 64][i % 64];
    __syncthreads();
    const int local = static_cast<int>(threadIdx.x) >> 3, lane = static_cast<int>(threadIdx.x) & 7;
    const int b = static_cast<int>(blockIdx.x) * kBlocksPerCta + local;
    const bool active = b < job.total_blocks;
    int c = 0;
    if (job.components > 1 && b >= job.component[1].first_block) c = 1;
    if (job.components > 2 && b >= job.component[2].first_block) c = 2;
    const IdctComponent comp = c == 0 ? job.component[0] : c == 1 ? job.component[1] : job.component[2];
    const int index = b - comp.first_block;
    bool safe = true;
    if (active) safe = jpeg_idct::idct_column(comp.coef + static_cast<std::size_t>(index) * 64, quant[c], lane, &ws[local][lane], kWsStride);
    __syncthreads();
    if (active) {
        union {
            std::uint8_t bytes[8];
            uint2 word;
        } row;
        safe = jpeg_idct::idct_row(&ws[local][lane * kWsStride], row.bytes) && safe;
        const int bx = index % comp.blocks_wide, by = index / comp.blocks_wide;
        *reinterpret_cast<uint2*>(comp.plane + static_cast<std::size_t>(by * 8 + lane) * comp.pitch + static_cast<std::size_t>(bx) * 8) = row.word;
    }
    if (!safe) atomicOr(job.unsafe, 1);
}

// A session's buffers for this decode, made on first use.
struct IdctState {
    cuda::DeviceBuffer<std::int16_t> coefficients;
    cuda::DeviceBuffer<std::uint8_t> planes;
    cuda::DeviceBuffer<int> unsafe;
    cuda::PinnedBuffer<int> unsafe_host;
};

IdctState& state_of(Session& session) {
    auto& slot = session.impl().jpeg_idct;
    if (!slot) {
        auto s = std::make_shared<IdctState>();
        s->unsafe_host.reserve(1);
        slot = s;
    }
    return *static_cast<IdctState*>(slot.get());
}

std::size_t aligned(std::size_t n) { return (n + 255) / 256 * 256; }

// The inverse DCT of the coefficients in st.coefficients (`file`'s layout)
// into the component planes, then the planes into the Input slot.
std::optional<DeviceViewU8> idct_to_input(Session& session, IdctState& st, const JpegCoefficients& file,
                                          cudaStream_t stream) {
    const int n = file.components;
    // The planes, whole blocks each, 256-byte aligned rows.
    std::size_t pitch[3] = {}, offset[3] = {}, plane_bytes = 0;
    for (int c = 0; c < n; ++c) {
        const auto& k = file.component[static_cast<std::size_t>(c)];
        pitch[c] = aligned(static_cast<std::size_t>(k.blocks_wide) * 8);
        offset[c] = plane_bytes;
        plane_bytes += pitch[c] * static_cast<std::size_t>(k.blocks_high) * 8;
    }
    st.planes.reserve(plane_bytes, stream);
    st.unsafe.reserve(1, stream);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(st.unsafe.get(), 0, sizeof(int), stream));
    IdctJob job{};
    job.components = n;
    job.total_blocks = static_cast<int>(file.blocks);
    job.unsafe = st.unsafe.get();
    for (int c = 0; c < n; ++c) {
        const auto& k = file.component[static_cast<std::size_t>(c)];
        job.component[c] = IdctComponent{st.coefficients.get() + k.first_block * 64, k.blocks_wide,
                                         static_cast<int>(k.first_block), st.planes.get() + offset[c], pitch[c]};
        for (int i = 0; i < 64; ++i) job.quant[c][i] = k.quant[static_cast<std::size_t>(i)];
    }
    idct_kernel<<<static_cast<unsigned>((file.blocks + kBlocksPerCta - 1) / kBlocksPerCta), kBlocksPerCta * 8, 0, stream>>>(job);
    IMGPAR_CUDA_CHECK_LAUNCH("idct_kernel");
    const DeviceViewU8 out = session.image<std::uint8_t>(Session::Slot::Input, file.width, file.height, n == 1 ? 1 : 3);
    const std::uint8_t* luma = st.planes.get();
    if (n == 1) {
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(out.data, out.pitch, luma, pitch[0], static_cast<std::size_t>(file.width),
                                            static_cast<std::size_t>(file.height), cudaMemcpyDeviceToDevice, stream));
    } else {
        const auto plane = [&](int c) {
            const auto& k = file.component[static_cast<std::size_t>(c)];
            return ChromaPlane{st.planes.get() + offset[c], pitch[c], k.width, k.height};
        };
        cuda::jpeg_planes_to_rgb(luma, pitch[0], plane(1), plane(2), file.layout, out, stream);
    }
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(st.unsafe_host.get(), st.unsafe.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (*st.unsafe_host.get() != 0) return std::nullopt;
    return out;
}

void check_decodable(const JpegCoefficients& file) {
    if (file.components != 1 && file.components != 3)
        throw usage_error("JPEG", "the GPU decodes gray or colour JPEGs only");
    if (file.blocks == 0) throw input_error(file.name, "a JPEG with no blocks");
}

}  // namespace

std::optional<DeviceViewU8> decode_jpeg_coefficients(Session& session, const JpegCoefficients& file) {
    check_decodable(file);
    const cudaStream_t stream = cuda::enter(session);
    IdctState& st = state_of(session);
    st.coefficients.reserve(file.blocks * 64, stream);
    // The coefficients from libjpeg-turbo's arrays straight into the staging
    // buffers (pieces of whole blocks: 128 bytes each).
    session.upload_filled(st.coefficients.get(), file.blocks * 128, [&file](std::uint8_t* to, std::size_t offset, std::size_t n) {
        file.copy_blocks(offset / 128, n / 128, reinterpret_cast<std::int16_t*>(to));
    });
    return idct_to_input(session, st, file, stream);
}

std::optional<DeviceViewU8> decode_jpeg_scan(Session& session, const JpegHuffmanPlan& plan, const std::string& name,
                                             std::uint32_t& damage, int max_passes) {
    const JpegCoefficients file = coefficient_layout(plan, name);
    check_decodable(file);
    const cudaStream_t stream = cuda::enter(session);
    IdctState& st = state_of(session);
    st.coefficients.reserve(file.blocks * 64, stream);
    const HuffmanEnqueued scan = enqueue_jpeg_huffman(session, plan, st.coefficients.get(), max_passes);
    if (scan.out_of_step) {
        damage = huffman::kOutOfStep;
        return std::nullopt;
    }
    // The inverse DCT goes on in the stream without waiting for the damage
    // flags (a damaged scan's pixels are dropped): one wait for both.
    std::optional<DeviceViewU8> image = idct_to_input(session, st, file, stream);
    damage = *scan.damage;
    if (damage) return std::nullopt;
    return image;
}

}  // namespace imgpar::gpu
