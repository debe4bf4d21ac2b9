#include "tests/support/test_images.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "src/io/load.hpp"
#include "src/io/save.hpp"

namespace imgpar::test {

ImageU8 random_image(int width, int height, int channels, unsigned seed) {
    ImageU8 img(width, height, channels);
    std::mt19937 rng(seed);
    for (std::size_t i = 0; i < img.size_bytes(); ++i) img.data()[i] = static_cast<std::uint8_t>(rng() & 0xFF);
    return img;
}

ImageU8 photo_like_image(int width, int height, int channels, unsigned seed) {
    ImageU8 img(width, height, channels);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> noise(-8, 8);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < channels; ++c) {
                int v = (x * (c + 2) * 255 / std::max(1, width) + y * 200 / std::max(1, height)) / 2;
                if (((x / 13) + (y / 7)) % 4 == 0) v = 255 - v;
                img.at(x, y, c) = static_cast<std::uint8_t>(std::clamp(v + noise(rng), 0, 255));
            }
    return img;
}

ImageU8 constant_image(int width, int height, int channels, int value) {
    ImageU8 img(width, height, channels);
    img.fill(static_cast<std::uint8_t>(value));
    return img;
}

ImageU8 alpha_image(int width, int height, int channels, unsigned seed) {
    ImageU8 img = random_image(width, height, channels, seed);
    const int a = channels - 1;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int zone = (x * 3 / std::max(1, width)) + 3 * (y * 2 / std::max(1, height));
            std::uint8_t& alpha = img.at(x, y, a);
            if (zone % 3 == 0) alpha = 0;          // transparent (colour is garbage)
            else if (zone % 3 == 1) alpha = 255;   // opaque
            // else keep the random partial alpha
        }
    return img;
}

ImageU8 layout_image(int width, int height, int channels, unsigned seed) {
    return has_alpha(channels) ? alpha_image(width, height, channels, seed) : random_image(width, height, channels, seed);
}

std::string sample_path(const std::string& name) { return std::string(IMGPAR_SAMPLES_DIR) + "/" + name; }

ImageU8 load_sample(const std::string& name) { return load_image(sample_path(name)).image; }

std::vector<std::pair<int, int>> awkward_sizes() {
    return {{1, 1},   {1, 17},  {17, 1},  {2, 3},   {3, 2},   {7, 5},    {13, 31}, {31, 13},
            {15, 17}, {16, 16}, {17, 15}, {31, 33}, {32, 32}, {33, 31},  {63, 65}, {64, 64},
            {65, 63}, {127, 3}, {129, 130}, {97, 211}, {256, 1}, {1, 256}};
}

TempDir::TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/imgpar-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
}

static void remove_tree(const std::string& path) {
    if (DIR* d = ::opendir(path.c_str())) {
        while (dirent* e = ::readdir(d)) {
            std::string n = e->d_name;
            if (n == "." || n == "..") continue;
            std::string p = path + "/" + n;
            struct stat st{};
            if (::lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
                ::chmod(p.c_str(), 0700);
                remove_tree(p);
            } else {
                ::unlink(p.c_str());
            }
        }
        ::closedir(d);
    }
    ::rmdir(path.c_str());
}

TempDir::~TempDir() { remove_tree(path_); }

std::vector<std::string> TempDir::entries() const {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path_.c_str())) {
        while (dirent* e = ::readdir(d)) {
            std::string n = e->d_name;
            if (n != "." && n != "..") names.push_back(n);
        }
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

void save_image_file(const std::string& path, const ImageU8& image) {
    std::vector<std::string> warnings;
    save_image(path, image.view(), SaveOptions{}, warnings);
}

void save_image_file(const std::string& path, const ImageU16& image) {
    std::vector<std::string> warnings;
    save_image(path, image.cview(), SaveOptions{}, warnings);
}

std::string first_byte_difference(const std::vector<std::uint8_t>& expected, const std::vector<std::uint8_t>& actual) {
    std::size_t i = 0;
    while (i < expected.size() && i < actual.size() && expected[i] == actual[i]) ++i;
    return "expected " + std::to_string(expected.size()) + " bytes, got " + std::to_string(actual.size()) +
           ", first difference at byte " + std::to_string(i);
}

std::string read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

bool file_exists(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace imgpar::test
