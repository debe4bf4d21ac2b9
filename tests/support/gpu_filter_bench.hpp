// The GPU filter tests' device side (tests/gpu/test_filter*_gpu.cpp): device
// images in three layouts, poisoned outputs, and GpuBench, which filters one
// source with many plans through the no-allocation form and compares each
// result with the CPU reference exactly.
#pragma once

#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test::gpu_filters {

using cuda::CustomPath;
using cuda::SeparablePath;

// How a device image is laid out: cudaMallocPitch rows (pitch > row bytes,
// 16-byte aligned), tightly packed rows, or rows at an odd address with an
// odd pitch (no vector access possible anywhere).
enum class Layout { Pitched, Packed, Misaligned };

inline const char* layout_name(Layout l) {
    switch (l) {
        case Layout::Pitched: return "pitched";
        case Layout::Packed: return "packed";
        case Layout::Misaligned: return "misaligned";
    }
    return "?";
}

struct DevImage {
    cuda::DeviceImageU8 pitched;
    cuda::DeviceBuffer<std::uint8_t> raw;
    DeviceViewU8 ref;
};

inline DevImage make_device(int w, int h, int c, Layout layout) {
    DevImage d;
    if (layout == Layout::Pitched) {
        d.pitched = cuda::DeviceImageU8(w, h, c);
        d.ref = d.pitched.view();
        REQUIRE(d.ref.pitch >= static_cast<std::size_t>(w) * c);
        return d;
    }
    const std::size_t row = static_cast<std::size_t>(w) * c;
    const std::size_t pitch = layout == Layout::Packed ? row : row + 7;
    const std::size_t offset = layout == Layout::Packed ? 0 : 3;
    // Exactly the bytes the image covers, so a read past the end is out of bounds.
    d.raw = cuda::DeviceBuffer<std::uint8_t>(offset + pitch * static_cast<std::size_t>(h - 1) + row);
    d.ref = {d.raw.get() + offset, w, h, c, pitch};
    return d;
}


inline void upload(const DevImage& d, const ImageU8& img) {
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(d.ref.data, d.ref.pitch, img.data(), img.stride(), img.row_bytes(),
                                        static_cast<std::size_t>(img.height()), cudaMemcpyHostToDevice, stream()));
}

// Fills the destination with a pattern so pixels the GPU never wrote show up.
inline int poison_counter = 0;
inline void poison(const DevImage& d) {
    const int value = (poison_counter++ & 1) ? 0xA7 : 0x5C;
    IMGPAR_CUDA_CHECK(cudaMemset2DAsync(d.ref.data, d.ref.pitch, value,
                                        static_cast<std::size_t>(d.ref.width) * d.ref.channels,
                                        static_cast<std::size_t>(d.ref.height), stream()));
}

inline ImageU8 download(const DevImage& d) {
    ImageU8 img(d.ref.width, d.ref.height, d.ref.channels);
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(img.data(), img.stride(), d.ref.data, d.ref.pitch, img.row_bytes(),
                                        static_cast<std::size_t>(img.height()), cudaMemcpyDeviceToHost, stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream()));
    return img;
}

// One source on the device, filtered with many plans into poisoned outputs
// through the no-allocation form and one shared workspace.
class GpuBench {
public:
    explicit GpuBench(const ImageU8& src, Layout layout = Layout::Pitched)
        : src_(src), layout_(layout), d_src_(make_device(src.width(), src.height(), src.channels(), layout)) {
        upload(d_src_, src_);
    }

    ImageU8 run(const FilterPlan& plan, SeparablePath path = SeparablePath::Auto, CustomPath custom = CustomPath::Auto) {
        const int oc = plan.output_channels(src_.channels());
        DevImage& dst = oc == src_.channels() ? d_same_ : d_gray_;
        if (dst.ref.data == nullptr) dst = make_device(src_.width(), src_.height(), oc, layout_);
        poison(dst);
        ws_.set_separable_path(path);
        ws_.set_custom_path(custom);
        cuda::apply_filter(plan, d_src_.ref, dst.ref, ws_, stream());
        return download(dst);
    }

    // CPU reference vs GPU, exactly.
    void check(const FilterPlan& plan, const std::string& what, SeparablePath path = SeparablePath::Auto,
               CustomPath custom = CustomPath::Auto) {
        const ImageU8 expect = cpu::apply_filter(plan, src_.view());
        const ImageU8 got = run(plan, path, custom);
        INFO(what, " | ", plan.describe(), " | ", src_.width(), "x", src_.height(), " ",
             std::string(channel_layout_name(src_.channels())), " | ", std::string(layout_name(layout_)), " | path ",
             std::string(plan.kind == FilterKind::Custom ? custom_path_name(custom) : path_name(path)));
        IMGPAR_CHECK_IMAGES_EQUAL(expect, got);
    }

    // Gaussian and unsharp go through every implementation that supports
    // the plan: the register-chained one (radius up to 64, sigma above
    // ~0.8), the small-radius one (trimmed radius up to 3) and the ring.
    // Images with alpha have one, the wide kernels.
    void check_all_paths(const FilterPlan& plan, const std::string& what) {
        if (has_alpha(src_.channels())) return check(plan, what);
        for (SeparablePath path : {SeparablePath::HalfMma, SeparablePath::SmallRadius})
            if (cuda::separable_path_available(plan, src_.channels(), path)) check(plan, what, path);
        check(plan, what, SeparablePath::ByteMma);
    }

    // Custom kernels through every implementation that takes them (the FP16 one where the
    // coefficients are exact FP16 values).
    void check_custom(const FilterPlan& plan, const std::string& what) {
        if (has_alpha(src_.channels())) return check(plan, what);
        for (CustomPath path : {CustomPath::HalfMma, CustomPath::SmallKernel})
            if (cuda::custom_path_available(plan, src_.channels(), path)) check(plan, what, SeparablePath::Auto, path);
        check(plan, what, SeparablePath::Auto, CustomPath::Fp32);
    }

    static const char* custom_path_name(CustomPath path) {
        switch (path) {
            case CustomPath::HalfMma: return "fp16 mma";
            case CustomPath::SmallKernel: return "small kernel";
            case CustomPath::Fp32: return "fp32";
            default: return "auto";
        }
    }

    static const char* path_name(SeparablePath path) {
        switch (path) {
            case SeparablePath::HalfMma: return "fp16 mma";
            case SeparablePath::SmallRadius: return "small radius";
            case SeparablePath::ByteMma: return "u8 mma";
            case SeparablePath::Integer: return "integer";
            default: return "auto";
        }
    }


    cuda::FilterWorkspace& workspace() { return ws_; }

private:
    const ImageU8& src_;
    Layout layout_;
    DevImage d_src_;
    DevImage d_same_;
    DevImage d_gray_;
    cuda::FilterWorkspace ws_;
};

inline std::vector<Border> all_borders() {
    return {{BorderMode::Replicate, 0}, {BorderMode::Reflect, 0},     {BorderMode::Reflect101, 0},
            {BorderMode::Wrap, 0},      {BorderMode::Constant, 0},    {BorderMode::Constant, 77},
            {BorderMode::Constant, 255}};
}


// A w x h kernel of small integers and halves/quarters, both signs, not separable.
inline KernelMatrix random_matrix(int w, int h, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<double> v;
    for (int i = 0; i < w * h; ++i) v.push_back(static_cast<int>(rng() % 7) - 3 + 0.25 * static_cast<int>(rng() % 4));
    return matrix(w, h, v);
}

inline CustomKernelOptions options(bool normalize = false, std::optional<double> scale = {}, std::optional<double> offset = {},
                            bool flip = false) {
    CustomKernelOptions o;
    o.normalize = normalize;
    o.scale = scale;
    o.offset = offset;
    o.flip = flip;
    return o;
}

}  // namespace imgpar::test::gpu_filters
