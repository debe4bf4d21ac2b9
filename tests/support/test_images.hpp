// Test images and comparisons shared by the suites.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/image.hpp"

namespace imgpar::test {

// Uniform random samples from a fixed seed.
ImageU8 random_image(int width, int height, int channels, unsigned seed = 1);
// Smooth gradients with some sharp edges and noise: photo-like statistics.
ImageU8 photo_like_image(int width, int height, int channels, unsigned seed = 1);
// Every sample = value.
ImageU8 constant_image(int width, int height, int channels, int value);
// Random colour with an alpha channel that has fully transparent, fully
// opaque and partial regions (channels must be 2 or 4).
ImageU8 alpha_image(int width, int height, int channels, unsigned seed = 1);
// alpha_image for the layouts with alpha (2, 4 channels), else random_image.
ImageU8 layout_image(int width, int height, int channels, unsigned seed = 1);

// A sample image from samples/ (e.g. "camera.png").
ImageU8 load_sample(const std::string& name);
std::string sample_path(const std::string& name);

// Sizes that break tiled code: 1x1, 1xN, Nx1, primes, around 16/32/64/128.
std::vector<std::pair<int, int>> awkward_sizes();

// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    // Names of the entries in the directory (to check nothing was left behind).
    std::vector<std::string> entries() const;

private:
    std::string path_;
};

void write_bytes(const std::string& path, const std::string& bytes);
// `image` saved to `path` in the format its extension names, default options.
void save_image_file(const std::string& path, const ImageU8& image);
// The same for a 16-bit image (PNG and TIFF keep the 16 bits).
void save_image_file(const std::string& path, const ImageU16& image);
std::string read_bytes(const std::string& path);

// For a failed byte comparison: both sizes and the first differing offset.
std::string first_byte_difference(const std::vector<std::uint8_t>& expected, const std::vector<std::uint8_t>& actual);
bool file_exists(const std::string& path);

}  // namespace imgpar::test

// Exact comparison; on failure reports the first mismatch as
// (x, y, channel, expected, actual) and how many samples differ.
#define IMGPAR_CHECK_IMAGES_EQUAL(expected, actual)                                             \
    do {                                                                                        \
        auto imgpar_mm_ = ::imgpar::first_mismatch((expected).view(), (actual).view());         \
        CHECK_MESSAGE(!imgpar_mm_.found, "images differ: ", imgpar_mm_.describe());            \
    } while (0)

namespace imgpar::test {
// A file from tests/data.
inline std::string data_path(const std::string& name) { return std::string(IMGPAR_TEST_DATA_DIR) + "/" + name; }
}  // namespace imgpar::test
