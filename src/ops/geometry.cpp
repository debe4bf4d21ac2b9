#include "src/ops/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "src/error.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const std::vector<std::string>& gravity_names() {
    static const std::vector<std::string> names = {"northwest", "north",     "northeast", "west",     "center",
                                                   "east",      "southwest", "south",     "southeast"};
    return names;
}

const char* gravity_name(Gravity g) { return gravity_names()[static_cast<std::size_t>(g)].c_str(); }

Gravity parse_gravity(const std::string& text, const std::string& option) {
    const auto& names = gravity_names();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (text == names[i]) return static_cast<Gravity>(i);
    throw usage_error(option, "'" + text +
                                  "' is not a gravity (allowed: northwest, north, northeast, west, center, east, "
                                  "southwest, south, southeast)");
}

Corner gravity_corner(Gravity g, long long iw, long long ih, long long w, long long h, long long dx, long long dy) {
    Corner c{dx, dy};
    switch (g) {
        case Gravity::NorthEast:
        case Gravity::East:
        case Gravity::SouthEast: c.x = iw - w - dx; break;
        case Gravity::North:
        case Gravity::Center:
        case Gravity::South: c.x = dx + (iw / 2 - w / 2); break;
        default: break;
    }
    switch (g) {
        case Gravity::SouthWest:
        case Gravity::South:
        case Gravity::SouthEast: c.y = ih - h - dy; break;
        case Gravity::West:
        case Gravity::Center:
        case Gravity::East: c.y = dy + (ih / 2 - h / 2); break;
        default: break;
    }
    return c;
}

namespace {

std::string signed_text(long long v) { return (v < 0 ? "-" : "+") + std::to_string(v < 0 ? -v : v); }

void check_range(long long v, long long lo, long long hi, const char* option) {
    if (v < lo || v > hi)
        throw usage_error(option, std::to_string(v) + " is outside " + std::to_string(lo) + " to " + std::to_string(hi));
}

// 64 x 64 pixel tiles keep both the rows read and the rows written of a
// transposing copy in cache.
constexpr int kTile = 64;

// T: the sample type (u8, u16); a pixel moves as C samples.
template <typename T, int C>
void turn_tiles(ImageView<const T> src, ImageView<T> dst, Turn t) {
    const int tiles_x = (dst.width + kTile - 1) / kTile;
    const int tiles_y = (dst.height + kTile - 1) / kTile;
    parallel_for(tiles_y, 1, [&](int ty0, int ty1) {
        for (int ty = ty0; ty < ty1; ++ty)
            for (int tx = 0; tx < tiles_x; ++tx) {
                const int x_end = std::min(dst.width, (tx + 1) * kTile);
                const int y_end = std::min(dst.height, (ty + 1) * kTile);
                for (int oy = ty * kTile; oy < y_end; ++oy) {
                    T* d = dst.row(oy) + static_cast<std::size_t>(tx) * kTile * C;
                    for (int ox = tx * kTile; ox < x_end; ++ox, d += C) {
                        int sx, sy;
                        turn_source(t, src.width, src.height, ox, oy, sx, sy);
                        std::memcpy(d, src.row(sy) + static_cast<std::size_t>(sx) * C, C * sizeof(T));
                    }
                }
            }
    });
}

template <typename T, int C>
void flop_rows(ImageView<const T> src, ImageView<T> dst, bool flip) {
    const int bytes = C * static_cast<int>(sizeof(T));
    parallel_for(dst.height, std::max(1, (1 << 16) / std::max(1, src.width * bytes)), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const T* s = src.row(flip ? src.height - 1 - y : y);
            T* d = dst.row(y);
            for (int x = 0; x < src.width; ++x)
                std::memcpy(d + static_cast<std::size_t>(x) * C, s + static_cast<std::size_t>(src.width - 1 - x) * C,
                            C * sizeof(T));
        }
    });
}

template <typename T, int C>
void pad_rows(ImageView<const T> src, ImageView<T> dst, const PadSides& s, BorderMode border, const std::array<T, 4>& fill) {
    // Which source column each output column reads (-1: the background),
    // computed once for the image.
    std::vector<int> column(static_cast<std::size_t>(dst.width));
    for (int x = 0; x < dst.width; ++x) column[static_cast<std::size_t>(x)] = border_index(x - s.left, src.width, border);
    constexpr std::size_t kPixel = C * sizeof(T);  // bytes
    const std::size_t middle = static_cast<std::size_t>(src.width) * kPixel;
    parallel_for(dst.height, std::max(1, (1 << 16) / std::max(1, dst.width * static_cast<int>(kPixel))), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            T* d = dst.row(y);
            const int sy = border_index(y - s.top, src.height, border);
            if (sy < 0) {
                for (int x = 0; x < dst.width; ++x) std::memcpy(d + static_cast<std::size_t>(x) * C, fill.data(), kPixel);
                continue;
            }
            const T* r = src.row(sy);
            for (int x = 0; x < dst.width; ++x) {
                if (x == s.left) {  // the image's own columns in one copy
                    std::memcpy(d + static_cast<std::size_t>(x) * C, r, middle);
                    x += src.width - 1;
                    continue;
                }
                const int sx = column[static_cast<std::size_t>(x)];
                std::memcpy(d + static_cast<std::size_t>(x) * C, sx < 0 ? fill.data() : r + static_cast<std::size_t>(sx) * C,
                            kPixel);
            }
        }
    });
}

}  // namespace

// --- crop ----------------------------------------------------------------------

void check_crop_spec(const CropSpec& s) {
    check_range(s.width, 0, kMaxGeometrySide, "--width");
    check_range(s.height, 0, kMaxGeometrySide, "--height");
    check_range(s.x, -kMaxGeometrySide, kMaxGeometrySide, "--x");
    check_range(s.y, -kMaxGeometrySide, kMaxGeometrySide, "--y");
}

std::string crop_text(const CropSpec& s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height) + signed_text(s.x) + signed_text(s.y) + " " +
           gravity_name(s.gravity);
}

PixelBox crop_box(const CropSpec& s, int iw, int ih) {
    check_crop_spec(s);
    const long long w = s.width == 0 ? iw : s.width;
    const long long h = s.height == 0 ? ih : s.height;
    const Corner c = gravity_corner(s.gravity, iw, ih, w, h, s.x, s.y);
    const long long x0 = std::max(c.x, 0LL), x1 = std::min(c.x + w, static_cast<long long>(iw));
    const long long y0 = std::max(c.y, 0LL), y1 = std::min(c.y + h, static_cast<long long>(ih));
    if (x1 <= x0 || y1 <= y0)
        throw usage_error("crop", "the box " + std::to_string(w) + "x" + std::to_string(h) + signed_text(c.x) +
                                      signed_text(c.y) + " (" + crop_text(s) + ") lies outside the " +
                                      std::to_string(iw) + "x" + std::to_string(ih) + " image");
    return {static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0), static_cast<int>(y1 - y0)};
}

// --- turns ---------------------------------------------------------------------

const char* turn_name(Turn t) {
    switch (t) {
        case Turn::None: return "copy";
        case Turn::Flip: return "flip";
        case Turn::Flop: return "flop";
        case Turn::Transpose: return "transpose";
        case Turn::Rotate90: return "rotate 90";
        case Turn::Rotate180: return "rotate 180";
        case Turn::Rotate270: return "rotate 270";
    }
    return "?";
}

std::optional<Turn> turn_of_angle(double degrees) {
    if (!std::isfinite(degrees)) return std::nullopt;
    if (std::fmod(degrees, 90.0) != 0.0) return std::nullopt;  // fmod is exact
    double a = std::fmod(degrees, 360.0);
    if (a < 0) a += 360.0;  // exact: a is a multiple of 90 in (-360, 0)
    if (a == 0.0) return Turn::None;
    if (a == 90.0) return Turn::Rotate90;
    if (a == 180.0) return Turn::Rotate180;
    if (a == 270.0) return Turn::Rotate270;
    return std::nullopt;
}

// --- pad -----------------------------------------------------------------------

void parse_pad_size(const std::string& text, int& width, int& height, const std::string& option) {
    const auto x = text.find('x');
    const std::string a = x == std::string::npos ? std::string() : text.substr(0, x);
    const std::string b = x == std::string::npos ? std::string() : text.substr(x + 1);
    const auto number = [](const std::string& s) -> long long {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
        return std::stoll(s);
    };
    const long long w = number(a), h = number(b);
    if (w < 0 || h < 0) throw usage_error(option, "'" + text + "' is not a size WIDTHxHEIGHT (for example 1920x1080)");
    if (w < 1 || h < 1 || w > kMaxGeometrySide || h > kMaxGeometrySide)
        throw usage_error(option, "'" + text + "': width and height must be from 1 to " + std::to_string(kMaxGeometrySide));
    width = static_cast<int>(w);
    height = static_cast<int>(h);
}

void check_pad_spec(const PadSpec& s) {
    if (s.to_size) {
        check_range(s.width, 1, kMaxGeometrySide, "--size");
        check_range(s.height, 1, kMaxGeometrySide, "--size");
        return;
    }
    check_range(s.top, 0, kMaxGeometrySide, "--top");
    check_range(s.bottom, 0, kMaxGeometrySide, "--bottom");
    check_range(s.left, 0, kMaxGeometrySide, "--left");
    check_range(s.right, 0, kMaxGeometrySide, "--right");
    if (s.top == 0 && s.bottom == 0 && s.left == 0 && s.right == 0)
        throw usage_error("--top", "every side is 0: give at least one of --top, --bottom, --left, --right above 0, "
                                   "or --size WxH");
}

PadSides pad_sides(const PadSpec& s, int iw, int ih) {
    check_pad_spec(s);
    if (!s.to_size) return {s.top, s.bottom, s.left, s.right};
    if (s.width < iw || s.height < ih)
        throw usage_error("pad", "--size " + std::to_string(s.width) + "x" + std::to_string(s.height) +
                                     " is smaller than the " + std::to_string(iw) + "x" + std::to_string(ih) +
                                     " image (pad only adds; crop takes away)");
    // The box placed over the image at offset 0; the image sits at minus its corner.
    const Corner c = gravity_corner(s.gravity, iw, ih, s.width, s.height, 0, 0);
    PadSides p;
    p.left = static_cast<int>(-c.x);
    p.top = static_cast<int>(-c.y);
    p.right = s.width - iw - p.left;
    p.bottom = s.height - ih - p.top;
    return p;
}

std::array<std::uint8_t, 4> pad_fill(const PadSpec& s, int channels) {
    return colour_pixel(s.background ? *s.background : Rgba{0, 0, 0, 0}, channels);
}

std::array<std::uint16_t, 4> pad_fill16(const PadSpec& s, int channels) {
    return colour_pixel16(s.background ? *s.background : Rgba{0, 0, 0, 0}, channels);
}

std::string pad_text(const PadSpec& s) {
    std::string t = s.to_size ? "to " + std::to_string(s.width) + "x" + std::to_string(s.height) + " " +
                                    gravity_name(s.gravity)
                              : "top " + std::to_string(s.top) + ", bottom " + std::to_string(s.bottom) + ", left " +
                                    std::to_string(s.left) + ", right " + std::to_string(s.right);
    t += ", border " + border_name(Border{s.border, 0}).substr(0, border_name(Border{s.border, 0}).find(':'));
    if (s.border == BorderMode::Constant)
        t += ", background " + (s.background ? colour_text(*s.background) : std::string("default (transparent black)"));
    return t;
}

// --- CPU -------------------------------------------------------------------------

namespace cpu {

namespace {

template <typename T>
Image<T> crop_any(ImageView<const T> src, const PixelBox& box) {
    check_image_shape(src.width, src.height, src.channels);
    const ImageView<const T> window = src.sub(box.x, box.y, box.width, box.height);  // throws outside
    Image<T> out(box.width, box.height, src.channels);
    parallel_for(box.height, std::max(1, (1 << 16) / static_cast<int>(std::max<std::size_t>(1, window.row_bytes()))),
                 [&](int y0, int y1) {
                     for (int y = y0; y < y1; ++y) std::memcpy(out.row(y), window.row(y), window.row_bytes());
                 });
    return out;
}

template <typename T>
Image<T> turn_any(ImageView<const T> src, Turn t) {
    check_image_shape(src.width, src.height, src.channels);
    const bool swap = turn_swaps_sides(t);
    Image<T> out(swap ? src.height : src.width, swap ? src.width : src.height, src.channels);
    if (t == Turn::None || t == Turn::Flip) {
        parallel_for(src.height, std::max(1, (1 << 16) / static_cast<int>(std::max<std::size_t>(1, src.row_bytes()))),
                     [&](int y0, int y1) {
                         for (int y = y0; y < y1; ++y)
                             std::memcpy(out.row(y), src.row(t == Turn::Flip ? src.height - 1 - y : y), src.row_bytes());
                     });
        return out;
    }
    const bool rows_only = t == Turn::Flop || t == Turn::Rotate180;
    const bool reversed = t == Turn::Rotate180;
    const ImageView<T> d = out.view();
    switch (src.channels) {
        case 1: rows_only ? flop_rows<T, 1>(src, d, reversed) : turn_tiles<T, 1>(src, d, t); break;
        case 2: rows_only ? flop_rows<T, 2>(src, d, reversed) : turn_tiles<T, 2>(src, d, t); break;
        case 3: rows_only ? flop_rows<T, 3>(src, d, reversed) : turn_tiles<T, 3>(src, d, t); break;
        default: rows_only ? flop_rows<T, 4>(src, d, reversed) : turn_tiles<T, 4>(src, d, t); break;
    }
    return out;
}

template <typename T>
Image<T> pad_any(ImageView<const T> src, const PadSides& s, BorderMode border, const std::array<T, 4>& fill) {
    check_image_shape(src.width, src.height, src.channels);
    if (s.top < 0 || s.bottom < 0 || s.left < 0 || s.right < 0) throw usage_error("pad", "a side is negative");
    const long long w = static_cast<long long>(src.width) + s.left + s.right;
    const long long h = static_cast<long long>(src.height) + s.top + s.bottom;
    if (w > (1LL << 31) - 1 || h > (1LL << 31) - 1) throw usage_error("pad", "the padded image is too large");
    Image<T> out(static_cast<int>(w), static_cast<int>(h), src.channels);
    const ImageView<T> d = out.view();
    switch (src.channels) {
        case 1: pad_rows<T, 1>(src, d, s, border, fill); break;
        case 2: pad_rows<T, 2>(src, d, s, border, fill); break;
        case 3: pad_rows<T, 3>(src, d, s, border, fill); break;
        default: pad_rows<T, 4>(src, d, s, border, fill); break;
    }
    return out;
}

}  // namespace

ImageU8 crop(ConstViewU8 src, const PixelBox& box) { return crop_any(src, box); }
ImageU16 crop(ConstViewU16 src, const PixelBox& box) { return crop_any(src, box); }
ImageU8 turn(ConstViewU8 src, Turn t) { return turn_any(src, t); }
ImageU16 turn(ConstViewU16 src, Turn t) { return turn_any(src, t); }
ImageU8 pad(ConstViewU8 src, const PadSides& s, BorderMode border, const std::array<std::uint8_t, 4>& fill) {
    return pad_any(src, s, border, fill);
}
ImageU16 pad(ConstViewU16 src, const PadSides& s, BorderMode border, const std::array<std::uint16_t, 4>& fill) {
    return pad_any(src, s, border, fill);
}

}  // namespace cpu
}  // namespace imgpar
