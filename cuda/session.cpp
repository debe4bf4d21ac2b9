#include "cuda/session.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include "cuda/check.hpp"
#include "src/error.hpp"
#include "src/gpu_runtime.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace {

// Pieces of at most this many bytes pass through one staging buffer: large
// enough that a DMA's fixed cost is small, small enough that the host copy of
// the next piece overlaps most of it. A megabyte for each thread that copies
// it (see copy_rows), from 2 to 8: a batch's worker copies on one thread and
// its session pins 4 MiB rather than 16 (pinning costs about 0.5 ms a MiB,
// serialized in the driver, and about 0.15 ms a MiB more at exit: a batch's
// 16 sessions spent about 0.15 s of its start and end on 8 MiB buffers).
std::size_t staging_limit() {
    return static_cast<std::size_t>(std::clamp(cpu_thread_count(), 2, 8)) << 20;
}

int open_device(int device) {
    const GpuStatus& inventory = gpu_inventory();
    if (device < 0 || device >= static_cast<int>(inventory.devices.size()))
        throw device_error("GPU " + std::to_string(device),
                           inventory.devices.empty() ? inventory.reason
                                                     : "there is no such GPU (this machine has " +
                                                           std::to_string(inventory.devices.size()) + ")");
    const GpuInfo& gpu = gpu_device(device);
    if (!gpu.usable) throw device_error("GPU " + std::to_string(device), gpu.problem);
    IMGPAR_CUDA_CHECK(cudaSetDevice(device));
    return device;
}

// One piece of a 2-D copy: `rows` whole rows from row `row`, or (rows == 1)
// the bytes [offset, offset + bytes) of one row longer than a staging buffer.
struct Piece {
    int row;
    int rows;
    std::size_t offset;
    std::size_t bytes;  // per row
};

template <typename F>
void for_each_piece(std::size_t row_bytes, int rows, F&& f) {
    const std::size_t limit = staging_limit();
    if (row_bytes <= limit) {
        const int per = static_cast<int>(std::max<std::size_t>(1, limit / row_bytes));
        for (int r = 0; r < rows; r += per) f(Piece{r, std::min(per, rows - r), 0, row_bytes});
        return;
    }
    for (int r = 0; r < rows; ++r)
        for (std::size_t o = 0; o < row_bytes; o += limit)
            f(Piece{r, 1, o, std::min(limit, row_bytes - o)});
}

// Host rows to or from a staging buffer. One core copies at ~8 GB/s, a third
// of what the DMA moves, so a large piece is copied on several threads (one,
// on a batch worker that limits its threads).
void copy_rows(std::uint8_t* to, std::size_t to_stride, const std::uint8_t* from, std::size_t from_stride,
               std::size_t bytes, int rows) {
    constexpr std::size_t kBytesPerThread = std::size_t{1} << 20;
    const int grain = static_cast<int>(std::max<std::size_t>(1, kBytesPerThread / std::max<std::size_t>(bytes, 1)));
    parallel_for(rows, grain, [&](int begin, int end) {
        for (int r = begin; r < end; ++r)
            std::memcpy(to + static_cast<std::size_t>(r) * to_stride, from + static_cast<std::size_t>(r) * from_stride, bytes);
    });
}

std::size_t staging_bytes(std::size_t row_bytes, int rows) {
    return std::min(staging_limit(), row_bytes * static_cast<std::size_t>(rows));
}

}  // namespace

namespace cuda {

bool retaining_pool(int device) {
    static std::mutex mutex;
    static std::map<int, bool> known;
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = known.find(device); it != known.end()) return it->second;
    int supported = 0;
    IMGPAR_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
    if (supported) {
        cudaMemPool_t pool = nullptr;
        IMGPAR_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
        std::uint64_t keep = UINT64_MAX;
        IMGPAR_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    }
    known.emplace(device, supported != 0);
    return supported != 0;
}

}  // namespace cuda

namespace gpu {

Session::Impl::Impl(int device_index) : device(open_device(device_index)) {
    name = gpu_inventory().devices[static_cast<std::size_t>(device)].name;
}

Session::Session(int device) : impl_(std::make_unique<Impl>(device)) {}
Session::~Session() = default;

int Session::device() const { return impl_->device; }
const std::string& Session::device_name() const { return impl_->name; }

void* Session::reserve(Slot slot, std::size_t bytes) {
    cuda::enter(*this);
    auto& buffer = impl_->slots[static_cast<int>(slot)];
    if (bytes > buffer.size()) {
        // Work still queued may read the old buffer: let it finish first.
        IMGPAR_CUDA_CHECK(cudaStreamSynchronize(impl_->stream.get()));
        buffer.reserve(bytes, impl_->stream.get());
    }
    return buffer.get();
}

void Session::check_same_shape(int w1, int h1, int c1, int w2, int h2, int c2) {
    if (w1 != w2 || h1 != h2 || c1 != c2)
        throw usage_error("GPU copy", "the host and device images differ in size or channel count");
}

void Session::copy_to_device(const void* host, std::size_t host_stride, void* device, std::size_t pitch,
                             std::size_t row_bytes, int rows) {
    const cudaStream_t stream = cuda::enter(*this);
    Impl& s = *impl_;
    for (auto& b : s.staging) b.reserve(staging_bytes(row_bytes, rows));
    int k = 0;
    for_each_piece(row_bytes, rows, [&](const Piece& p) {
        // The buffer's last DMA must be done before the host refills it.
        IMGPAR_CUDA_CHECK(cudaEventSynchronize(s.staged[k].get()));
        std::uint8_t* stage = s.staging[k].get();
        const auto* from = static_cast<const std::uint8_t*>(host) + static_cast<std::size_t>(p.row) * host_stride + p.offset;
        copy_rows(stage, p.bytes, from, host_stride, p.bytes, p.rows);
        auto* to = static_cast<std::uint8_t*>(device) + static_cast<std::size_t>(p.row) * pitch + p.offset;
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(to, pitch, stage, p.bytes, p.bytes, static_cast<std::size_t>(p.rows),
                                            cudaMemcpyHostToDevice, stream));
        IMGPAR_CUDA_CHECK(cudaEventRecord(s.staged[k].get(), stream));
        k ^= 1;
    });
}

void Session::copy_to_host(const void* device, std::size_t pitch, void* host, std::size_t host_stride,
                           std::size_t row_bytes, int rows) {
    const cudaStream_t stream = cuda::enter(*this);
    Impl& s = *impl_;
    for (auto& b : s.staging) b.reserve(staging_bytes(row_bytes, rows));
    // Piece i is copied to the host while the DMA of piece i + 1 runs.
    bool pending = false;
    Piece last{};
    int k = 0;
    const auto finish = [&](const Piece& p, int slot) {
        IMGPAR_CUDA_CHECK(cudaEventSynchronize(s.staged[slot].get()));
        auto* to = static_cast<std::uint8_t*>(host) + static_cast<std::size_t>(p.row) * host_stride + p.offset;
        const std::uint8_t* stage = s.staging[slot].get();
        copy_rows(to, host_stride, stage, p.bytes, p.bytes, p.rows);
    };
    for_each_piece(row_bytes, rows, [&](const Piece& p) {
        const auto* from = static_cast<const std::uint8_t*>(device) + static_cast<std::size_t>(p.row) * pitch + p.offset;
        IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(s.staging[k].get(), p.bytes, from, pitch, p.bytes,
                                            static_cast<std::size_t>(p.rows), cudaMemcpyDeviceToHost, stream));
        IMGPAR_CUDA_CHECK(cudaEventRecord(s.staged[k].get(), stream));
        if (pending) finish(last, k ^ 1);
        last = p;
        pending = true;
        k ^= 1;
    });
    if (pending) finish(last, k ^ 1);
}

void Session::upload_filled(void* device, std::size_t bytes, const Fill& fill) {
    const cudaStream_t stream = cuda::enter(*this);
    Impl& s = *impl_;
    const std::size_t piece = staging_limit();  // a multiple of 128
    for (auto& b : s.staging) b.reserve(std::min(piece, bytes));
    int k = 0;
    for (std::size_t o = 0; o < bytes; o += piece) {
        const std::size_t n = std::min(piece, bytes - o);
        // The buffer's last DMA must be done before the host refills it.
        IMGPAR_CUDA_CHECK(cudaEventSynchronize(s.staged[k].get()));
        fill(s.staging[k].get(), o, n);
        IMGPAR_CUDA_CHECK(cudaMemcpyAsync(static_cast<std::uint8_t*>(device) + o, s.staging[k].get(), n,
                                          cudaMemcpyHostToDevice, stream));
        IMGPAR_CUDA_CHECK(cudaEventRecord(s.staged[k].get(), stream));
        k ^= 1;
    }
}

void Session::synchronize() {
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(cuda::enter(*this)));
}

void Session::clear_marks() { impl_->marks_used = 0; }

int Session::mark() {
    const cudaStream_t stream = cuda::enter(*this);
    Impl& s = *impl_;
    if (s.marks_used == static_cast<int>(s.marks.size())) s.marks.push_back(std::make_unique<cuda::TimingEvent>());
    IMGPAR_CUDA_CHECK(cudaEventRecord(s.marks[static_cast<std::size_t>(s.marks_used)]->get(), stream));
    return s.marks_used++;
}

double Session::marked_ms(int from, int to) {
    cuda::enter(*this);
    Impl& s = *impl_;
    if (from < 0 || to < from || to >= s.marks_used) throw usage_error("GPU timing", "no such marks");
    float ms = 0;
    IMGPAR_CUDA_CHECK(cudaEventSynchronize(s.marks[static_cast<std::size_t>(to)]->get()));
    IMGPAR_CUDA_CHECK(cudaEventElapsedTime(&ms, s.marks[static_cast<std::size_t>(from)]->get(),
                                           s.marks[static_cast<std::size_t>(to)]->get()));
    return ms;
}

}  // namespace gpu

namespace cuda {

cudaStream_t enter(gpu::Session& session) {
    gpu::Session::Impl& s = session.impl();
    IMGPAR_CUDA_CHECK(cudaSetDevice(s.device));
    return s.stream.get();
}

}  // namespace cuda
}  // namespace imgpar
