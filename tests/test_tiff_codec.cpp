// TIFF through libtiff: imgpar's files read back exactly (each compression,
// layout and awkward size, 8 and 16 bits), and files libtiff itself wrote
// in each layout imgpar reads decode to their samples.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cmath>
#include <csignal>

#include "src/error.hpp"
#include "src/io/load.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/save.hpp"
#include "src/io/tiff_codec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/tiff_writer.hpp"

using namespace imgpar;

#if IMGPAR_HAVE_LIBTIFF

namespace {

std::vector<std::uint8_t> file_bytes(const std::string& path) {
    const std::string s = test::read_bytes(path);
    return {s.begin(), s.end()};
}

LoadedImage decode_file(const std::string& path, LoadOptions options = {}) {
    return decode_image(path, file_bytes(path), options);
}

// The page's values as imgpar's 8-bit image when they are already its
// pixels (8-bit gray/RGB with or without unassociated alpha).
ImageU8 as_image(const test::TiffPage& p) {
    ImageU8 img(p.width, p.height, p.samples);
    for (std::size_t i = 0; i < p.values.size(); ++i) img.data()[i] = static_cast<std::uint8_t>(p.values[i]);
    return img;
}

ImageU16 as_image16(const test::TiffPage& p) {
    ImageU16 img(p.width, p.height, p.samples);
    for (std::size_t i = 0; i < p.values.size(); ++i) img.data()[i] = static_cast<std::uint16_t>(p.values[i]);
    return img;
}

ImageU16 random16(int w, int h, int c, unsigned seed) {
    ImageU16 img(w, h, c);
    std::uint32_t s = seed;
    for (std::size_t i = 0; i < img.sample_count(); ++i) {
        s = s * 1664525u + 1013904223u;
        img.data()[i] = static_cast<std::uint16_t>(s >> 16);
    }
    return img;
}

}  // namespace

TEST_CASE("TIFF: imgpar's files decode to their pixels, each compression, layout and awkward size") {
    REQUIRE(tiff_codec_available());
    const std::vector<std::pair<int, int>> sizes = {{1, 1}, {1, 7}, {7, 1}, {13, 11}, {301, 203}, {97, 700}};
    int files = 0;
    for (TiffCompression c : {TiffCompression::None, TiffCompression::Lzw, TiffCompression::Deflate})
        for (int channels = 1; channels <= 4; ++channels)
            for (auto [w, h] : sizes) {
                const ImageU8 img = channels % 2 == 0 ? test::alpha_image(w, h, channels, static_cast<unsigned>(w + h))
                                                      : test::photo_like_image(w, h, channels, static_cast<unsigned>(w * h));
                TiffEncodeOptions o;
                o.compression = c;
                const std::vector<std::uint8_t> file = tiff_encode(img.view(), o);
                CAPTURE(tiff_compression_name(c));
                CAPTURE(channels);
                CAPTURE(w);
                CAPTURE(h);
                const LoadedImage back = decode_image("x.tif", file, {});
                CHECK(back.header.format == ImageFormat::Tiff);
                CHECK(back.warnings.empty());
                IMGPAR_CHECK_IMAGES_EQUAL(img, back.image);
                ++files;
            }
    MESSAGE(files, " TIFF files round-tripped");
}

TEST_CASE("TIFF: 16-bit images round-trip exactly through the u16 decoder, and reduce as 16-bit PNGs do") {
    for (TiffCompression c : {TiffCompression::None, TiffCompression::Lzw, TiffCompression::Deflate})
        for (int channels = 1; channels <= 4; ++channels) {
            const ImageU16 img = random16(37, 19, channels, static_cast<unsigned>(channels) + 7);
            TiffEncodeOptions o;
            o.compression = c;
            const std::vector<std::uint8_t> file = tiff_encode(img.view(), o);
            const TiffHeaderInfo h = tiff_read_header("w.tif", file, 0, std::uint64_t{1} << 30);
            CHECK(h.bit_depth == 16);
            CHECK(h.channels == channels);
            std::vector<std::string> warnings;
            const ImageU16 back = tiff_decode_u16("w.tif", file, h, warnings, false, std::uint64_t{1} << 30);
            IMGPAR_CHECK_IMAGES_EQUAL(img, back);
            const LoadedImage eight = decode_image("w.tif", file, {});
            REQUIRE(!eight.warnings.empty());
            CHECK(eight.warnings[0] == "16-bit TIFF reduced to 8 bits per sample (rounded to nearest)");
            CHECK(eight.header.bit_depth == 16);
            IMGPAR_CHECK_IMAGES_EQUAL(reduce_to_8_bits(img.view()), eight.image);
        }
}

TEST_CASE("TIFF: save_image writes strip by strip into the file the bytes tiff_encode makes, 8 and 16 bits") {
    test::TempDir dir;
    int files = 0;
    // Sizes around the 64 KiB strip: one row, rows that fill strips exactly
    // and not, more than one strip, a last strip of one row.
    const std::vector<std::pair<int, int>> sizes = {{1, 1}, {5, 3}, {4096, 5}, {1000, 23}, {1365, 17}};
    for (TiffCompression c : {TiffCompression::None, TiffCompression::Lzw, TiffCompression::Deflate})
        for (int channels : {1, 2, 3, 4})
            for (auto [w, h] : sizes) {
                CAPTURE(tiff_compression_name(c));
                CAPTURE(channels);
                CAPTURE(w);
                CAPTURE(h);
                SaveOptions save;
                save.tiff_compression = c;
                TiffEncodeOptions o;
                o.compression = c;
                std::vector<std::string> warnings;
                const std::string p8 = dir.file("s" + std::to_string(files++) + ".tif");
                const ImageU8 img = test::photo_like_image(w, h, channels, static_cast<unsigned>(w + channels));
                save_image(p8, img.view(), save, warnings);
                CHECK(file_bytes(p8) == tiff_encode(img.view(), o));
                IMGPAR_CHECK_IMAGES_EQUAL(img, decode_file(p8).image);
                const std::string p16 = dir.file("s" + std::to_string(files++) + ".tif");
                const ImageU16 wide = random16(w, h, channels, static_cast<unsigned>(h + channels));
                save_image(p16, wide.view(), save, warnings);
                CHECK(file_bytes(p16) == tiff_encode(wide.view(), o));
                LoadOptions keep;
                keep.keep_16_bits = true;
                IMGPAR_CHECK_IMAGES_EQUAL(wide, decode_file(p16, keep).image16);
                CHECK(warnings.empty());
            }
    // --depth 16 of an 8-bit image, and --depth 8 of a 16-bit one, convert
    // first (in memory), as before.
    const ImageU8 img = test::photo_like_image(300, 200, 3, 9);
    SaveOptions deep;
    deep.depth = 16;
    std::vector<std::string> warnings;
    save_image(dir.file("deep.tif"), img.view(), deep, warnings);
    LoadOptions keep;
    keep.keep_16_bits = true;
    IMGPAR_CHECK_IMAGES_EQUAL(widen_to_16_bits(img.view()), decode_file(dir.file("deep.tif"), keep).image16);
    SaveOptions shallow;
    shallow.depth = 8;
    save_image(dir.file("shallow.tif"), widen_to_16_bits(img.view()).view(), shallow, warnings);
    IMGPAR_CHECK_IMAGES_EQUAL(img, decode_file(dir.file("shallow.tif")).image);
    MESSAGE(files, " TIFF files streamed");
}

TEST_CASE("TIFF: a save that fails part way leaves the file it would replace, and no temporary file") {
    test::TempDir dir;
    const ImageU8 img = test::photo_like_image(600, 400, 3, 4);
    std::vector<std::string> warnings;
    save_image(dir.file("out.tif"), img.view(), {}, warnings);
    const std::vector<std::uint8_t> before = file_bytes(dir.file("out.tif"));
    // A file size limit below the TIFF's: a write fails midway (SIGXFSZ
    // ignored, so write() says EFBIG).
    struct rlimit old {};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    struct rlimit small = old;
    small.rlim_cur = 100000;
    auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    std::string error;
    try {
        SaveOptions none;
        none.tiff_compression = TiffCompression::None;
        save_image(dir.file("out.tif"), img.view(), none, warnings);
    } catch (const Error& e) {
        error = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(test::has(error, "out.tif"));
    CHECK(test::has(error, "write failed: File too large"));
    CHECK(file_bytes(dir.file("out.tif")) == before);
    CHECK(dir.entries() == std::vector<std::string>{"out.tif"});
}

TEST_CASE("TIFF: strips, tiles and separate planes, each compression libtiff writes, decode to their samples") {
    test::TempDir dir;
    struct Layout {
        int tile, rows;
        bool planar;
    };
    const Layout layouts[] = {{0, 1, false}, {0, 3, false}, {0, 0, false}, {16, 0, false}, {32, 0, false},
                              {0, 5, true},  {16, 0, true}};
    const int compressions[] = {COMPRESSION_NONE, COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_DEFLATE,
                                COMPRESSION_PACKBITS};
    int files = 0;
    for (const Layout& l : layouts)
        for (int c : compressions)
            for (int samples : {1, 2, 3, 4})
                for (int bits : {8, 16}) {
                    test::TiffPage p = test::pattern_page(37, 21, samples, bits, static_cast<unsigned>(files));
                    p.tile = l.tile, p.rows_per_strip = l.rows, p.planar = l.planar, p.compression = c;
                    if (c == COMPRESSION_LZW || c == COMPRESSION_ADOBE_DEFLATE) p.predictor = PREDICTOR_HORIZONTAL;
                    const std::string path = dir.file("l" + std::to_string(files++) + ".tif");
                    test::write_tiff(path, {p});
                    CAPTURE(path);
                    CAPTURE(c);
                    CAPTURE(samples);
                    CAPTURE(bits);
                    CAPTURE(l.tile);
                    CAPTURE(l.planar);
                    const std::vector<std::uint8_t> bytes = file_bytes(path);
                    const TiffHeaderInfo h = tiff_read_header(path, bytes, 0, std::uint64_t{1} << 30);
                    CHECK(h.tiled == (l.tile > 0));
                    CHECK(h.separate_planes == (l.planar && samples > 1));
                    std::vector<std::string> warnings;
                    if (bits == 16) {
                        IMGPAR_CHECK_IMAGES_EQUAL(as_image16(p),
                                                  tiff_decode_u16(path, bytes, h, warnings, false, std::uint64_t{1} << 30));
                    } else {
                        IMGPAR_CHECK_IMAGES_EQUAL(as_image(p), tiff_decode(path, bytes, h, warnings, false, std::uint64_t{1} << 30));
                        CHECK(warnings.empty());
                    }
                }
    MESSAGE(files, " libtiff-written layouts decoded");
}

TEST_CASE("TIFF: 1, 2 and 4-bit gray widen exactly to 8 bits; min-is-white is inverted") {
    test::TempDir dir;
    for (int bits : {1, 2, 4})
        for (bool white : {false, true})
            for (bool tiled : {false, true}) {
                test::TiffPage p = test::pattern_page(29, 17, 1, bits, static_cast<unsigned>(bits));
                if (white) p.photometric = PHOTOMETRIC_MINISWHITE;
                if (tiled) p.tile = 16;
                p.compression = bits == 1 ? COMPRESSION_PACKBITS : COMPRESSION_LZW;
                const std::string path = dir.file("b" + std::to_string(bits) + (white ? "w" : "b") + (tiled ? "t" : "s") + ".tif");
                test::write_tiff(path, {p});
                const LoadedImage img = decode_file(path);
                CAPTURE(path);
                REQUIRE(img.image.channels() == 1);
                CHECK(img.header.bit_depth == bits);
                const int top = (1 << bits) - 1;
                bool same = true;
                for (std::size_t i = 0; i < p.values.size(); ++i) {
                    int v = static_cast<int>(p.values[i]) * 255 / top;
                    if (white) v = 255 - v;
                    same = same && img.image.data()[i] == v;
                }
                CHECK(same);
            }
}

TEST_CASE("TIFF: palette and CMYK become RGB with a warning; associated alpha is divided out; extra samples dropped") {
    test::TempDir dir;
    SUBCASE("palette, 4 and 8 bits") {
        for (int bits : {4, 8}) {
            test::TiffPage p = test::pattern_page(19, 9, 1, bits, 3);
            p.photometric = PHOTOMETRIC_PALETTE;
            const int n = 1 << bits;
            for (int k = 0; k < 3; ++k)
                for (int i = 0; i < n; ++i) p.colormap.push_back(static_cast<std::uint16_t>((i * 4099 + k * 20011) & 0xffff));
            const std::string path = dir.file("pal" + std::to_string(bits) + ".tif");
            test::write_tiff(path, {p});
            const LoadedImage img = decode_file(path);
            CHECK(test::any_has(img.warnings, "palette TIFF converted to RGB"));
            REQUIRE(img.image.channels() == 3);
            bool same = true;
            for (std::size_t i = 0; i < p.values.size(); ++i)
                for (int k = 0; k < 3; ++k)
                    same = same && img.image.data()[i * 3 + k] ==
                                       reduce_sample_16_to_8(p.colormap[static_cast<std::size_t>(k) * n + static_cast<std::size_t>(p.values[i])]);
            CHECK(same);
        }
    }
    SUBCASE("CMYK, 8 and 16 bits") {
        for (int bits : {8, 16}) {
            test::TiffPage p = test::pattern_page(11, 5, 4, bits, 5);
            p.photometric = PHOTOMETRIC_SEPARATED;
            p.extra.clear();
            const std::string path = dir.file("cmyk" + std::to_string(bits) + ".tif");
            test::write_tiff(path, {p});
            const LoadedImage img = decode_file(path);
            CHECK(test::any_has(img.warnings, "CMYK TIFF converted to RGB without colour management"));
            REQUIRE(img.image.channels() == 3);
            const double top = bits == 8 ? 255 : 65535;
            const double k = p.values[3], c = p.values[0];
            const double r = std::round((top - c) * (top - k) / top);
            CHECK(img.image.data()[0] == (bits == 8 ? static_cast<int>(r) : reduce_sample_16_to_8(static_cast<std::uint16_t>(r))));
        }
    }
    SUBCASE("associated alpha") {
        test::TiffPage p;
        p.width = 3, p.height = 1, p.samples = 2, p.extra = {EXTRASAMPLE_ASSOCALPHA};
        p.values = {50, 100, 0, 0, 255, 255};  // (50 of 100) (0 of 0) (255 of 255)
        const std::string path = dir.file("assoc.tif");
        test::write_tiff(path, {p});
        const LoadedImage img = decode_file(path);
        REQUIRE(img.image.channels() == 2);
        CHECK(img.image.at(0, 0, 0) == 128);  // 50 * 255 / 100 = 127.5, rounded up
        CHECK(img.image.at(0, 0, 1) == 100);
        CHECK(img.image.at(1, 0, 0) == 0);
        CHECK(img.image.at(2, 0, 0) == 255);
    }
    SUBCASE("RGB with alpha and two more samples") {
        test::TiffPage p = test::pattern_page(7, 3, 6, 8, 9);
        p.extra = {EXTRASAMPLE_UNASSALPHA, EXTRASAMPLE_UNSPECIFIED, EXTRASAMPLE_UNSPECIFIED};
        const std::string path = dir.file("extra.tif");
        test::write_tiff(path, {p});
        const LoadedImage img = decode_file(path);
        CHECK(test::any_has(img.warnings, "2 extra samples per pixel beyond its alpha: dropped"));
        REQUIRE(img.image.channels() == 4);
        CHECK(img.image.at(6, 2, 3) == static_cast<int>(p.values[(2 * 7 + 6) * 6 + 3]));
    }
}

TEST_CASE("TIFF: 32- and 64-bit floats map [0, 1] to 0..65535 (clamped, rounded), with a warning") {
    test::TempDir dir;
    for (int bits : {32, 64}) {
        test::TiffPage p;
        p.width = 6, p.height = 1, p.floating = true, p.bits = bits;
        p.values = {0.0, 1.0, 0.5, -3.0, 7.0, std::nan("")};
        const std::string path = dir.file("f" + std::to_string(bits) + ".tif");
        test::write_tiff(path, {p});
        CAPTURE(bits);
        const std::vector<std::uint8_t> bytes = file_bytes(path);
        const TiffHeaderInfo h = tiff_read_header(path, bytes, 0, std::uint64_t{1} << 30);
        CHECK(h.floating);
        std::vector<std::string> warnings;
        const ImageU16 wide = tiff_decode_u16(path, bytes, h, warnings, false, std::uint64_t{1} << 30);
        const std::uint16_t expected[] = {0, 65535, 32768, 0, 65535, 0};
        for (int x = 0; x < 6; ++x) CHECK(wide.at(x, 0, 0) == expected[x]);
        const LoadedImage img = decode_file(path);
        CHECK(test::any_has(img.warnings, std::to_string(bits) + "-bit float TIFF converted to 16 bits per sample"));
        CHECK(img.image.at(2, 0, 0) == 128);
    }
}

TEST_CASE("TIFF: JPEG-compressed pages, YCbCr and RGB, decode as libtiff's RGBA reader decodes them") {
    test::TempDir dir;
    for (bool ycbcr : {false, true}) {
        test::TiffPage p = test::pattern_page(40, 24, 3, 8, 2);
        for (std::size_t i = 0; i < p.values.size(); ++i) p.values[i] = static_cast<double>((i * 7) % 256);
        p.compression = COMPRESSION_JPEG, p.ycbcr = ycbcr, p.rows_per_strip = 16;
        const std::string path = dir.file(ycbcr ? "ycc.tif" : "rgb.tif");
        test::write_tiff(path, {p});
        const LoadedImage img = decode_file(path);
        REQUIRE(img.image.channels() == 3);
        TIFF* t = TIFFOpen(path.c_str(), "r");
        REQUIRE(t);
        std::vector<std::uint32_t> raster(40 * 24);
        REQUIRE(TIFFReadRGBAImageOriented(t, 40, 24, raster.data(), ORIENTATION_TOPLEFT, 1));
        TIFFClose(t);
        bool same = true;
        for (int i = 0; i < 40 * 24; ++i)
            same = same && img.image.data()[3 * i] == TIFFGetR(raster[i]) && img.image.data()[3 * i + 1] == TIFFGetG(raster[i]) &&
                   img.image.data()[3 * i + 2] == TIFFGetB(raster[i]);
        CAPTURE(ycbcr);
        CHECK(same);
    }
}

TEST_CASE("TIFF: the ICC profile and the orientation are read and written") {
    ImageMetadata m;
    m.icc.assign(600, 0);
    for (std::size_t i = 0; i < m.icc.size(); ++i) m.icc[i] = static_cast<std::uint8_t>(i * 31);
    TiffEncodeOptions o;
    o.metadata = &m;
    std::vector<std::uint8_t> file = tiff_encode(test::photo_like_image(9, 9, 3).cview(), o);
    LoadedImage back = decode_image("icc.tif", file, {});
    CHECK(back.header.metadata.icc == m.icc);
    CHECK(back.header.metadata.exif.empty());  // upright: nothing to say
    // Orientation 6 (a JPEG's EXIF) becomes TIFF's tag, and reads back as EXIF.
    m.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    CHECK(tiff_keeps_whole_exif(m.exif));
    file = tiff_encode(test::photo_like_image(9, 9, 3).cview(), o);
    back = decode_image("turned.tif", file, {});
    CHECK(exif_orientation(back.header.metadata.exif) == 6);
    std::vector<std::string> warnings;
    m.exif.resize(400, 0);  // more than an orientation: the rest is not written, and a warning says so
    SaveOptions save;
    save.metadata = &m;
    encode_image(test::photo_like_image(9, 9, 3).cview(), ImageFormat::Tiff, save, warnings);
    CHECK(test::any_has(warnings, "of the EXIF block only the orientation is written"));
}

TEST_CASE("TIFF: XMP, IPTC and the first comment are written and read back (XMLPacket, RichTIFFIPTC, ImageDescription)") {
    ImageMetadata m;
    const std::string xmp = "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF/></x:xmpmeta>";
    m.xmp.assign(xmp.begin(), xmp.end());
    m.iptc = {0x1C, 2, 120, 0, 5, 'h', 'e', 'l', 'l', 'o'};  // caption, 10 bytes: padded to 12 in the file
    m.comments = {Comment{"Comment", "a walk in the hills", false}, Comment{"Title", "second", false}};
    SaveOptions save;
    save.metadata = &m;
    std::vector<std::string> warnings;
    const std::vector<std::uint8_t> file =
        encode_image(test::photo_like_image(11, 7, 3).cview(), ImageFormat::Tiff, save, warnings);
    CHECK(test::any_has(warnings, "1 comment(s) after the first"));
    const LoadedImage back = decode_image("meta.tif", file, {});
    CHECK(back.header.metadata.xmp == m.xmp);
    CHECK(back.header.metadata.iptc == m.iptc);
    REQUIRE(back.header.metadata.comments.size() == 1);
    CHECK(back.header.metadata.comments[0].text == "a walk in the hills");
}

#else

TEST_CASE("TIFF: a build without libtiff refuses TIFF files, saying why") {
    CHECK(!tiff_codec_available());
}

#endif
