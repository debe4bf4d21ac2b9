#include "src/image.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "src/error.hpp"

namespace imgpar {

const char* channel_layout_name(int channels) {
    switch (channels) {
        case 1: return "gray";
        case 2: return "gray+alpha";
        case 3: return "RGB";
        case 4: return "RGBA";
        default: return "invalid";
    }
}

void check_image_shape(int width, int height, int channels) {
    if (channels < 1 || channels > kMaxChannels)
        throw usage_error("image", "channel count " + std::to_string(channels) + " is not supported (allowed: 1 to 4)");
    if (width <= 0 || height <= 0)
        throw usage_error("image", "size " + std::to_string(width) + "x" + std::to_string(height) +
                                       " is not allowed (width and height must be at least 1)");
}

template <typename Byte>
BasicImageView<Byte> BasicImageView<Byte>::sub(int x, int y, int w, int h) const {
    if (x < 0 || y < 0 || w < 0 || h < 0 || x + w > width || y + h > height)
        throw usage_error("image view", "window " + std::to_string(w) + "x" + std::to_string(h) + "+" +
                                            std::to_string(x) + "+" + std::to_string(y) + " lies outside a " +
                                            std::to_string(width) + "x" + std::to_string(height) + " image");
    BasicImageView v = *this;
    v.data = data + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x) * channels;
    v.width = w;
    v.height = h;
    return v;
}
template struct BasicImageView<std::uint8_t>;
template struct BasicImageView<const std::uint8_t>;

Image::Image(int width, int height, int channels) {
    check_image_shape(width, height, channels);
    width_ = width;
    height_ = height;
    channels_ = channels;
    pixels_.assign(static_cast<std::size_t>(width) * height * channels, 0);
}

Image Image::copy_of(ConstImageView v) {
    Image img(v.width, v.height, v.channels);
    for (int y = 0; y < v.height; ++y) std::memcpy(img.row(y), v.row(y), v.row_bytes());
    return img;
}

void Image::fill(std::uint8_t value) { std::fill(pixels_.begin(), pixels_.end(), value); }

bool same_shape(ConstImageView a, ConstImageView b) {
    return a.width == b.width && a.height == b.height && a.channels == b.channels;
}

std::string PixelMismatch::describe() const {
    if (!found) return "identical";
    std::ostringstream s;
    s << count << " sample(s) differ; first at (x=" << x << ", y=" << y << ", channel=" << channel
      << ", expected=" << expected << ", actual=" << actual << ")";
    return s.str();
}

PixelMismatch first_mismatch(ConstImageView expected, ConstImageView actual) {
    PixelMismatch m;
    if (!same_shape(expected, actual)) {
        m.found = true;
        m.count = 1;
        m.x = m.y = m.channel = -1;
        return m;
    }
    for (int y = 0; y < expected.height; ++y) {
        const std::uint8_t* e = expected.row(y);
        const std::uint8_t* a = actual.row(y);
        if (std::memcmp(e, a, expected.row_bytes()) == 0) continue;
        for (std::size_t i = 0; i < expected.row_bytes(); ++i) {
            if (e[i] == a[i]) continue;
            if (!m.found) {
                m.found = true;
                m.x = static_cast<int>(i / expected.channels);
                m.y = y;
                m.channel = static_cast<int>(i % expected.channels);
                m.expected = e[i];
                m.actual = a[i];
            }
            ++m.count;
        }
    }
    return m;
}

}  // namespace imgpar
