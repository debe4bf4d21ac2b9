// The image types every operation works on, for each sample type.
//
// Layout: 1 to 4 interleaved channels (gray, gray+alpha, RGB, RGBA), rows top
// to bottom, `stride` BYTES from one row start to the next (stride >= width *
// channels * sizeof(T), a multiple of sizeof(T)). Sample types: u8 (decoded
// images and most results), u16 (16-bit PNG), u32 and u64 (sums: summed-area
// tables need 64 bits past 16 MP), f32 (real-valued results). The type is part
// of every name, so no code assumes 8 bits:
//   Image<T>          owns packed pixels on the host (ImageU8, ImageU16, ...)
//   ImageView<T>      borrows host pixels; T const for read-only (ViewU8,
//                     ConstViewU8, ...); cheap to copy, no ownership
//   DeviceView<T>     borrows pixels in GPU memory (`pitch` bytes per row);
//                     owning device images are cuda::DeviceImage<T>
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace imgpar {

// Largest channel count we support (RGBA).
constexpr int kMaxChannels = 4;

// Whether the last channel of a `channels`-channel image is alpha.
constexpr bool has_alpha(int channels) { return channels == 2 || channels == 4; }

// "gray", "gray+alpha", "RGB", "RGBA".
const char* channel_layout_name(int channels);

enum class SampleType { U8, U16, U32, U64, F32 };

// "u8", "u16", "u32", "u64", "f32".
const char* sample_type_name(SampleType type);
std::size_t sample_bytes(SampleType type);

template <typename T>
struct SampleTraits;  // only the five sample types have one
template <>
struct SampleTraits<std::uint8_t> {
    static constexpr SampleType type = SampleType::U8;
};
template <>
struct SampleTraits<std::uint16_t> {
    static constexpr SampleType type = SampleType::U16;
};
template <>
struct SampleTraits<std::uint32_t> {
    static constexpr SampleType type = SampleType::U32;
};
template <>
struct SampleTraits<std::uint64_t> {
    static constexpr SampleType type = SampleType::U64;
};
template <>
struct SampleTraits<float> {
    static constexpr SampleType type = SampleType::F32;
};

// The SampleType of T (const or not).
template <typename T>
constexpr SampleType sample_type_of = SampleTraits<std::remove_const_t<T>>::type;

// Throws imgpar::Error (usage) unless 1 <= channels <= 4 and the size is positive.
void check_image_shape(int width, int height, int channels);

// An image's shape before it exists: what an operation declares its output
// to be from its input's, so that a run sizes its buffers and checks its
// memory before any pixel is touched.
struct ImageShape {
    int width = 0;
    int height = 0;
    int channels = 0;
    SampleType type = SampleType::U8;

    std::size_t samples() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * channels; }
    std::size_t bytes() const { return samples() * sample_bytes(type); }
    bool operator==(const ImageShape& o) const {
        return width == o.width && height == o.height && channels == o.channels && type == o.type;
    }
    bool operator!=(const ImageShape& o) const { return !(*this == o); }
};

// "640x480 RGB", with the sample type when it is not u8: "640x480 RGB u16".
std::string describe_shape(const ImageShape& shape);

// A view of host pixels. T is the sample type, const-qualified for a
// read-only view; a mutable view converts to a read-only one.
template <typename T>
struct ImageView {
    T* data = nullptr;
    int width = 0;
    int height = 0;
    int channels = 0;
    std::size_t stride = 0;  // bytes between row starts

    static constexpr SampleType sample_type = sample_type_of<T>;

    T* row(int y) const {
        using Byte = std::conditional_t<std::is_const_v<T>, const unsigned char, unsigned char>;
        return reinterpret_cast<T*>(reinterpret_cast<Byte*>(data) + static_cast<std::size_t>(y) * stride);
    }
    T* pixel(int x, int y) const { return row(y) + static_cast<std::size_t>(x) * channels; }
    std::size_t row_samples() const { return static_cast<std::size_t>(width) * channels; }
    std::size_t row_bytes() const { return row_samples() * sizeof(T); }
    bool empty() const { return width == 0 || height == 0; }

    // A rectangular window of this view (no copy). Throws on out-of-range.
    ImageView sub(int x, int y, int w, int h) const;
    // Rows [y0, y0 + h) of this view.
    ImageView rows(int y0, int h) const { return sub(0, y0, width, h); }

    template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U> && std::is_same_v<U, T>>>
    operator ImageView<const U>() const {
        return {data, width, height, channels, stride};
    }
};

// A view of pixels in GPU memory: the same layout as ImageView, `pitch` bytes
// between row starts. Only device code and cudaMemcpy* may dereference it.
template <typename T>
struct DeviceView {
    T* data = nullptr;
    int width = 0;
    int height = 0;
    int channels = 0;
    std::size_t pitch = 0;  // bytes between row starts

    static constexpr SampleType sample_type = sample_type_of<T>;

    std::size_t row_samples() const { return static_cast<std::size_t>(width) * channels; }
    std::size_t row_bytes() const { return row_samples() * sizeof(T); }

    template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U> && std::is_same_v<U, T>>>
    operator DeviceView<const U>() const {
        return {data, width, height, channels, pitch};
    }
};

// Host pixels owned in one packed block (stride = width * channels * sizeof(T)).
template <typename T>
class Image {
    static_assert(!std::is_const_v<T>, "an Image owns mutable samples; views carry const");

public:
    static constexpr SampleType sample_type = sample_type_of<T>;

    Image() = default;
    // A zero-filled image. Throws imgpar::Error (usage) on a bad shape.
    Image(int width, int height, int channels);

    int width() const { return width_; }
    int height() const { return height_; }
    int channels() const { return channels_; }
    std::size_t row_samples() const { return static_cast<std::size_t>(width_) * channels_; }
    std::size_t row_bytes() const { return row_samples() * sizeof(T); }
    std::size_t stride() const { return row_bytes(); }  // bytes
    std::size_t size_bytes() const { return samples_.size() * sizeof(T); }
    std::size_t sample_count() const { return samples_.size(); }
    std::size_t pixel_count() const { return static_cast<std::size_t>(width_) * height_; }
    bool empty() const { return samples_.empty(); }

    T* data() { return samples_.data(); }
    const T* data() const { return samples_.data(); }
    T* row(int y) { return data() + static_cast<std::size_t>(y) * row_samples(); }
    const T* row(int y) const { return data() + static_cast<std::size_t>(y) * row_samples(); }
    T& at(int x, int y, int c) { return row(y)[static_cast<std::size_t>(x) * channels_ + c]; }
    T at(int x, int y, int c) const { return row(y)[static_cast<std::size_t>(x) * channels_ + c]; }

    ImageView<T> view() { return {data(), width_, height_, channels_, stride()}; }
    ImageView<const T> view() const { return {data(), width_, height_, channels_, stride()}; }
    ImageView<const T> cview() const { return view(); }

    // A packed copy of any view.
    static Image copy_of(ImageView<const T> v);

    void fill(T value);

private:
    int width_ = 0;
    int height_ = 0;
    int channels_ = 0;
    std::vector<T> samples_;
};

using ImageU8 = Image<std::uint8_t>;
using ImageU16 = Image<std::uint16_t>;
using ImageU32 = Image<std::uint32_t>;
using ImageU64 = Image<std::uint64_t>;
using ImageF32 = Image<float>;

using ViewU8 = ImageView<std::uint8_t>;
using ConstViewU8 = ImageView<const std::uint8_t>;
using ViewU16 = ImageView<std::uint16_t>;
using ConstViewU16 = ImageView<const std::uint16_t>;
using ViewU32 = ImageView<std::uint32_t>;
using ConstViewU32 = ImageView<const std::uint32_t>;
using ViewU64 = ImageView<std::uint64_t>;
using ConstViewU64 = ImageView<const std::uint64_t>;
using ViewF32 = ImageView<float>;
using ConstViewF32 = ImageView<const float>;

using DeviceViewU8 = DeviceView<std::uint8_t>;
using ConstDeviceViewU8 = DeviceView<const std::uint8_t>;
using DeviceViewU16 = DeviceView<std::uint16_t>;
using ConstDeviceViewU16 = DeviceView<const std::uint16_t>;

// Two views have the same width, height and channel count.
template <typename A, typename B>
bool same_shape(const ImageView<A>& a, const ImageView<B>& b) {
    return a.width == b.width && a.height == b.height && a.channels == b.channels;
}

// Where two images first differ, for test and error messages.
struct PixelMismatch {
    bool found = false;
    bool shape_differs = false;
    int x = 0, y = 0, channel = 0;
    double expected = 0, actual = 0;
    std::size_t count = 0;  // how many samples differ in total
    std::string describe() const;  // "N sample(s) differ; first at (x=.., y=.., channel=.., expected=.., actual=..)"
};
// Samples compare by value (floats exactly: -0 equals 0, NaN differs from everything).
template <typename T>
PixelMismatch compare_samples(ImageView<const T> expected, ImageView<const T> actual);
template <typename A, typename B>
PixelMismatch first_mismatch(ImageView<A> expected, ImageView<B> actual) {
    static_assert(std::is_same_v<std::remove_const_t<A>, std::remove_const_t<B>>, "compare images of one sample type");
    return compare_samples<std::remove_const_t<A>>(expected, actual);
}

}  // namespace imgpar
