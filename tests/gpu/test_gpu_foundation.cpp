// GPU foundations on a real device: backend selection, the context, device
// images with pitched rows, and CUDA errors becoming imgpar errors.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/gpu_runtime.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("gpu: the status lists a usable device with sane properties") {
    const GpuStatus& s = gpu_status();
    REQUIRE(s.usable());
    CHECK(s.built_with_cuda);
    CHECK(s.driver_version >= s.runtime_version);
    const GpuInfo& g = s.devices.at(0);
    CHECK(g.usable);
    CHECK_FALSE(g.name.empty());
    CHECK(g.compute_major >= 8);
    CHECK(g.multiprocessors > 0);
    CHECK(g.total_memory > (std::size_t{1} << 30));
    CHECK(g.free_memory > 0);
}

TEST_CASE("gpu: backend selection picks the GPU for auto, gpu and gpu:0; refuses a missing index") {
    BackendChoice a = select_backend(parse_device_request("auto"));
    CHECK(a.backend == Backend::Gpu);
    CHECK(a.fallback_reason.empty());
    CHECK(a.describe().find(gpu_status().devices[0].name) != std::string::npos);
    CHECK(select_backend(parse_device_request("gpu")).backend == Backend::Gpu);
    CHECK(select_backend(parse_device_request("gpu:0")).gpu_index == 0);
    CHECK(select_backend(parse_device_request("cpu")).backend == Backend::Cpu);
    try {
        select_backend(parse_device_request("gpu:99"));
        FAIL("gpu:99 should not be selectable");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Device);
        CHECK(std::string(e.what()).find("no GPU 99") != std::string::npos);
    }
    REQUIRE(static_cast<bool>(a.session));
    CHECK(a.session->device() == 0);
    CHECK(a.session->device_name() == gpu_status().devices[0].name);
}

TEST_CASE("gpu: device images round-trip every shape through pitched rows") {
    cudaStream_t stream = test::stream();
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : test::awkward_sizes()) {
            ImageU8 src = test::random_image(w, h, c, static_cast<unsigned>(w * 7 + h + c));
            cuda::DeviceImageU8 d = cuda::DeviceImageU8::from_host(src.view(), stream);
            CHECK(d.pitch() >= d.row_bytes());
            CHECK(d.pitch() % 16 == 0);
            ImageU8 back(w, h, c);
            back.fill(0xCD);
            d.download(back.view(), stream);
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
            IMGPAR_CHECK_IMAGES_EQUAL(src, back);
        }
}

TEST_CASE("gpu: a failing CUDA call becomes an imgpar error naming the call and place") {
    cuda::DeviceBuffer<int> buf(16);
    try {
        // Copying more bytes than the buffer has is an invalid argument.
        IMGPAR_CUDA_CHECK(cudaMemcpy(buf.get(), nullptr, std::size_t{1} << 40, cudaMemcpyHostToDevice));
        FAIL("expected an error");
    } catch (const Error& e) {
        std::string what = e.what();
        CHECK(e.kind() == ErrorKind::Device);
        CHECK(what.find("cudaMemcpy") != std::string::npos);
        CHECK(what.find("tests/gpu/test_gpu_foundation.cpp") != std::string::npos);
    }
    cudaGetLastError();
    try {
        cuda::DeviceBuffer<char> huge(std::size_t{1} << 50);
        FAIL("expected an allocation error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("cannot allocate") != std::string::npos);
    }
    cudaGetLastError();
}

TEST_CASE("gpu: a session's typed device images and staged copies round-trip u8, u16, u64 and f32, large and pitched") {
    gpu::Session& s = test::session();
    // Larger than one staging buffer (8 MiB), so the pieces alternate buffers.
    ImageU8 big = test::photo_like_image(3001, 1999, 3, 4);
    const DeviceViewU8 d8 = s.image<std::uint8_t>(gpu::Session::Slot::Input, 3001, 1999, 3);
    CHECK(d8.pitch % 256 == 0);
    s.upload(big.cview(), d8);
    ImageU8 back8(3001, 1999, 3);
    s.download(ConstDeviceViewU8(d8), back8.view());
    IMGPAR_CHECK_IMAGES_EQUAL(big, back8);

    ImageU64 sums(517, 33, 2);
    for (int y = 0; y < 33; ++y)
        for (int x = 0; x < 517; ++x)
            for (int c = 0; c < 2; ++c) sums.at(x, y, c) = (std::uint64_t{1} << 40) * c + std::uint64_t(y) * 517 + x;
    const DeviceView<std::uint64_t> d64 = s.image<std::uint64_t>(gpu::Session::Slot::Output, 517, 33, 2);
    s.upload(sums.cview(), d64);
    ImageU64 back64(517, 33, 2);
    s.download(DeviceView<const std::uint64_t>(d64), back64.view());
    IMGPAR_CHECK_IMAGES_EQUAL(sums, back64);

    ImageF32 reals(7, 5, 4);
    reals.fill(-0.375f);
    reals.at(6, 4, 3) = 1e30f;
    const DeviceView<float> df = s.image<float>(gpu::Session::Slot::Output, 7, 5, 4);
    s.upload(reals.cview(), df);
    ImageF32 backf(7, 5, 4);
    s.download(DeviceView<const float>(df), backf.view());
    IMGPAR_CHECK_IMAGES_EQUAL(reals, backf);

    ImageU16 deep(1, 1, 1);
    deep.at(0, 0, 0) = 65535;
    const DeviceView<std::uint16_t> d16 = s.image<std::uint16_t>(gpu::Session::Slot::Input, 1, 1, 1);
    s.upload(deep.cview(), d16);
    ImageU16 back16(1, 1, 1);
    s.download(DeviceView<const std::uint16_t>(d16), back16.view());
    CHECK(back16.at(0, 0, 0) == 65535);

    CHECK_THROWS_AS(s.upload(big.cview(), s.image<std::uint8_t>(gpu::Session::Slot::Input, 3000, 1999, 3)), Error);
}

TEST_CASE("gpu: sessions honour the device index they were opened on") {
    gpu::Session other(0);
    CHECK(other.device() == 0);
    CHECK_THROWS_AS(gpu::Session(static_cast<int>(gpu_status().devices.size())), Error);
    try {
        gpu::Session missing(99);
        FAIL("opened GPU 99");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Device);
        CHECK(std::string(e.what()).find("GPU 99") != std::string::npos);
    }
}
