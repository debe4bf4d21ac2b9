// What the histogram benchmarks share: the images (8K gray and RGB,
// photo-like and constant), the CPU reference counts, and CUB's histogram as
// a peer.
#pragma once

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "src/ops/histogram.hpp"

namespace imgpar::bench::hist {

struct Shape {
    int w, h, c;
    bool constant;
    const char* label;
};

inline const Shape kShapes[] = {
    {8192, 8192, 1, false, "8192x8192 gray photo"},
    {8192, 8192, 1, true, "8192x8192 gray constant"},
    {7680, 4320, 3, false, "7680x4320 RGB photo"},
    {7680, 4320, 3, true, "7680x4320 RGB constant"},
};

inline std::size_t image_bytes(const Shape& s) { return static_cast<std::size_t>(s.w) * s.h * s.c; }

// Host images are made once per process (8K photo-like images take a while).
inline const ImageU8& host_image(const Shape& s) {
    static std::map<std::string, ImageU8> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) {
        ImageU8 img(s.w, s.h, s.c);
        if (s.constant)
            img.fill(200);
        else
            img = make_photo_like(s.w, s.h, s.c, 7);
        it = cache.emplace(s.label, std::move(img)).first;
    }
    return it->second;
}

// The reference counts (channels only), once per image.
inline const Histogram& cpu_counts(const Shape& s) {
    static std::map<std::string, Histogram> cache;
    auto it = cache.find(s.label);
    if (it == cache.end()) it = cache.emplace(s.label, cpu::histogram(host_image(s).view(), false)).first;
    return it->second;
}

inline std::vector<unsigned long long> download_counts(const unsigned long long* d, std::size_t n, cudaStream_t stream) {
    std::vector<unsigned long long> h(n);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    return h;
}

// "" when counts (channels * 256, plane after plane) equal the CPU's.
inline std::string compare_counts(const Histogram& ref, const std::vector<unsigned long long>& got, const char* who) {
    for (int p = 0; p < ref.channels; ++p)
        for (int v = 0; v < 256; ++v)
            if (got[static_cast<std::size_t>(p * 256 + v)] != ref.counts[p][v])
                return std::string(who) + " COUNTS DIFFER at plane " + std::to_string(p) + " value " + std::to_string(v);
    return "";
}

// CUB DeviceHistogram on the pitched image, 256 even bins over [0, 256).
struct CubPeer {
    cuda::DeviceBuffer<unsigned char> temp;
    std::size_t temp_bytes = 0;
    cuda::DeviceBuffer<unsigned> counts;

    cudaError_t run(const DeviceViewU8& img, cudaStream_t stream, void* t) {
        const unsigned char* samples = img.data;
        if (img.channels == 1)
            return cub::DeviceHistogram::HistogramEven(t, temp_bytes, samples, counts.get(), 257, 0, 256, img.width,
                                                       img.height, img.pitch, stream);
        ::cuda::std::array<unsigned*, 3> planes{counts.get(), counts.get() + 256, counts.get() + 512};
        ::cuda::std::array<int, 3> levels{257, 257, 257};
        ::cuda::std::array<int, 3> lower{0, 0, 0};
        ::cuda::std::array<int, 3> upper{256, 256, 256};
        return cub::DeviceHistogram::MultiHistogramEven<3, 3>(t, temp_bytes, samples, planes, levels, lower, upper,
                                                              img.width, img.height, img.pitch, stream);
    }
    void prepare(const DeviceViewU8& img, cudaStream_t stream) {
        counts.reserve(static_cast<std::size_t>(img.channels) * 256);
        temp_bytes = 0;
        IMGPAR_CUDA_CHECK(run(img, stream, nullptr));  // size query
        temp.reserve(std::max<std::size_t>(temp_bytes, 1));
    }
    const char* name(int channels) const {
        return channels == 1 ? "CUB HistogramEven" : "CUB MultiHistogramEven<3,3>";
    }
};

}  // namespace imgpar::bench::hist
