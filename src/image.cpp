#include "src/image.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "src/error.hpp"
#include "src/huge_pages.hpp"

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

const char* sample_type_name(SampleType type) {
    switch (type) {
        case SampleType::U8: return "u8";
        case SampleType::U16: return "u16";
        case SampleType::U32: return "u32";
        case SampleType::U64: return "u64";
        case SampleType::F32: return "f32";
    }
    return "invalid";
}

std::size_t sample_bytes(SampleType type) {
    switch (type) {
        case SampleType::U8: return 1;
        case SampleType::U16: return 2;
        case SampleType::U32: return 4;
        case SampleType::U64: return 8;
        case SampleType::F32: return 4;
    }
    return 0;
}

std::string describe_shape(const ImageShape& shape) {
    std::string text = std::to_string(shape.width) + "x" + std::to_string(shape.height) + " " +
                       channel_layout_name(shape.channels);
    if (shape.type != SampleType::U8) text += std::string(" ") + sample_type_name(shape.type);
    return text;
}

void check_image_shape(int width, int height, int channels) {
    if (channels < 1 || channels > kMaxChannels)
        throw usage_error("image", "channel count " + std::to_string(channels) + " is not supported (allowed: 1 to 4)");
    if (width <= 0 || height <= 0)
        throw usage_error("image", "size " + std::to_string(width) + "x" + std::to_string(height) +
                                       " is not allowed (width and height must be at least 1)");
}

template <typename T>
ImageView<T> ImageView<T>::sub(int x, int y, int w, int h) const {
    if (x < 0 || y < 0 || w < 0 || h < 0 || x + w > width || y + h > height)
        throw usage_error("image view", "window " + std::to_string(w) + "x" + std::to_string(h) + "+" +
                                            std::to_string(x) + "+" + std::to_string(y) + " lies outside a " +
                                            std::to_string(width) + "x" + std::to_string(height) + " image");
    ImageView v = *this;
    v.data = pixel(x, y);
    v.width = w;
    v.height = h;
    return v;
}

template <typename T>
Image<T>::Image(int width, int height, int channels) {
    check_image_shape(width, height, channels);
    width_ = width;
    height_ = height;
    channels_ = channels;
    const std::size_t count = static_cast<std::size_t>(width) * height * channels;
    // Allocated, advised, then filled: a large image's pages come huge
    // (src/huge_pages.hpp).
    samples_.reserve(count);
    advise_huge_pages(samples_.data(), count * sizeof(T));
    samples_.assign(count, T{});
}

template <typename T>
Image<T> Image<T>::copy_of(ImageView<const T> v) {
    Image img(v.width, v.height, v.channels);
    for (int y = 0; y < v.height; ++y) std::memcpy(img.row(y), v.row(y), v.row_bytes());
    return img;
}

template <typename T>
void Image<T>::fill(T value) {
    std::fill(samples_.begin(), samples_.end(), value);
}

std::string PixelMismatch::describe() const {
    if (!found) return "identical";
    if (shape_differs) return "the images differ in size or channel count";
    std::ostringstream s;
    s << count << " sample(s) differ; first at (x=" << x << ", y=" << y << ", channel=" << channel
      << ", expected=" << expected << ", actual=" << actual << ")";
    return s.str();
}

template <typename T>
PixelMismatch compare_samples(ImageView<const T> expected, ImageView<const T> actual) {
    PixelMismatch m;
    if (!same_shape(expected, actual)) {
        m.found = true;
        m.shape_differs = true;
        m.count = 1;
        m.x = m.y = m.channel = -1;
        return m;
    }
    const std::size_t n = expected.row_samples();
    for (int y = 0; y < expected.height; ++y) {
        const T* e = expected.row(y);
        const T* a = actual.row(y);
        for (std::size_t i = 0; i < n; ++i) {
            if (e[i] == a[i]) continue;
            if (!m.found) {
                m.found = true;
                m.x = static_cast<int>(i / expected.channels);
                m.y = y;
                m.channel = static_cast<int>(i % expected.channels);
                m.expected = static_cast<double>(e[i]);
                m.actual = static_cast<double>(a[i]);
            }
            ++m.count;
        }
    }
    return m;
}

#define IMGPAR_INSTANTIATE_IMAGE(T)                                                          \
    template struct ImageView<T>;                                                            \
    template struct ImageView<const T>;                                                      \
    template class Image<T>;                                                                 \
    template PixelMismatch compare_samples<T>(ImageView<const T>, ImageView<const T>);
IMGPAR_INSTANTIATE_IMAGE(std::uint8_t)
IMGPAR_INSTANTIATE_IMAGE(std::uint16_t)
IMGPAR_INSTANTIATE_IMAGE(std::uint32_t)
IMGPAR_INSTANTIATE_IMAGE(std::uint64_t)
IMGPAR_INSTANTIATE_IMAGE(float)
#undef IMGPAR_INSTANTIATE_IMAGE

}  // namespace imgpar
