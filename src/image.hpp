// The image type every operation works on.
//
// Layout: 8-bit samples, 1 to 4 interleaved channels (gray, gray+alpha, RGB,
// RGBA), rows top to bottom, `stride` bytes from one row to the next
// (stride >= width * channels). An Image owns its pixels with a tightly packed
// stride; an ImageView / ConstImageView borrows pixels (a tile, a row range,
// or memory owned by someone else) and is cheap to copy.
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

template <typename Byte>
struct BasicImageView {
    Byte* data = nullptr;
    int width = 0;
    int height = 0;
    int channels = 0;
    std::size_t stride = 0;  // bytes between row starts

    Byte* row(int y) const { return data + static_cast<std::size_t>(y) * stride; }
    Byte* pixel(int x, int y) const { return row(y) + static_cast<std::size_t>(x) * channels; }
    std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels; }
    bool empty() const { return width == 0 || height == 0; }

    // A rectangular window of this view (no copy). Throws on out-of-range.
    BasicImageView sub(int x, int y, int w, int h) const;
    // Rows [y0, y0 + h) of this view.
    BasicImageView rows(int y0, int h) const { return sub(0, y0, width, h); }

    // A mutable view converts to a read-only one.
    template <typename B = Byte, typename = std::enable_if_t<!std::is_const_v<B>>>
    operator BasicImageView<const B>() const {
        return {data, width, height, channels, stride};
    }
};

using ImageView = BasicImageView<std::uint8_t>;
using ConstImageView = BasicImageView<const std::uint8_t>;

class Image {
public:
    Image() = default;
    // A zero-filled image. Throws imgpar::Error (usage) on a bad shape.
    Image(int width, int height, int channels);

    int width() const { return width_; }
    int height() const { return height_; }
    int channels() const { return channels_; }
    std::size_t stride() const { return row_bytes(); }
    std::size_t row_bytes() const { return static_cast<std::size_t>(width_) * channels_; }
    std::size_t size_bytes() const { return pixels_.size(); }
    std::size_t pixel_count() const { return static_cast<std::size_t>(width_) * height_; }
    bool empty() const { return pixels_.empty(); }

    std::uint8_t* data() { return pixels_.data(); }
    const std::uint8_t* data() const { return pixels_.data(); }
    std::uint8_t* row(int y) { return data() + static_cast<std::size_t>(y) * stride(); }
    const std::uint8_t* row(int y) const { return data() + static_cast<std::size_t>(y) * stride(); }
    std::uint8_t& at(int x, int y, int c) { return row(y)[static_cast<std::size_t>(x) * channels_ + c]; }
    std::uint8_t at(int x, int y, int c) const { return row(y)[static_cast<std::size_t>(x) * channels_ + c]; }

    ImageView view() { return {data(), width_, height_, channels_, stride()}; }
    ConstImageView view() const { return {data(), width_, height_, channels_, stride()}; }
    ConstImageView cview() const { return view(); }

    // A packed copy of any view.
    static Image copy_of(ConstImageView v);

    void fill(std::uint8_t value);

private:
    int width_ = 0;
    int height_ = 0;
    int channels_ = 0;
    std::vector<std::uint8_t> pixels_;
};

// Throws imgpar::Error (usage) unless 1 <= channels <= 4 and the size is positive.
void check_image_shape(int width, int height, int channels);

// Two views have the same width, height and channel count.
bool same_shape(ConstImageView a, ConstImageView b);

// Where two images first differ, for test and error messages.
struct PixelMismatch {
    bool found = false;
    int x = 0, y = 0, channel = 0;
    int expected = 0, actual = 0;
    std::size_t count = 0;  // how many samples differ in total
    std::string describe() const;  // "(x, y, channel, cpu, gpu)" style text
};
PixelMismatch first_mismatch(ConstImageView expected, ConstImageView actual);

}  // namespace imgpar
