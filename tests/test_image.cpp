#include <doctest/doctest.h>

#include "src/error.hpp"
#include "src/image.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

TEST_CASE("Image: shape, packing and zero fill") {
    ImageU8 img(5, 3, 3);
    CHECK(img.width() == 5);
    CHECK(img.height() == 3);
    CHECK(img.channels() == 3);
    CHECK(img.stride() == 15);
    CHECK(img.size_bytes() == 45);
    for (std::size_t i = 0; i < img.size_bytes(); ++i) CHECK(img.data()[i] == 0);
}

TEST_CASE("Image: bad shapes are usage errors") {
    CHECK_THROWS_AS(ImageU8(0, 5, 1), Error);
    CHECK_THROWS_AS(ImageU8(5, 0, 1), Error);
    CHECK_THROWS_AS(ImageU8(5, 5, 0), Error);
    CHECK_THROWS_AS(ImageU8(5, 5, 5), Error);
    try {
        ImageU8(4, 4, 7);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        CHECK(std::string(e.what()).find("1 to 4") != std::string::npos);
    }
}

TEST_CASE("ImageView: sub-views address the right pixels without copying") {
    ImageU8 img = test::random_image(10, 8, 2, 3);
    ViewU8 v = img.view();
    ViewU8 tile = v.sub(3, 2, 4, 5);
    CHECK(tile.width == 4);
    CHECK(tile.height == 5);
    CHECK(tile.stride == img.stride());
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 2; ++c) CHECK(tile.pixel(x, y)[c] == img.at(x + 3, y + 2, c));
    tile.pixel(0, 0)[1] = 77;
    CHECK(img.at(3, 2, 1) == 77);
    CHECK_THROWS_AS(v.sub(8, 0, 3, 1), Error);
    CHECK_THROWS_AS(v.rows(7, 2), Error);

    ImageU8 copy = ImageU8::copy_of(tile);
    CHECK(copy.width() == 4);
    CHECK(copy.stride() == 8);
    CHECK(copy.at(0, 0, 1) == 77);
}

TEST_CASE("first_mismatch reports position, channel and values") {
    ImageU8 a = test::random_image(9, 7, 3, 1);
    ImageU8 b = ImageU8::copy_of(a.view());
    CHECK_FALSE(first_mismatch(a.view(), b.view()).found);
    b.at(4, 5, 2) = static_cast<std::uint8_t>(a.at(4, 5, 2) + 1);
    b.at(8, 6, 0) = static_cast<std::uint8_t>(a.at(8, 6, 0) + 1);
    PixelMismatch m = first_mismatch(a.view(), b.view());
    CHECK(m.found);
    CHECK(m.x == 4);
    CHECK(m.y == 5);
    CHECK(m.channel == 2);
    CHECK(m.expected == a.at(4, 5, 2));
    CHECK(m.actual == b.at(4, 5, 2));
    CHECK(m.count == 2);
    CHECK(m.describe().find("x=4, y=5, channel=2") != std::string::npos);
}

TEST_CASE("channel layout names") {
    CHECK(std::string(channel_layout_name(1)) == "gray");
    CHECK(std::string(channel_layout_name(2)) == "gray+alpha");
    CHECK(std::string(channel_layout_name(3)) == "RGB");
    CHECK(std::string(channel_layout_name(4)) == "RGBA");
    CHECK(has_alpha(2));
    CHECK(has_alpha(4));
    CHECK_FALSE(has_alpha(3));
}

TEST_CASE("typed images: every sample type keeps its type, byte strides and views") {
    ImageU64 sums(6, 4, 2);
    CHECK(ImageU64::sample_type == SampleType::U64);
    CHECK(std::string(sample_type_name(sums.sample_type)) == "u64");
    CHECK(sums.stride() == 6 * 2 * 8);
    CHECK(sums.size_bytes() == 6 * 4 * 2 * 8);
    sums.at(5, 3, 1) = (std::uint64_t{1} << 40) + 7;  // past 32 bits: a 24 MP summed-area table needs this
    ConstViewU64 v = sums.view();
    CHECK(v.sample_type == SampleType::U64);
    CHECK(v.row_bytes() == sums.stride());
    CHECK(v.pixel(5, 3)[1] == (std::uint64_t{1} << 40) + 7);
    ConstViewU64 tile = v.sub(4, 2, 2, 2);
    CHECK(tile.stride == v.stride);
    CHECK(tile.pixel(1, 1)[1] == (std::uint64_t{1} << 40) + 7);

    ImageU16 deep(3, 3, 1);
    deep.fill(65535);
    CHECK(deep.at(2, 2, 0) == 65535);
    CHECK(sample_bytes(ImageU16::sample_type) == 2);
    ImageU32 counts = ImageU32::copy_of(ImageU32(2, 2, 4).cview());
    CHECK(counts.stride() == 2 * 4 * 4);

    ImageF32 a(4, 3, 1), b(4, 3, 1);
    a.at(2, 1, 0) = -0.0f;
    CHECK_FALSE(first_mismatch(a.view(), b.view()).found);  // -0 == 0: compared by value
    b.at(3, 2, 0) = 0.5f;
    const PixelMismatch m = first_mismatch(a.view(), b.view());
    CHECK(m.found);
    CHECK(m.x == 3);
    CHECK(m.y == 2);
    CHECK(m.actual == 0.5);
    CHECK(first_mismatch(a.view(), ImageF32(3, 4, 1).cview()).shape_differs);
}
