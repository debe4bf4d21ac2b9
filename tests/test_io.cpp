// Image I/O: round trips, the decoder variants we promise, and every way an
// input or output can be bad.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>

#include "src/error.hpp"
#include "src/io/atomic_write.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/save.hpp"
#include "tests/support/png_reference.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::TempDir;

namespace {

std::vector<std::uint8_t> to_vec(const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); }

// A minimal PNG whose header (with a valid CRC, so that libpng reads it)
// claims `w` x `h` RGB; no image data follows.
std::string png_header_claiming(std::uint32_t w, std::uint32_t h) {
    std::string s("\x89PNG\r\n\x1a\n", 8);
    auto be = [&](std::uint32_t v) {
        for (int i = 3; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    be(13);
    s += "IHDR";
    be(w);
    be(h);
    s += std::string("\x08\x02\x00\x00\x00", 5);
    be(test::png_crc(reinterpret_cast<const std::uint8_t*>(s.data()) + 12, s.size() - 12));
    return s;
}

std::string error_of(const std::function<void()>& f, ErrorKind* kind = nullptr) {
    try {
        f();
    } catch (const Error& e) {
        if (kind) *kind = e.kind();
        return e.what();
    }
    return "";
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

double mean_abs_diff(const ImageU8& a, const ImageU8& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size_bytes(); ++i) sum += std::abs(int(a.data()[i]) - int(b.data()[i]));
    return sum / static_cast<double>(a.size_bytes());
}

}  // namespace

TEST_CASE("format detection by extension, name and signature") {
    CHECK(format_from_extension("a/b.PNG") == ImageFormat::Png);
    CHECK(format_from_extension("x.jpeg") == ImageFormat::Jpeg);
    CHECK(format_from_extension("x.JPG") == ImageFormat::Jpeg);
    CHECK(format_from_extension("x.bmp") == ImageFormat::Bmp);
    CHECK(format_from_extension("x.gif") == ImageFormat::Gif);
    CHECK(format_from_extension("x.WebP") == ImageFormat::Webp);
    CHECK(format_from_extension("x.avif") == ImageFormat::Avif);
    CHECK_FALSE(format_from_extension("x.heic").has_value());
    CHECK_FALSE(format_from_extension("dir.png/file").has_value());
    CHECK(parse_format_name("jpg") == ImageFormat::Jpeg);
    CHECK(parse_format_name("tiff") == ImageFormat::Tiff);
    CHECK(format_from_extension("x.TIF") == ImageFormat::Tiff);
    CHECK_THROWS_AS(parse_format_name("xcf"), Error);
    auto png = test::read_bytes(test::sample_path("camera.png"));
    CHECK(sniff_format(reinterpret_cast<const std::uint8_t*>(png.data()), png.size()) == ImageFormat::Png);
    auto jpg = test::read_bytes(test::sample_path("rocket.jpg"));
    CHECK(sniff_format(reinterpret_cast<const std::uint8_t*>(jpg.data()), jpg.size()) == ImageFormat::Jpeg);
}

TEST_CASE("PNG round trip is exact for every channel count and odd sizes") {
    TempDir dir;
    for (int c = 1; c <= 4; ++c)
        for (auto [w, h] : {std::pair{1, 1}, {1, 9}, {9, 1}, {37, 23}}) {
            ImageU8 img = test::random_image(w, h, c, static_cast<unsigned>(c * 100 + w));
            std::vector<std::string> warnings;
            std::string path = dir.file("rt.png");
            save_image(path, img.view(), {}, warnings);
            CHECK(warnings.empty());
            LoadedImage back = load_image(path);
            CHECK(back.header.format == ImageFormat::Png);
            IMGPAR_CHECK_IMAGES_EQUAL(img, back.image);
        }
}

TEST_CASE("JPEG round trip stays within a stated tolerance") {
    // Quality 92 on a real photo: mean absolute error below 2 levels.
    TempDir dir;
    for (const char* name : {"camera.png", "chelsea.png"}) {
        ImageU8 img = test::load_sample(name);
        std::vector<std::string> warnings;
        save_image(dir.file("rt.jpg"), img.view(), {}, warnings);
        LoadedImage back = load_image(dir.file("rt.jpg"));
        REQUIRE(back.image.width() == img.width());
        // libjpeg-turbo keeps gray as gray; stb's encoder (builds without it)
        // always writes three YCbCr components, so gray comes back as R=G=B.
        const bool gray_stays = jpeg_codec_available();
        REQUIRE(back.image.channels() == (gray_stays ? img.channels() : 3));
        ImageU8 expected = img;
        if (img.channels() == 1 && !gray_stays) {
            expected = ImageU8(img.width(), img.height(), 3);
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    for (int c = 0; c < 3; ++c) expected.at(x, y, c) = img.at(x, y, 0);
        }
        CHECK(mean_abs_diff(expected, back.image) < 2.0);
    }
}

TEST_CASE("JPEG quality changes the size; alpha is dropped with a warning") {
    ImageU8 img = test::load_sample("chelsea_alpha.png");
    REQUIRE(img.channels() == 4);
    std::vector<std::string> warnings;
    auto q30 = encode_image(img.view(), ImageFormat::Jpeg, 30, warnings);
    CHECK(warnings.size() == 1);
    CHECK(contains(warnings[0], "alpha dropped"));
    auto q95 = encode_image(img.view(), ImageFormat::Jpeg, 95, warnings);
    CHECK(q30.size() < q95.size());
    LoadedImage back = decode_image("mem", q95, {});
    CHECK(back.image.channels() == 3);
    CHECK_THROWS_AS(encode_image(img.view(), ImageFormat::Jpeg, 0, warnings), Error);
    CHECK_THROWS_AS(encode_image(img.view(), ImageFormat::Jpeg, 101, warnings), Error);
}

TEST_CASE("BMP round trip: RGB and RGBA exact, gray reads back as RGB") {
    std::vector<std::string> warnings;
    for (int c : {3, 4}) {
        ImageU8 img = test::random_image(13, 7, c, 5);
        auto bytes = encode_image(img.view(), ImageFormat::Bmp, 0, warnings);
        LoadedImage back = decode_image("mem.bmp", bytes, {});
        IMGPAR_CHECK_IMAGES_EQUAL(img, back.image);
    }
    ImageU8 gray = test::random_image(5, 3, 1, 6);
    LoadedImage back = decode_image("g.bmp", encode_image(gray.view(), ImageFormat::Bmp, 0, warnings), {});
    REQUIRE(back.image.channels() == 3);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x)
            for (int c = 0; c < 3; ++c) CHECK(back.image.at(x, y, c) == gray.at(x, y, 0));
}

TEST_CASE("decoder variants: palette, palette+tRNS, 16-bit, gray+alpha, progressive and CMYK JPEG") {
    LoadedImage pal = load_image(test::data_path("palette.png"));
    CHECK(pal.image.channels() == 3);
    CHECK(pal.image.width() == 64);
    LoadedImage trns = load_image(test::data_path("palette_trns.png"));
    CHECK(trns.image.channels() == 4);
    LoadedImage g16 = load_image(test::data_path("gray16.png"));
    CHECK(g16.header.bit_depth == 16);
    CHECK(g16.image.channels() == 1);
    REQUIRE(g16.warnings.size() == 1);
    CHECK(contains(g16.warnings[0], "16-bit"));
    // The ramp runs from 0 to 65535: reduced to 8 bits it spans 0..255 in order.
    CHECK(g16.image.at(0, 0, 0) == 0);
    CHECK(g16.image.at(63, 42, 0) == 255);
    CHECK(g16.image.at(10, 20, 0) <= g16.image.at(11, 20, 0));
    LoadedImage la = load_image(test::data_path("gray_alpha.png"));
    CHECK(la.image.channels() == 2);
    CHECK(la.image.at(10, 5, 1) == 40);
    LoadedImage cmyk = load_image(test::data_path("cmyk.jpg"));
    CHECK(cmyk.image.channels() == 3);
    LoadedImage prog = load_image(test::data_path("progressive.jpg"));
    CHECK(prog.image.channels() == 3);
    // Both JPEGs hold the same picture; CMYK conversion must land near the RGB one.
    CHECK(mean_abs_diff(prog.image, cmyk.image) < 12.0);
}

TEST_CASE("bad inputs: each error names the file and the reason") {
    TempDir dir;
    ErrorKind kind = ErrorKind::Usage;
    std::string e = error_of([&] { load_image(dir.file("missing.png")); }, &kind);
    CHECK(kind == ErrorKind::Input);
    CHECK(contains(e, "missing.png"));
    CHECK(contains(e, "no such file"));

    test::write_bytes(dir.file("empty.png"), "");
    e = error_of([&] { load_image(dir.file("empty.png")); });
    CHECK(contains(e, "empty.png"));
    CHECK(contains(e, "empty"));

    test::write_bytes(dir.file("notes.png"), "these are not pixels\n");
    e = error_of([&] { load_image(dir.file("notes.png")); });
    CHECK(contains(e, "not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image"));

    test::write_bytes(dir.file("layers.png"), "8BPS\x00\x01\x00\x00");
    e = error_of([&] { load_image(dir.file("layers.png")); });
    CHECK(contains(e, "PSD files are not supported"));

    std::string png = test::read_bytes(test::sample_path("camera.png"));
    for (std::size_t cut : {std::size_t{7}, std::size_t{20}, std::size_t{40}, png.size() / 2, png.size() - 20}) {
        test::write_bytes(dir.file("cut.png"), png.substr(0, cut));
        e = error_of([&] { load_image(dir.file("cut.png"), {}); }, &kind);
        CHECK_MESSAGE(kind == ErrorKind::Input, "cut at ", cut);
        CHECK_MESSAGE(contains(e, "cut.png"), "cut at ", cut, ": ", e);
    }

    std::string jpg = test::read_bytes(test::sample_path("rocket.jpg"));
    test::write_bytes(dir.file("cut.jpg"), jpg.substr(0, jpg.size() / 3));
    e = error_of([&] { load_image(dir.file("cut.jpg")); });
    CHECK(contains(e, "cut.jpg"));
    CHECK(contains(e, "truncated"));

    // Garbage after a valid PNG header and signature.
    std::string corrupt = png.substr(0, 33) + std::string(2000, '\x42');
    test::write_bytes(dir.file("corrupt.png"), corrupt);
    e = error_of([&] { load_image(dir.file("corrupt.png")); }, &kind);
    CHECK(kind == ErrorKind::Input);
    CHECK(contains(e, "corrupt.png"));

    // A PNG named .jpg is read by its content.
    test::write_bytes(dir.file("really_png.jpg"), png);
    CHECK(load_image(dir.file("really_png.jpg")).header.format == ImageFormat::Png);

    e = error_of([&] { load_image(dir.path()); });
    CHECK(contains(e, "is a directory"));
}

TEST_CASE("hostile header: 100000x100000 is refused at once, before decoding") {
    auto bytes = to_vec(png_header_claiming(100000, 100000));
    auto t0 = std::chrono::steady_clock::now();
    std::string e = error_of([&] { decode_image("huge.png", bytes, {}); });
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(contains(e, "huge.png"));
    CHECK(contains(e, "100000x100000"));
    CHECK(contains(e, "--max-pixels"));
    CHECK(ms < 50.0);  // generous: it is a header read, not a decode
    // Under the default limit but over a user limit.
    LoadOptions small;
    small.max_pixels = 1000;
    e = error_of([&] { load_image(test::sample_path("rocket.jpg"), small); });
    CHECK(contains(e, "640x427"));
    CHECK(contains(e, "limit of 1000"));
    // Above stb's own 1 GiB limit but allowed by a raised --max-pixels: still a clear message.
    LoadOptions big;
    big.max_pixels = std::uint64_t{1} << 40;
    e = error_of([&] { decode_image("wide.png", bytes, big); });
    CHECK(contains(e, "wide.png"));
    CHECK(contains(e, "100000x100000"));
}

TEST_CASE("atomic write: replaces, keeps permissions, never leaves partial files") {
    TempDir dir;
    std::string target = dir.file("out.png");
    write_file_atomically(target, "abc", 3);
    CHECK(test::read_bytes(target) == "abc");
    ::chmod(target.c_str(), 0640);
    write_file_atomically(target, "defg", 4);
    CHECK(test::read_bytes(target) == "defg");
    struct stat st{};
    ::stat(target.c_str(), &st);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(dir.entries() == std::vector<std::string>{"out.png"});

    ErrorKind kind = ErrorKind::Usage;
    std::string e = error_of([&] { write_file_atomically(dir.file("nodir/x.png"), "a", 1); }, &kind);
    CHECK(kind == ErrorKind::Output);
    CHECK(contains(e, "does not exist"));
    e = error_of([&] { write_file_atomically(dir.path(), "a", 1); });
    CHECK(contains(e, "is a directory"));
    CHECK(dir.entries() == std::vector<std::string>{"out.png"});
}

TEST_CASE("a failed save leaves an existing file untouched") {
    TempDir dir;
    std::string target = dir.file("keep.png");
    test::write_bytes(target, "precious");
    ImageU8 img = test::random_image(4, 4, 3);
    std::vector<std::string> warnings;
    SaveOptions bad;
    bad.quality = 0;
    CHECK_THROWS_AS(save_image(dir.file("keep.jpg"), img.view(), bad, warnings), Error);
    CHECK_THROWS_AS(save_image(dir.file("keep.xcf"), img.view(), {}, warnings), Error);
    CHECK(test::read_bytes(target) == "precious");
    CHECK(dir.entries() == std::vector<std::string>{"keep.png"});
}

TEST_CASE("output format: --format for names that cannot tell, never against the extension; '-' needs it") {
    CHECK(output_format("x.jpeg", std::nullopt) == ImageFormat::Jpeg);
    CHECK(output_format("x.JPG", ImageFormat::Jpeg) == ImageFormat::Jpeg);
    CHECK(output_format("x", ImageFormat::Jpeg) == ImageFormat::Jpeg);
    CHECK(output_format("x.heic", ImageFormat::Png) == ImageFormat::Png);
    ErrorKind kind = ErrorKind::Input;
    // JPEG bytes in a file named .png: refused, naming both.
    std::string e = error_of([&] { output_format("x.png", ImageFormat::Jpeg); }, &kind);
    CHECK(kind == ErrorKind::Usage);
    CHECK(contains(e, "x.png"));
    CHECK(contains(e, "--format says jpeg"));
    e = error_of([&] { output_format("-", std::nullopt); }, &kind);
    CHECK(kind == ErrorKind::Usage);
    CHECK(contains(e, "--format"));
    e = error_of([&] { output_format("x.webp", std::nullopt); }, &kind);
    CHECK(kind == ErrorKind::Usage);
}
