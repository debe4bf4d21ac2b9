// 16-bit GPU summed-area tables against the CPU's, byte for byte: every type
// that holds the bound, with and without squares, every channel count, odd
// sizes, tall images (many column chunks), unaligned device images; through
// the device form and through the session's entry point.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/integral.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/integral.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/gpu_u16_support.hpp"
#include "tests/support/integral_reference.hpp"
#include "tests/support/report_images16.hpp"

using namespace imgpar;

namespace {

// The device form into a packed device table filled with 0xAB first (an
// entry left unwritten shows), copied back.
test::HostTable gpu_table16(ConstDeviceViewU16 src, SumType type, bool squared, cuda::IntegralWorkspace& ws,
                            int tile_rows = 0) {
    test::HostTable t = test::host_table(src.width, src.height, src.channels, type, squared);
    cuda::DeviceBuffer<unsigned char> device(t.bytes.size());
    IMGPAR_CUDA_CHECK(cudaMemsetAsync(device.get(), 0xAB, t.bytes.size(), test::stream()));
    SumTableView d = t.view;
    d.data = device.get();
    cuda::integral(src, d, ws, test::stream(), tile_rows);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(t.bytes.data(), device.get(), t.bytes.size(), cudaMemcpyDeviceToHost, test::stream()));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(test::stream()));
    t.view.data = t.bytes.data();
    return t;
}

void check16(const ImageU16& img, SumType type, bool squared, cuda::IntegralWorkspace& ws, int tile_rows = 0) {
    const test::HostTable want = test::cpu_table(img.view(), type, squared);
    const test::HostTable got = gpu_table16(ConstDeviceViewU16(test::upload16(img)), type, squared, ws, tile_rows);
    REQUIRE(want.bytes.size() == got.bytes.size());
    if (want.bytes != got.bytes) {
        CHECK(test::check_table_against_reference(img.view(), want.view) == 0);
        CHECK_MESSAGE(test::check_table_against_reference(img.view(), got.view) == 0, "the GPU table differs from the CPU's");
    }
    const test::UnalignedDeviceImage16 odd(img, test::stream());
    const test::HostTable got_odd = gpu_table16(ConstDeviceViewU16(odd.ref), type, squared, ws, tile_rows);
    if (want.bytes != got_odd.bytes)  // the first differing entry, as (x, y, channel, plane)
        CHECK_MESSAGE(test::check_table_against_reference(img.view(), got_odd.view) == 0,
                      "unaligned image: the GPU table differs from the CPU's");
}

bool holds(SumType type, int w, int h, bool squared) {
    const std::uint64_t bound = integral_bound(w, h, squared, 65535);
    if (type == SumType::U32) return bound <= std::numeric_limits<std::uint32_t>::max();
    if (type == SumType::F64) return bound <= (std::uint64_t{1} << 53);
    return true;
}

}  // namespace

TEST_CASE("GPU integral u16: every type, squares, channel count and odd size gives the CPU's table") {
    cuda::IntegralWorkspace ws;
    int runs = 0;
    for (auto [w, h] : test::report_sizes16())
        for (int c = 1; c <= 4; ++c)
            for (SumType type : {SumType::U32, SumType::U64, SumType::F64})
                for (bool squared : {false, true}) {
                    if (!holds(type, w, h, squared)) continue;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(sum_type_name(type));
                    CAPTURE(squared);
                    const ImageU16 img = runs % 3 == 2 ? test::flat_image16(w, h, c, 65535)
                                                       : test::random_runs_image16(w, h, c, static_cast<unsigned>(runs));
                    check16(img, type, squared, ws);
                    ++runs;
                }
    CHECK(runs > 300);
}

// A tile is 32 lanes of 16 bytes (24 for RGB): 256 gray pixels wide, 128
// two-channel or RGB, 64 RGBA; 32 or 64 rows tall. Widths and heights just
// inside, on and past a tile's, with both heights forced; white images reach
// the 64-bit squares' largest tile sums.
TEST_CASE("GPU integral u16: tile edges at both tile heights") {
    cuda::IntegralWorkspace ws;
    for (int c = 1; c <= 4; ++c) {
        const int tw = c == 3 ? 128 : 256 / c;
        for (int w : {tw - 1, tw, tw + 1, 2 * tw + 1})
            for (int h : {31, 32, 33, 64, 65, 129})
                for (int rows : {cuda::IntegralPolicy::short_tile_rows, cuda::IntegralPolicy::tile_rows})
                    for (bool squared : {false, true}) {
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(h);
                        CAPTURE(rows);
                        CAPTURE(squared);
                        const ImageU16 img = (w + h) % 2 == 0 ? test::flat_image16(w, h, c, 65535)
                                                              : test::random_runs_image16(w, h, c, static_cast<unsigned>(w * h));
                        check16(img, SumType::U64, squared, ws, rows);
                    }
    }
}

TEST_CASE("GPU integral u16: tall and wide images, and the session's entry point") {
    cuda::IntegralWorkspace ws;
    for (auto [w, h] : std::vector<std::pair<int, int>>{{3, 4099}, {4099, 3}, {257, 1025}, {1920, 1080}})
        for (int c : {1, 3})
            for (bool squared : {false, true}) {
                CAPTURE(w);
                CAPTURE(h);
                CAPTURE(c);
                CAPTURE(squared);
                check16(test::random_runs_image16(w, h, c, static_cast<unsigned>(w * h)), SumType::U64, squared, ws);
            }
    const ImageU16 img = test::random_runs_image16(641, 479, 4, 12);
    const test::HostTable want = test::cpu_table(img.view(), SumType::U64, true);
    gpu::Session& s = test::session();
    const DeviceViewU16 in = test::upload16(img);
    test::HostTable t = test::host_table(641, 479, 4, SumType::U64, true);
    const std::size_t rows = static_cast<std::size_t>(t.view.planes) * t.view.height;
    const DeviceViewU8 bytes = s.image<std::uint8_t>(gpu::Session::Slot::Aux, static_cast<int>(t.view.row_bytes()),
                                                     static_cast<int>(rows), 1);
    SumTableView device = t.view;
    device.data = bytes.data;
    device.pitch = bytes.pitch;
    std::string kernel;
    gpu::integral(s, ConstDeviceViewU16(in), device, &kernel);
    s.download(ConstDeviceViewU8(bytes), ViewU8{t.bytes.data(), bytes.width, bytes.height, 1, t.view.row_bytes()});
    CHECK(t.bytes == want.bytes);
    CHECK(kernel.find("16-bit") != std::string::npos);
}
