// The GPU's parallel Huffman decoding (src/gpu/jpeg_huffman.hpp): a kernel
// a phase of src/io/jpeg_huffman_decode.hpp, a thread a subsequence, and
// CUB's scan for phase 3. The host loops over phase 2's walks until a pass
// changes no record (usually the second: decoders fall into step within
// a subsequence or two), or gives up after the caller's most passes.
#include "src/gpu/jpeg_huffman.hpp"
#include "cuda/jpeg_huffman_enqueue.hpp"

#include <cub/device/device_scan.cuh>

#include <cstring>
#include <memory>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::gpu {
namespace {

// Launch shape: one thread a subsequence; not yet measured (the lead's
// benchmark row decides it together with huffman::kSubsequenceBits).
struct HuffmanPolicy {
    static constexpr int kThreads = 128;
};

struct Work {
    std::uint64_t* end;
    huffman::Sums* sums;    // subsequences + 1 (the last stays zero: the scan's total lands after it)
    huffman::Sums* before;  // subsequences + 1
    std::uint32_t* flags;   // [0]: a walk wrote a record; [1]: damage
};

__global__ void __launch_bounds__(HuffmanPolicy::kThreads) phase1_kernel(const __grid_constant__ huffman::View v, Work w) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < v.layout.subsequences) huffman::phase1(v, j, w.end, w.sums);
}

__global__ void __launch_bounds__(HuffmanPolicy::kThreads) walk_kernel(const __grid_constant__ huffman::View v, Work w) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < v.layout.subsequences && huffman::phase2_walk(v, j, w.end, w.sums)) w.flags[0] = 1;
}

__global__ void __launch_bounds__(HuffmanPolicy::kThreads) phase4_kernel(const __grid_constant__ huffman::View v, Work w,
                                                                         std::int16_t* out) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= v.layout.subsequences) return;
    const std::uint32_t damage = huffman::phase4(v, j, w.end, w.before, out);
    if (damage) atomicOr(w.flags + 1, damage);
}

struct AddSums {
    __device__ huffman::Sums operator()(const huffman::Sums& a, const huffman::Sums& b) const { return huffman::add(a, b); }
};

// A session's buffers for this decode, made on first use; they only grow.
struct HuffmanState {
    cuda::DeviceBuffer<std::uint8_t> input;  // tables, bits and the interval and subsequence arrays
    cuda::DeviceBuffer<std::uint64_t> states;  // where each subsequence's decode ends
    cuda::DeviceBuffer<huffman::Sums> sums;    // sums, then before
    cuda::DeviceBuffer<std::uint8_t> scan_scratch;
    cuda::DeviceBuffer<std::uint32_t> flags;
    cuda::DeviceBuffer<std::int16_t> coefficients;  // decode_jpeg_huffman_gpu's
    cuda::PinnedBuffer<std::uint32_t> flags_host;
};

HuffmanState& state_of(Session& session) {
    auto& slot = session.impl().jpeg_huffman;
    if (!slot) {
        auto s = std::make_shared<HuffmanState>();
        s->flags_host.reserve(2);
        slot = s;
    }
    return *static_cast<HuffmanState*>(slot.get());
}

std::size_t aligned(std::size_t n) { return (n + 255) / 256 * 256; }

// The plan's arrays as one upload: where each lands in the input buffer.
struct Packing {
    std::size_t tables, bits, interval_bit, first_subsequence, subsequence_interval, total;
};

Packing packing(const JpegHuffmanPlan& plan) {
    Packing p{};
    p.tables = 0;
    p.bits = aligned(p.tables + plan.tables.size() * sizeof(huffman::Lookup));
    p.interval_bit = aligned(p.bits + plan.bits.size());
    p.first_subsequence = aligned(p.interval_bit + plan.interval_bit.size() * sizeof(std::uint32_t));
    p.subsequence_interval = aligned(p.first_subsequence + plan.first_subsequence.size() * sizeof(std::uint32_t));
    p.total = aligned(p.subsequence_interval + plan.subsequence_interval.size() * sizeof(std::uint32_t));
    return p;
}

unsigned grid_for(std::uint32_t n) { return (n + HuffmanPolicy::kThreads - 1) / HuffmanPolicy::kThreads; }

}  // namespace

HuffmanEnqueued enqueue_jpeg_huffman(Session& session, const JpegHuffmanPlan& plan, std::int16_t* coefficients,
                                     int max_passes) {
    if (!plan.taken) throw usage_error("JPEG", "a Huffman plan the GPU does not take: " + plan.reason);
    const cudaStream_t stream = cuda::enter(session);
    HuffmanState& st = state_of(session);
    const Packing pk = packing(plan);
    st.input.reserve(pk.total, stream);
    const struct {
        std::size_t at;
        const void* data;
        std::size_t bytes;
    } pieces[] = {
        {pk.tables, plan.tables.data(), plan.tables.size() * sizeof(huffman::Lookup)},
        {pk.bits, plan.bits.data(), plan.bits.size()},
        {pk.interval_bit, plan.interval_bit.data(), plan.interval_bit.size() * sizeof(std::uint32_t)},
        {pk.first_subsequence, plan.first_subsequence.data(), plan.first_subsequence.size() * sizeof(std::uint32_t)},
        {pk.subsequence_interval, plan.subsequence_interval.data(),
         plan.subsequence_interval.size() * sizeof(std::uint32_t)},
    };
    // Staging pieces of the packed layout, gaps zeroed.
    session.upload_filled(st.input.get(), pk.total, [&](std::uint8_t* to, std::size_t offset, std::size_t n) {
        std::memset(to, 0, n);
        for (const auto& p : pieces) {
            const std::size_t lo = std::max(offset, p.at), hi = std::min(offset + n, p.at + p.bytes);
            if (lo < hi) std::memcpy(to + (lo - offset), static_cast<const std::uint8_t*>(p.data) + (lo - p.at), hi - lo);
        }
    });
    huffman::View v{};
    v.layout = plan.layout;
    std::uint8_t* base = st.input.get();
    v.tables = reinterpret_cast<const huffman::Lookup*>(base + pk.tables);
    v.bits = base + pk.bits;
    v.interval_bit = reinterpret_cast<const std::uint32_t*>(base + pk.interval_bit);
    v.first_subsequence = reinterpret_cast<const std::uint32_t*>(base + pk.first_subsequence);
    v.subsequence_interval = reinterpret_cast<const std::uint32_t*>(base + pk.subsequence_interval);

    const std::uint32_t n = plan.layout.subsequences;
    st.states.reserve(n, stream);
    st.sums.reserve(2 * (static_cast<std::size_t>(n) + 1), stream);
    st.flags.reserve(2, stream);
    Work w{};
    w.end = st.states.get();
    w.sums = st.sums.get();
    w.before = w.sums + n + 1;
    w.flags = st.flags.get();
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(w.sums + n, 0, sizeof(huffman::Sums), stream));
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(w.flags, 0, 2 * sizeof(std::uint32_t), stream));

    phase1_kernel<<<grid_for(n), HuffmanPolicy::kThreads, 0, stream>>>(v, w);
    IMGPAR_CUDA_CHECK_LAUNCH("phase1_kernel");
    // Walks until one writes no record. Photos settle in the second, so the
    // first check comes after two walks, back to back (the second's flag
    // alone decides: a walk that changes nothing leaves the records final),
    // and each later check after one: a host round trip saved a file.
    HuffmanEnqueued r;
    for (;;) {
        const int walks = r.passes == 0 ? std::min(2, max_passes) : 1;
        if (walks <= 0 || r.passes >= max_passes) {
            r.out_of_step = true;
            return r;
        }
        for (int k = 0; k < walks; ++k) {
            if (k > 0) IMGPAR_CUDA_CHECK(cudaMemsetAsync(w.flags, 0, sizeof(std::uint32_t), stream));
            walk_kernel<<<grid_for(n), HuffmanPolicy::kThreads, 0, stream>>>(v, w);
            IMGPAR_CUDA_CHECK_LAUNCH("walk_kernel");
        }
        r.passes += walks;
        IMGPAR_CUDA_CHECK(cudaMemcpyAsync(st.flags_host.get(), w.flags, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
        if (st.flags_host.get()[0] == 0) break;
        IMGPAR_CUDA_CHECK(cudaMemsetAsync(w.flags, 0, sizeof(std::uint32_t), stream));
    }

    // Phase 3: n + 1 items, so the last `before` is every subsequence's total.
    const huffman::Sums zero{0, {0, 0, 0}};
    std::size_t scratch = 0;
    IMGPAR_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, scratch, w.sums, w.before, AddSums{}, zero,
                                                     static_cast<std::int64_t>(n) + 1, stream));
    st.scan_scratch.reserve(scratch, stream);
    IMGPAR_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(st.scan_scratch.get(), scratch, w.sums, w.before, AddSums{}, zero,
                                                     static_cast<std::int64_t>(n) + 1, stream));

    IMGPAR_CUDA_CHECK(cudaMemsetAsync(coefficients, 0, plan.blocks * 64 * sizeof(std::int16_t), stream));
    phase4_kernel<<<grid_for(n), HuffmanPolicy::kThreads, 0, stream>>>(v, w, coefficients);
    IMGPAR_CUDA_CHECK_LAUNCH("phase4_kernel");
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(st.flags_host.get() + 1, w.flags + 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    r.damage = st.flags_host.get() + 1;
    return r;
}

std::uint32_t decode_jpeg_huffman(Session& session, const JpegHuffmanPlan& plan, std::int16_t* coefficients,
                                  int* sync_passes, int max_passes) {
    const HuffmanEnqueued r = enqueue_jpeg_huffman(session, plan, coefficients, max_passes);
    if (sync_passes) *sync_passes = r.passes;
    if (r.out_of_step) return huffman::kOutOfStep;
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(cuda::enter(session)));
    return *r.damage;
}

JpegHuffmanResult decode_jpeg_huffman_gpu(Session& session, const JpegHuffmanPlan& plan) {
    JpegHuffmanResult r;
    if (!plan.taken) {
        r.reason = plan.reason;
        return r;
    }
    const cudaStream_t stream = cuda::enter(session);
    HuffmanState& st = state_of(session);
    const std::size_t count = std::max<std::size_t>(plan.blocks, 1) * 64;
    st.coefficients.reserve(count, stream);
    const std::uint32_t damage = decode_jpeg_huffman(session, plan, st.coefficients.get(), &r.sync_passes);
    if (damage) {
        r.reason = jpeg_huffman_damage_reason(damage);
        return r;
    }
    r.blocks.resize(plan.blocks * 64);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(r.blocks.data(), st.coefficients.get(), r.blocks.size() * sizeof(std::int16_t),
                                      cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    r.taken = true;
    return r;
}

}  // namespace imgpar::gpu
