// RAII owners of device and pinned host memory. Move-only; a failed
// allocation throws imgpar::Error (device) naming the size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda/check.hpp"

namespace imgpar::cuda {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { allocate(count); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
            count_ = std::exchange(o.count_, 0);
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
        if (ptr_) cudaFree(ptr_);  // errors here are sticky ones already reported elsewhere
        ptr_ = nullptr;
        count_ = 0;
    }
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
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
    // Grows (never shrinks) to at least `count` elements; contents are not kept.
    void reserve(std::size_t count) {
        if (count > count_) *this = PinnedBuffer(count);
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
