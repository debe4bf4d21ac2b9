// GPU summed-area tables against the CPU reference: byte-identical tables
// of every type, with and without squares, every channel count, awkward and
// tile-edge sizes, long single rows and columns, a 16 MP image; through the
// device form (packed table, pitched image) and through the operation as
// imgpar runs it (the session's pitched slots).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/integral.hpp"
#include "src/gpu/session.hpp"
#include "src/op/operation.hpp"
#include "src/ops/integral.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

// The device form into a packed device table (pitch = row bytes, not the
// session's 256-byte rows), copied back.
test::HostTable gpu_table(ConstViewU8 img, SumType type, bool squared, cuda::IntegralWorkspace& ws, int tile_rows = 0) {
    gpu::Session& s = test::session();
    const DeviceViewU8 in = s.image<std::uint8_t>(gpu::Session::Slot::Input, img.width, img.height, img.channels);
    s.upload(img, in);
    test::HostTable t = test::host_table(img.width, img.height, img.channels, type, squared);
    cuda::DeviceBuffer<unsigned char> device(t.bytes.size());
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(device.get(), 0xAB, t.bytes.size(), test::stream()));  // no entry left unwritten
    SumTableView d = t.view;
    d.data = device.get();
    cuda::integral(ConstDeviceViewU8(in), d, ws, test::stream(), tile_rows);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(t.bytes.data(), device.get(), t.bytes.size(), cudaMemcpyDeviceToHost, test::stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(test::stream()));
    t.view.data = t.bytes.data();
    return t;
}

// Equal bytes; else the first differing entry, from the reference's side.
void check_same(ConstViewU8 img, const test::HostTable& want, const test::HostTable& got) {
    REQUIRE(want.bytes.size() == got.bytes.size());
    if (want.bytes == got.bytes) return;
    CHECK(test::check_table_against_reference(img, want.view) == 0);
    CHECK_MESSAGE(test::check_table_against_reference(img, got.view) == 0, "the GPU table differs from the CPU's");
}

const SumType kTypes[] = {SumType::U32, SumType::U64, SumType::F64};

}  // namespace

TEST_CASE("gpu integral: every type, squares, channel count and awkward size gives the CPU's table") {
    std::vector<std::pair<int, int>> sizes = test::awkward_sizes();
    // Tile edges: 32 and 64 rows; 128 (RGB, RGBA), 256 (two channels) and
    // 512 (gray) pixels wide; a lane's 4, 8 or 16 pixels.
    for (int n : {3, 4, 5, 15, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1025}) {
        sizes.push_back({n, 65});
        sizes.push_back({65, n});
    }
    sizes.push_back({1, 5003});  // long single columns and rows: the boundary scans' loops
    sizes.push_back({5003, 1});
    sizes.push_back({1021, 1031});
    cuda::IntegralWorkspace ws;
    // Both tile heights on every case (an image this small gets the short
    // tiles by itself: forced, the tall ones too).
    const int runs = test::for_each_table_case(sizes, [&ws](const ImageU8& img, SumType type, bool squared) {
        const test::HostTable want = test::cpu_table(img.view(), type, squared);
        for (int rows : {cuda::IntegralPolicy::short_tile_rows, cuda::IntegralPolicy::tile_rows}) {
            CAPTURE(rows);
            check_same(img.view(), want, gpu_table(img.view(), type, squared, ws, rows));
        }
    });
    MESSAGE(runs, " tables compared, each with both tile heights");
}

TEST_CASE("gpu integral: an image whose rows are not 16-byte aligned (byte loads) gives the CPU's table") {
    // Rows packed (pitch = width * channels) and the first byte at an odd
    // address: the tiles read bytes instead of 16-byte vectors.
    cuda::IntegralWorkspace ws;
    for (int channels = 1; channels <= 4; ++channels)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {513, 67}, {1021, 130}, {130, 1021}}) {
            CAPTURE(channels);
            CAPTURE(w);
            CAPTURE(h);
            const ImageU8 img = test::photo_like_image(w, h, channels, 11);
            const std::size_t row = static_cast<std::size_t>(w) * channels;
            cuda::DeviceBuffer<std::uint8_t> packed(row * h + 1);
            IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(packed.get() + 1, row, img.view().data, img.view().stride, row, h,
                                                cudaMemcpyHostToDevice, test::stream()));
            const ConstDeviceViewU8 in{packed.get() + 1, w, h, channels, row};
            test::HostTable t = test::host_table(w, h, channels, SumType::U64, true);
            cuda::DeviceBuffer<unsigned char> device(t.bytes.size());
            SumTableView d = t.view;
            d.data = device.get();
            cuda::integral(in, d, ws, test::stream());
            IMGPAR_CUDA_CHECK(cudaMemcpyAsync(t.bytes.data(), device.get(), t.bytes.size(), cudaMemcpyDeviceToHost,
                                              test::stream()));
            IMGPAR_CUDA_CHECK(cudaStreamSynchronize(test::stream()));
            t.view.data = t.bytes.data();
            check_same(img.view(), test::cpu_table(img.view(), SumType::U64, true), t);
        }
}

TEST_CASE("gpu integral: a 16 MP image, every type, with squares; white at the 32-bit limit") {
    cuda::IntegralWorkspace ws;
    const ImageU8 photo = test::photo_like_image(4096, 4096, 1, 5);
    for (SumType type : kTypes) {
        CAPTURE(sum_type_name(type));
        const bool squared = type != SumType::U32;  // squares of 16 MP pass 32 bits
        check_same(photo.view(), test::cpu_table(photo.view(), type, squared), gpu_table(photo.view(), type, squared, ws));
    }
    const ImageU8 rgb = test::photo_like_image(4608, 3456, 3, 6);  // 16 MP RGB
    check_same(rgb.view(), test::cpu_table(rgb.view(), SumType::U64, true), gpu_table(rgb.view(), SumType::U64, true, ws));
    // 255 * 4096 * 4112 = 4294901760: the largest u32 total imgpar writes.
    const ImageU8 white = test::constant_image(4096, 4112, 1, 255);
    const test::HostTable t = gpu_table(white.view(), SumType::U32, false, ws);
    check_same(white.view(), test::cpu_table(white.view(), SumType::U32, false), t);
    CHECK(test::table_entry(t.view, 0, t.bytes.size() / 4 - 1) == 4294901760u);
}

TEST_CASE("gpu integral: through the operation, as imgpar runs it, the .npy bytes are the CPU's") {
    const Operation& op = *find_operation("integral");
    BackendChoice gpu;
    gpu.backend = Backend::Gpu;
    gpu.session = std::shared_ptr<gpu::Session>(&test::session(), [](gpu::Session*) {});
    const BackendChoice cpu;
    const ImageU8 photo = test::load_sample("chelsea.png");
    const ImageU8 big = test::photo_like_image(5000, 3400, 4, 9);
    for (const auto& values : {test::Values{}, test::Values{{"squared", ""}}, test::Values{{"dtype", "f64"}}})
        for (const ImageU8* img : {&photo, &big}) {
            const auto job = op.make_array_job(op.values(values));
            RunNotes cpu_notes, gpu_notes;
            const NpyFile want = job->run(cpu, img->view(), "img", cpu_notes);
            const NpyFile got = job->run(gpu, img->view(), "img", gpu_notes);
            REQUIRE(want.size() == got.size());
            CHECK(std::memcmp(want.bytes(), got.bytes(), want.size()) == 0);
            CHECK(gpu_notes.kernel.find("2-D tiled scan") == 0);
        }
    // A u32 table that could overflow is refused before any launch.
    cuda::IntegralWorkspace ws;
    const ImageU8 big_gray(6000, 4000, 1);
    CHECK_THROWS_AS(gpu_table(big_gray.view(), SumType::U32, false, ws), Error);
}
