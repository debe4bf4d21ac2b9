// JPEG encoding on the GPU with libjpeg-turbo's bytes (src/gpu/jpeg_encoder.hpp).
//
// Every block is coded by a thread of its own, with libjpeg-turbo's
// arithmetic (src/io/jpeg_encode_math.hpp); what is sequential in a CPU
// encoder, the position of each block's bits in the stream, comes from a
// prefix sum of the blocks' bit counts:
//   1. quantize: colour conversion, downsampling, DCT and quantization of
//      each block into its zigzag-ordered coefficients;
//   2. count: the bits of each block's Huffman code (its DC prediction is the
//      previous block's quantized DC, already known);
//   3. an exclusive scan of the counts, then each restart segment's byte
//      offset (segments start on a byte: the previous one is padded);
//   4. write: each block's code at its offset, OR-ed into big-endian words
//      (a block shares its first and last word with its neighbours), the
//      last block of a segment padding it with ones.
// The host then adds libjpeg-turbo's markers, stuffs a zero after each 0xFF
// and puts restart markers between the segments (assemble_jpeg).
#include "src/gpu/jpeg_encoder.hpp"

#include <cub/device/device_scan.cuh>

#include <memory>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/io/jpeg_encode_plan.hpp"

namespace imgpar::gpu {

namespace {

// What every kernel reads; passed by value (about 2 KiB of kernel
// parameters), tables copied to shared memory where they are looked up.
struct EncodeArgs {
    jpegenc::Tables tables;
    jpegenc::ScanGeometry scan;
    jpegenc::PixelSource source;
    std::uint64_t blocks;
    std::uint64_t blocks_per_segment;
};

constexpr int kThreads = 128;

__device__ void load_tables(const jpegenc::Tables& from, jpegenc::Tables& to) {
    static_assert(sizeof(jpegenc::Tables) % 4 == 0, "tables copy by words");
    const auto* src = reinterpret_cast<const std::uint32_t*>(&from);
    auto* dst = reinterpret_cast<std::uint32_t*>(&to);
    for (unsigned i = threadIdx.x; i < sizeof(jpegenc::Tables) / 4; i += blockDim.x) dst[i] = src[i];
    __syncthreads();
}

__global__ void quantize_kernel(const __grid_constant__ EncodeArgs args, std::int16_t* coefficients) {
    __shared__ jpegenc::Tables tables;
    load_tables(args.tables, tables);
    const std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (b >= args.blocks) return;
    jpegenc::quantized_block(args.source, tables, args.scan, jpegenc::place_of(args.scan, b), coefficients + b * 64);
}

struct BitCounter {
    std::uint64_t bits = 0;
    __device__ void operator()(std::uint32_t, int count) { bits += static_cast<std::uint64_t>(count); }
};

// The block's DC prediction and Huffman tables, then its code to `out`.
template <typename Out>
__device__ void code_block(const EncodeArgs& args, const jpegenc::Tables& tables, const std::int16_t* coefficients,
                           std::uint64_t b, Out& out) {
    const jpegenc::BlockPlace p = jpegenc::place_of(args.scan, b);
    const std::int16_t* block = coefficients + b * 64;
    const int previous_dc = p.previous < 0 ? 0 : coefficients[static_cast<std::uint64_t>(p.previous) * 64];
    const int table = args.scan.comp[p.c].huffman_table;
    jpegenc::encode_block(block, block[0] - previous_dc, tables.dc[table], tables.ac[table], out);
}

__global__ void count_kernel(const __grid_constant__ EncodeArgs args, const std::int16_t* coefficients,
                             std::uint64_t* bits) {
    __shared__ jpegenc::Tables tables;
    load_tables(args.tables, tables);
    const std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (b > args.blocks) return;
    if (b == args.blocks) {  // the scan's last input: its output is the total
        bits[b] = 0;
        return;
    }
    BitCounter counter;
    code_block(args, tables, coefficients, b, counter);
    bits[b] = counter.bits;
}

// Each segment's byte offset from the blocks' bit offsets; one thread (a
// few to a few thousand segments).
__global__ void segment_kernel(const std::uint64_t* bit_offsets, std::uint64_t blocks, std::uint64_t per_segment,
                               std::uint64_t segments, std::uint64_t* byte_offsets) {
    std::uint64_t at = 0;
    for (std::uint64_t s = 0; s < segments; ++s) {
        byte_offsets[s] = at;
        const std::uint64_t end = (s + 1) * per_segment < blocks ? (s + 1) * per_segment : blocks;
        at += (bit_offsets[end] - bit_offsets[s * per_segment] + 7) / 8;
    }
    byte_offsets[segments] = at;
}

// Bits MSB first from bit `position` on, into words holding their bytes in
// stream order; whole words where this block's bits cover them, OR-ed where
// a neighbour's may share them.
struct WordWriter {
    std::uint32_t* words;
    std::uint64_t position;
    std::uint64_t pending = 0;  // the low `count` bits, not yet stored
    int count = 0;

    __device__ static std::uint32_t stream_order(std::uint32_t v) { return __byte_perm(v, 0, 0x0123); }

    // The top `n` bits of `v` (the rest zero) at `position`.
    __device__ void store(std::uint32_t v, int n) {
        const std::uint64_t w = position >> 5;
        const int offset = static_cast<int>(position & 31);
        atomicOr(words + w, stream_order(v >> offset));
        if (offset && offset + n > 32) atomicOr(words + w + 1, stream_order(v << (32 - offset)));
        position += static_cast<std::uint64_t>(n);
    }
    __device__ void operator()(std::uint32_t bits, int n) {
        pending = pending << n | bits;
        count += n;
        if (count >= 32) {
            count -= 32;
            store(static_cast<std::uint32_t>(pending >> count), 32);
        }
    }
    __device__ void finish() {
        if (count) store(static_cast<std::uint32_t>(pending << (32 - count)), count);
        count = 0;
    }
};

__global__ void write_kernel(const __grid_constant__ EncodeArgs args, const std::int16_t* coefficients,
                             const std::uint64_t* bit_offsets, const std::uint64_t* segment_bytes,
                             std::uint32_t* words) {
    __shared__ jpegenc::Tables tables;
    load_tables(args.tables, tables);
    const std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (b >= args.blocks) return;
    const std::uint64_t segment = b / args.blocks_per_segment;
    const std::uint64_t first = segment * args.blocks_per_segment;
    WordWriter out{words, segment_bytes[segment] * 8 + bit_offsets[b] - bit_offsets[first]};
    code_block(args, tables, coefficients, b, out);
    if (b + 1 == args.blocks || (b + 1) % args.blocks_per_segment == 0) {
        const int pad = static_cast<int>((8 - (out.position + static_cast<std::uint64_t>(out.count)) % 8) % 8);
        if (pad) out((1u << pad) - 1u, pad);
    }
    out.finish();
}

// A session's working memory, kept between encodes (grown, never shrunk).
struct State {
    cuda::DeviceBuffer<std::int16_t> coefficients;
    cuda::DeviceBuffer<std::uint64_t> bits, bit_offsets, segment_bytes;
    cuda::DeviceBuffer<std::uint8_t> scan_scratch;
    cuda::DeviceBuffer<std::uint32_t> words;
    cuda::PinnedBuffer<std::uint64_t> segment_bytes_host;
    cuda::PinnedBuffer<std::uint8_t> bytes_host;
};

State& state_of(Session& session) {
    auto& slot = session.impl().jpeg_encoder;
    if (!slot) slot = std::make_shared<State>();
    return *static_cast<State*>(slot.get());
}

unsigned grid_for(std::uint64_t items) {
    const std::uint64_t grid = (items + kThreads - 1) / kThreads;
    if (grid > 0x7FFFFFFFull) throw usage_error("jpeg", "image too large to encode on the GPU");
    return static_cast<unsigned>(grid);
}

std::vector<std::uint8_t> encode(State& st, const JpegEncodePlan& plan, ConstDeviceViewU8 image, cudaStream_t stream) {
    EncodeArgs args{};
    args.tables = plan.tables;
    args.scan = plan.scan;
    args.source = jpegenc::PixelSource{image.data, image.pitch, image.width, image.height, image.channels};
    args.blocks = plan.blocks;
    args.blocks_per_segment = plan.scan.restart_mcus * static_cast<std::uint64_t>(plan.scan.blocks_per_mcu);
    const std::uint64_t n = plan.blocks;
    st.coefficients.reserve(n * 64, stream);
    st.bits.reserve(n + 1, stream);
    st.bit_offsets.reserve(n + 1, stream);
    st.segment_bytes.reserve(plan.segments + 1, stream);
    st.segment_bytes_host.reserve(plan.segments + 1);

    quantize_kernel<<<grid_for(n), kThreads, 0, stream>>>(args, st.coefficients.get());
    IMGPAR_CUDA_CHECK_LAUNCH("quantize_kernel");
    count_kernel<<<grid_for(n + 1), kThreads, 0, stream>>>(args, st.coefficients.get(), st.bits.get());
    IMGPAR_CUDA_CHECK_LAUNCH("count_kernel");
    std::size_t scratch = 0;
    IMGPAR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch, st.bits.get(), st.bit_offsets.get(),
                                                    static_cast<std::int64_t>(n + 1), stream));
    st.scan_scratch.reserve(scratch, stream);
    IMGPAR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(st.scan_scratch.get(), scratch, st.bits.get(),
                                                    st.bit_offsets.get(), static_cast<std::int64_t>(n + 1), stream));
    segment_kernel<<<1, 1, 0, stream>>>(st.bit_offsets.get(), n, args.blocks_per_segment, plan.segments,
                                        st.segment_bytes.get());
    IMGPAR_CUDA_CHECK_LAUNCH("segment_kernel");
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(st.segment_bytes_host.get(), st.segment_bytes.get(),
                                      (plan.segments + 1) * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));  // the size of the coded data, to hold it

    const std::uint64_t bytes = st.segment_bytes_host.get()[plan.segments];
    const std::uint64_t words = bytes / 4 + 2;  // a writer may touch the word after its last bit's
    st.words.reserve(words, stream);
    st.bytes_host.reserve(bytes);
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(st.words.get(), 0, words * sizeof(std::uint32_t), stream));
    write_kernel<<<grid_for(n), kThreads, 0, stream>>>(args, st.coefficients.get(), st.bit_offsets.get(),
                                                         st.segment_bytes.get(), st.words.get());
    IMGPAR_CUDA_CHECK_LAUNCH("write_kernel");
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(st.bytes_host.get(), st.words.get(), bytes, cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    return assemble_jpeg(plan, st.bytes_host.get(), st.segment_bytes_host.get());
}

}  // namespace

bool jpeg_gpu_encoder_built() { return jpeg_codec_available(); }

std::string jpeg_gpu_encoder_name() { return "imgpar's CUDA encoder (libjpeg-turbo's bytes)"; }

std::vector<std::uint8_t> encode_jpeg_on_gpu(Session& session, ConstDeviceViewU8 image, int quality,
                                             ChromaSubsampling chroma) {
    if (image.channels < 1 || image.channels > 4) throw usage_error("jpeg", "JPEG holds gray or RGB pixels");
    if (image.width < 1 || image.height < 1 || !image.data) throw usage_error("jpeg", "no pixels to encode");
    const JpegEncodePlan plan = plan_jpeg_encode(image.width, image.height, image.channels, quality, chroma);
    const cudaStream_t stream = cuda::enter(session);
    return encode(state_of(session), plan, image, stream);
}

}  // namespace imgpar::gpu
