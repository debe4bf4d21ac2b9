// GPU filters on 16-bit images (cuda/filter_u16.cu) against the 16-bit CPU
// reference, exactly: every filter kind, 1 to 4 channels, every border rule,
// odd sizes and sizes around the kernels' tiles (32-pixel column tiles,
// 128-pixel row segments, 32-row 2-D tiles), three device layouts, large
// radii, and the job's run on the GPU through a session.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/filter.hpp"
#include "src/gpu/session.hpp"
#include "src/op/operation.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_ops.hpp"
#include "tests/support/filter_reference_u16.hpp"
#include "tests/support/filter_support.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::matrix;

namespace {

// Pitched (cudaMallocPitch rows), packed (pitch = row bytes) or odd (rows
// 2 bytes past a 4-byte boundary, pitch row + 6 bytes: no vector access
// anywhere, every 16-bit sample still aligned).
enum class Layout16 { Pitched, Packed, Odd };

const char* layout_name(Layout16 l) {
    switch (l) {
        case Layout16::Pitched: return "pitched";
        case Layout16::Packed: return "packed";
        case Layout16::Odd: return "odd";
    }
    return "?";
}

struct Dev16 {
    cuda::DeviceImageU16 pitched;
    cuda::DeviceBuffer<std::uint8_t> raw;
    DeviceViewU16 ref;
};

Dev16 make_dev16(int w, int h, int c, Layout16 layout) {
    Dev16 d;
    if (layout == Layout16::Pitched) {
        d.pitched = cuda::DeviceImageU16(w, h, c);
        d.ref = d.pitched.view();
        return d;
    }
    const std::size_t row = static_cast<std::size_t>(w) * c * 2;
    const std::size_t pitch = layout == Layout16::Packed ? row : row + 6;
    const std::size_t offset = layout == Layout16::Packed ? 0 : 2;
    // Exactly the bytes the image covers, so a read past the end is out of bounds.
    d.raw = cuda::DeviceBuffer<std::uint8_t>(offset + pitch * static_cast<std::size_t>(h - 1) + row);
    d.ref = {reinterpret_cast<std::uint16_t*>(d.raw.get() + offset), w, h, c, pitch};
    return d;
}

void upload(const Dev16& d, const ImageU16& img) {
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(d.ref.data, d.ref.pitch, img.data(), img.stride(), img.row_bytes(),
                                        static_cast<std::size_t>(img.height()), cudaMemcpyHostToDevice,
                                        test::stream()));
}

ImageU16 download(const Dev16& d) {
    ImageU16 img(d.ref.width, d.ref.height, d.ref.channels);
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(img.data(), img.stride(), d.ref.data, d.ref.pitch, img.row_bytes(),
                                        static_cast<std::size_t>(img.height()), cudaMemcpyDeviceToHost,
                                        test::stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(test::stream()));
    return img;
}

// One 16-bit source on the device, filtered with many plans into poisoned
// outputs through one workspace, each result compared with the CPU's.
class Bench16 {
public:
    explicit Bench16(const ImageU16& src, Layout16 layout = Layout16::Pitched)
        : src_(src), layout_(layout), d_src_(make_dev16(src.width(), src.height(), src.channels(), layout)) {
        upload(d_src_, src_);
    }

    // Gaussians and unsharp run twice: the default path (the integer
    // kernels) and, on gray and RGB, the tensor-core ring (the integer kernels
    // again with alpha).
    void check(const FilterPlan& plan, const std::string& what) {
        const bool separable = plan.kind == FilterKind::Gaussian || plan.kind == FilterKind::Unsharp;
        check_path(plan, what, cuda::SeparablePath::Auto);
        if (separable)
            check_path(plan, what, src_.channels() % 2 == 1 ? cuda::SeparablePath::ByteMma : cuda::SeparablePath::Integer);
    }

    int checked = 0;

private:
    void check_path(const FilterPlan& plan, const std::string& what, cuda::SeparablePath path) {
        ws_.set_separable_path(path);
        const int oc = plan.output_channels(src_.channels());
        Dev16& dst = oc == src_.channels() ? same_ : gray_;
        if (dst.ref.data == nullptr) dst = make_dev16(src_.width(), src_.height(), oc, layout_);
        const int poison = (poison_++ & 1) ? 0xA7 : 0x5C;
        IMGPAR_CUDA_CHECK(cudaMemset2DAsync(dst.ref.data, dst.ref.pitch, poison, dst.ref.row_bytes(),
                                            static_cast<std::size_t>(dst.ref.height), test::stream()));
        const char* kernel = cuda::apply_filter(plan, d_src_.ref, dst.ref, ws_, test::stream());
        const ImageU16 got = download(dst);
        const ImageU16 expect = cpu::apply_filter(plan, src_.view());
        INFO(what, " | ", plan.describe(), " | ", src_.width(), "x", src_.height(), " ",
             std::string(channel_layout_name(src_.channels())), " u16 | ", layout_name(layout_), " | ", kernel);
        INFO((path == cuda::SeparablePath::ByteMma ? "tensor-core ring" : "integer kernels"));
        IMGPAR_CHECK_IMAGES_EQUAL(expect, got);
        ++checked;
    }

    const ImageU16& src_;
    Layout16 layout_;
    Dev16 d_src_, same_, gray_;
    cuda::FilterWorkspace ws_;
    int poison_ = 0;
};

std::vector<Border> borders16() {
    return {{BorderMode::Replicate, 0}, {BorderMode::Reflect, 0},   {BorderMode::Reflect101, 0}, {BorderMode::Wrap, 0},
            {BorderMode::Constant, 0},  {BorderMode::Constant, 77}, {BorderMode::Constant, 255}};
}

CustomKernelOptions opts(bool normalize, std::optional<double> scale = {}, std::optional<double> offset = {},
                         bool flip = false) {
    CustomKernelOptions o;
    o.normalize = normalize;
    o.scale = scale;
    o.offset = offset;
    o.flip = flip;
    return o;
}

std::vector<FilterPlan> plans16(const Border& b) {
    return {make_gaussian(0.5, 0, b),
            make_gaussian(1.0, 0, b),
            make_gaussian(3.0, 0, b),
            make_gaussian(2.0, 40, b),  // a halo past the small images
            make_unsharp(1.5, 0, 1.2, 0.02, b),
            make_unsharp(1.0, 0, 20.0, 0.0, b),
            make_box(1, b),
            make_box(15, b),
            make_box(40, b),
            make_custom(matrix(3, 3, {0.1, 0.2, 0.3, -0.4, 1.7, 0, 0.33, 0, 0}), opts(false, {}, 12.5, true), b),
            make_custom(matrix(4, 6, {1, -2, 3, 0, 2, 2, -1, 1, 0, 4, 1, 1, -3, 2, 1, 0, 1, 1, 1, 2, 0.5, 0.25, -1, 3}),
                        opts(true), b),
            make_custom(matrix(1, 5, {-1, 0, 2, 0, 1}), opts(false, -3.0, 100.0), b),
            make_edges(EdgeOperator::Sobel, false, b),
            make_edges(EdgeOperator::Scharr, true, b),
            make_edges(EdgeOperator::Scharr, false, b),
            make_edges(EdgeOperator::Laplacian, false, b),
            make_edges(EdgeOperator::Laplacian, true, b)};
}

}  // namespace

TEST_CASE("GPU 16-bit filters: every kind, 1-4 channels, every border, odd sizes and tile sizes +-1") {
    const std::vector<std::pair<int, int>> sizes = {{1, 1},   {1, 9},   {9, 1},   {2, 3},    {7, 5},   {31, 7},
                                                    {32, 8},  {33, 9},  {63, 31}, {65, 33},  {97, 61}, {127, 3},
                                                    {128, 2}, {129, 5}, {1, 130}, {257, 17}, {37, 129}};
    int checked = 0;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : sizes) {
            const ImageU16 src = test::random_u16(w, h, c, static_cast<unsigned>(w * 977 + h * 13 + c));
            Bench16 gpu(src);
            for (const Border& b : borders16())
                for (const FilterPlan& p : plans16(b)) gpu.check(p, "sizes");
            checked += gpu.checked;
        }
    // 17 plans, the 6 Gaussian and unsharp ones on both paths; 7 borders; 17 sizes; 4 layouts.
    CHECK(checked == 4 * (17 + 6) * 7 * 17);
}

TEST_CASE("GPU 16-bit filters: packed and odd device layouts") {
    for (Layout16 layout : {Layout16::Packed, Layout16::Odd})
        for (int c = 1; c <= 4; ++c)
            for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {13, 7}, {33, 35}, {130, 9}}) {
                const ImageU16 src = test::random_u16(w, h, c, static_cast<unsigned>(w + 3 * h + 5 * c));
                Bench16 gpu(src, layout);
                for (const FilterPlan& p : plans16(Border{BorderMode::Reflect101, 0})) gpu.check(p, "layouts");
            }
}

TEST_CASE("GPU 16-bit filters: large radii and kernels (Gaussian r=150, box R=1000, custom 63x63)") {
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 src = test::random_u16(301, 157, c, 4242u + static_cast<unsigned>(c));
        Bench16 gpu(src);
        std::vector<double> big(63 * 63);
        for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(static_cast<int>(i * 37 % 11) - 5);
        for (const Border& b :
             {Border{BorderMode::Replicate, 0}, Border{BorderMode::Wrap, 0}, Border{BorderMode::Constant, 200}}) {
            gpu.check(make_gaussian(50.0, 0, b), "large");
            gpu.check(make_unsharp(20.0, 0, 3.0, 0.1, b), "large");
            gpu.check(make_box(1000, b), "large");
            gpu.check(make_box(100, b), "large");
            gpu.check(make_custom(matrix(63, 63, big), opts(false, 7.0, -3.0), b), "large");
            gpu.check(make_custom(matrix(63, 1, std::vector<double>(big.begin(), big.begin() + 63)), opts(true), b),
                      "large");
        }
    }
}

TEST_CASE("GPU 16-bit filters: constant images, extremes and low alpha") {
    for (int c = 1; c <= 4; ++c)
        for (int v : {0, 1, 2, 257, 32768, 65534, 65535}) {
            ImageU16 src(45, 37, c);
            src.fill(static_cast<std::uint16_t>(v));
            Bench16 gpu(src);
            for (const Border& b :
                 {Border{BorderMode::Replicate, 0}, Border{BorderMode::Constant, 1}, Border{BorderMode::Constant, 255}})
                for (const FilterPlan& p : plans16(b)) gpu.check(p, "constant " + std::to_string(v));
        }
}

TEST_CASE("GPU 16-bit filter jobs: run on the GPU through a session, the same samples as the CPU, the kernel named") {
    for (const char* name : {"blur", "box", "sharpen", "edges", "convolve"}) {
        const Operation* op = find_operation(name);
        REQUIRE(op != nullptr);
        std::vector<std::pair<std::string, std::string>> given;
        if (std::string(name) == "convolve") given = {{"kernel", "1 2 1; 2 4 2; 1 2 1"}, {"normalize", ""}};
        const auto job = op->make_image_job(op->values(given));
        REQUIRE(job->takes_u16());
        for (int c = 1; c <= 4; ++c) {
            const ImageU16 src = test::random_u16(83, 41, c, 17u + static_cast<unsigned>(c));
            RunNotes cpu_notes, gpu_notes;
            const ImageU16 want = job->run_cpu(src.view(), cpu_notes);
            const ImageU16 got = job->run(test::gpu_backend(), src.view(), gpu_notes);
            INFO(name, " ", channel_layout_name(c), " | ", gpu_notes.kernel);
            CHECK(gpu_notes.kernel.find("16-bit") != std::string::npos);
            IMGPAR_CHECK_IMAGES_EQUAL(want, got);
        }
    }
}

TEST_CASE("GPU 16-bit filters: a column taller than a grid's 65535 tiles, and a long row") {
    // 1 x 2,200,000 needs more than 65535 32- or 64-row tiles: the kernels
    // stride over rows of tiles.
    for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 2200000}, {200003, 1}})
        for (int c : {1, 4}) {
            const ImageU16 src = test::random_u16(w, h, c, 31u + static_cast<unsigned>(c));
            Bench16 gpu(src);
            for (const Border& b : {Border{BorderMode::Reflect101, 0}, Border{BorderMode::Constant, 9}})
                for (const FilterPlan& p :
                     {make_gaussian(1.0, 0, b), make_gaussian(8.0, 0, b), make_unsharp(1.0, 0, 2.0, 0.0, b),
                      make_box(3, b), make_edges(EdgeOperator::Sobel, false, b),
                      make_custom(matrix(3, 3, {1, 2, 1, 0, -1, 0, 2, 1, 3}), opts(true), b)})
                    gpu.check(p, "long");
        }
}
