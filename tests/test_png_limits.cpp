// PNG and memory: a header is read without anything row-sized, however wide
// the rows it claims; the estimate counts libpng's own rows (at 16 bits,
// palettes expanded) and the encoder's buffers. The files are built byte by
// byte (tests/support/hostile_files.hpp).
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/io/png_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::Bytes;

namespace {

std::uint64_t peak_rss_kib() {
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss);
}

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

}  // namespace

TEST_CASE("png limits: a header claiming 2^28 RGBA16 pixels a row is read in kilobytes, its rows counted") {
    if (!png_codec_available()) return;
    const Bytes wide = test::png_file(1 << 28, 1, 16, 6, {});
    const std::uint64_t before = peak_rss_kib();
    const auto t0 = std::chrono::steady_clock::now();
    LoadOptions headers;
    headers.images = 0;
    const ImageHeader h = read_image_header("wide.png", wide, headers);
    // It took 2 GiB and seconds: png_read_update_info's two rows.
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
    CHECK(peak_rss_kib() - before < 64 * 1024);
    CHECK(h.width == 1 << 28);
    CHECK(h.channels == 4);
    CHECK(h.bit_depth == 16);
    // Decoding would hold those rows, 8 bytes a pixel each, and the image.
    CHECK(h.decoder_bytes >= 2 * (std::uint64_t{8} << 28));
    LoadOptions decode;
    decode.max_memory = 4096 * kMiB;
    std::string refusal;
    try {
        read_image_header("wide.png", wide, decode);
    } catch (const Error& e) {
        refusal = e.what();
    }
    CHECK(test::has(refusal, "wide.png: 268435456x1 RGBA needs about 5.0 GiB of memory to decode"));
}

TEST_CASE("png limits: the channels read from the header are those decoding makes") {
    if (!png_codec_available()) return;
    struct Kind {
        int depth, colour, channels;
        std::vector<Bytes> before_data;
    };
    const Bytes palette = test::png_chunk("PLTE", Bytes(3 * 4, 7));
    const std::vector<Kind> kinds = {
        {1, 0, 1, {}},                                              // gray, 1 bit
        {16, 0, 2, {test::png_chunk("tRNS", {0, 9})}},              // gray, a transparent level
        {8, 4, 2, {}},                                              // gray + alpha
        {8, 2, 3, {}},                                              // RGB
        {16, 2, 4, {test::png_chunk("tRNS", {0, 1, 0, 2, 0, 3})}},  // RGB, a transparent colour
        {8, 3, 3, {palette}},                                       // palette
        {2, 3, 4, {palette, test::png_chunk("tRNS", {0, 128})}},    // palette with transparency
        {16, 6, 4, {}},                                             // RGBA
    };
    for (const Kind& k : kinds) {
        INFO("depth ", k.depth, " colour type ", k.colour);
        const int samples = k.colour == 3 ? 1 : k.colour == 2 ? 3 : k.colour == 4 ? 2 : k.colour == 6 ? 4 : 1;
        const std::size_t row = (static_cast<std::size_t>(5 * samples * k.depth) + 7) / 8;
        const Bytes png = test::png_file(5, 3, k.depth, k.colour, std::vector<Bytes>(3, Bytes(row, 1)), k.before_data);
        const PngHeaderInfo h = png_read_header("k.png", png);
        CHECK(h.channels == k.channels);
        CHECK(h.file_channels == samples);
        CHECK(decode_image("k.png", png, {}).image.channels() == k.channels);
        // libpng's rows at the widest pixel: 16-bit samples, expanded channels.
        const std::uint64_t pixel = static_cast<std::uint64_t>(std::max(samples, k.channels)) * (k.depth == 16 ? 2 : 1);
        CHECK(png_decode_memory(h) >= 2 * 5 * pixel);
    }
}

TEST_CASE("png limits: the encoder's estimate bounds the file it writes, on noise") {
    if (!png_codec_available()) return;
    for (const int channels : {1, 2, 3, 4}) {
        const ImageU8 noise = test::random_image(700, 900, channels, 5);
        PngEncodeOptions options;
        options.threads = 2;
        for (const int level : {0, 1, 6}) {
            options.compression = level;
            const std::vector<std::uint8_t> file = png_encode(noise.view(), options);
            const std::uint64_t estimate = png_encode_memory(700, 900, channels, 2, 0);
            INFO(channels, " channels, level ", level, ": ", file.size(), " bytes, estimate ", estimate);
            // The segments and the file, each at least as large as the file.
            CHECK(2 * file.size() <= estimate);
            CHECK(estimate < 2 * file.size() + 8 * kMiB);  // and the threads' scratch, a few MiB
        }
    }
}
