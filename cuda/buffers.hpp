// RAII owners of device and pinned host memory. Move-only; a failed
// allocation throws imgpar::Error (device) naming the size.
//
// A session's buffers grow on its stream (reserve(count, stream)): from the
// device's memory pool (cudaMallocAsync), freed back to it in stream order.
// cudaMalloc and cudaFree instead wait for the whole device, which stalled
// every other session of a batch each time one grew a buffer (measured: 2.5
// ms a call, 10% of a 16-session batch's worker time). The pool keeps what it
// is given back (retaining_pool), so a grown buffer is refilled from it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda/check.hpp"

namespace imgpar::cuda {

// Whether `device` has a memory pool, made to keep the memory given back to
// it (by default it returns it to the system at every synchronization), so
// buffers that grow and shrink reuse it. Set up once per device per process.
bool retaining_pool(int device);

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { allocate(count); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)), stream_(o.stream_) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
            count_ = std::exchange(o.count_, 0);
            stream_ = o.stream_;
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // Grows (never shrinks) to at least `count` elements; contents are not kept.
    void reserve(std::size_t count) {
        if (count > count_) {
            release();
            allocate(count);
        }
    }
    // The same, in `stream`'s order, from the device's pool: the memory is
    // for work on `stream` (other streams may use it once `stream` has run
    // up to here), and goes back to the pool in `stream`'s order, so the
    // stream must outlive the buffer. True when it grew.
    bool reserve(std::size_t count, cudaStream_t stream) {
        if (count <= count_) return false;
        int device = 0;
        IMGPAR_CUDA_CHECK(cudaGetDevice(&device));
        if (!retaining_pool(device)) {  // a device without memory pools
            reserve(count);
            return true;
        }
        release();
        void* p = nullptr;
        const cudaError_t status = cudaMallocAsync(&p, count * sizeof(T), stream);
        if (status != cudaSuccess) {
            cudaGetLastError();  // not sticky: clear it, as the message says what happened
            throw device_error("CUDA", "cannot allocate " + std::to_string(count * sizeof(T)) +
                                           " bytes of device memory: " + cudaGetErrorString(status));
        }
        ptr_ = static_cast<T*>(p);
        count_ = count;
        stream_ = stream;
        return true;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    void allocate(std::size_t count) {
        if (count == 0) return;
        void* p = nullptr;
        cudaError_t status = cudaMalloc(&p, count * sizeof(T));
        if (status != cudaSuccess)
            throw device_error("CUDA", "cannot allocate " + std::to_string(count * sizeof(T)) +
                                           " bytes of device memory: " + cudaGetErrorString(status));
        ptr_ = static_cast<T*>(p);
        count_ = count;
    }
    void release() noexcept {
        // Errors here are sticky ones already reported elsewhere.
        if (ptr_ && stream_) cudaFreeAsync(ptr_, stream_);
        else if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        count_ = 0;
        stream_ = nullptr;
    }
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
    cudaStream_t stream_ = nullptr;  // set when allocated in stream order
};

template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count) {
        if (count == 0) return;
        void* p = nullptr;
        cudaError_t status = cudaMallocHost(&p, count * sizeof(T));
        if (status != cudaSuccess)
            throw device_error("CUDA", "cannot allocate " + std::to_string(count * sizeof(T)) +
                                           " bytes of pinned host memory: " + cudaGetErrorString(status));
        ptr_ = static_cast<T*>(p);
        count_ = count;
    }
    ~PinnedBuffer() {
        if (ptr_) cudaFreeHost(ptr_);
    }
    PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(count_, o.count_);
        return *this;
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    // Grows (never shrinks) to at least `count` elements, rounded up to a
    // power of two: pinning memory is slow (about a millisecond a call), and
    // a batch's images come in every size. Contents are not kept.
    void reserve(std::size_t count) {
        if (count <= count_) return;
        std::size_t rounded = 1;
        while (rounded < count) rounded <<= 1;
        *this = PinnedBuffer(rounded);
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return count_; }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

// An owned event (timing disabled: it only orders host and stream).
class Event {
public:
    Event() { IMGPAR_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
    ~Event() {
        if (event_) cudaEventDestroy(event_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// An owned event that records time (Event does not: its records are cheaper).
class TimingEvent {
public:
    TimingEvent() { IMGPAR_CUDA_CHECK(cudaEventCreate(&event_)); }
    ~TimingEvent() {
        if (event_) cudaEventDestroy(event_);
    }
    TimingEvent(const TimingEvent&) = delete;
    TimingEvent& operator=(const TimingEvent&) = delete;
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// An owned stream; destroyed (after draining) with its owner.
class Stream {
public:
    Stream() { IMGPAR_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() {
        if (stream_) {
            cudaStreamSynchronize(stream_);
            cudaStreamDestroy(stream_);
        }
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }
    void synchronize() const { IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace imgpar::cuda
