#include "src/ops/rotate.hpp"

#include <algorithm>
#include <cmath>

#include "src/error.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const char* interpolation_name(Interpolation i) { return i == Interpolation::Bicubic ? "bicubic" : "bilinear"; }

Interpolation parse_interpolation(const std::string& text, const std::string& option) {
    if (text == "bilinear") return Interpolation::Bilinear;
    if (text == "bicubic") return Interpolation::Bicubic;
    throw usage_error(option, "'" + text + "' is not an interpolation (allowed: bilinear, bicubic)");
}

void check_rotate_spec(const RotateSpec& spec) {
    if (!std::isfinite(spec.degrees)) throw usage_error("--angle", "must be a finite number of degrees");
}

double reduced_degrees(double degrees) {
    double a = std::fmod(degrees, 360.0);
    if (a < 0) a += 360.0;
    return a >= 360.0 ? 0.0 : a;
}

namespace {

constexpr double kPi = 3.14159265358979323846;

void cos_sin(double degrees, double& c, double& s) {
    const double theta = reduced_degrees(degrees) * (kPi / 180.0);
    c = std::cos(theta);
    s = std::sin(theta);
}

int rotated_side(double a, double b) {
    const double v = std::ceil(a + b - 1e-6);
    return static_cast<int>(std::max(1.0, v));
}

}  // namespace

void rotated_size(double degrees, int w, int h, int& out_w, int& out_h) {
    double c, s;
    cos_sin(degrees, c, s);
    out_w = rotated_side(w * std::fabs(c), h * std::fabs(s));
    out_h = rotated_side(w * std::fabs(s), h * std::fabs(c));
}

RotateMap rotate_map(const RotateSpec& spec, int w, int h, int channels) {
    check_rotate_spec(spec);
    check_image_shape(w, h, channels);
    if (w > kMaxRotateSide || h > kMaxRotateSide)
        throw usage_error("rotate", "a " + std::to_string(w) + "x" + std::to_string(h) +
                                        " image is too large to rotate by an angle that is not a multiple of 90 "
                                        "degrees (sides up to " + std::to_string(kMaxRotateSide) + ")");
    RotateMap m;
    double c, s;
    cos_sin(spec.degrees, c, s);
    m.cos_q = std::llround(std::ldexp(c, 32));
    m.sin_q = std::llround(std::ldexp(s, 32));
    m.src_w = w;
    m.src_h = h;
    rotated_size(spec.degrees, w, h, m.dst_w, m.dst_h);
    m.taps = spec.interpolation == Interpolation::Bicubic ? 4 : 2;
    const auto fill = colour_pixel(spec.background ? *spec.background : Rgba{0, 0, 0, 0}, channels);
    const auto fill16 = colour_pixel16(spec.background ? *spec.background : Rgba{0, 0, 0, 0}, channels);
    for (int i = 0; i < 4; ++i) {
        m.fill[i] = fill[static_cast<std::size_t>(i)];
        m.fill16[i] = fill16[static_cast<std::size_t>(i)];
    }
    with_rotate_layout(channels, m.taps, [&](auto c, auto t) {
        rotate_background<c, t>(m, m.outside);
        rotate_background<c, t>(m, m.outside16);
    });
    return m;
}

namespace cpu {

namespace {

template <int C, int kTaps, typename T>
void rotate_rows(const RotateMap& m, ImageView<const T> src, ImageView<T> dst) {
    const auto inside = [&](int tx, int ty, int fx, int fy, T* out) {
        rotate_inside_bytes<C, kTaps>(src.data, src.stride, tx, ty, fx, fy, out);
    };
    parallel_for(dst.height, std::max(1, (1 << 14) / dst.width), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            T* d = dst.row(y);
            for (int x = 0; x < dst.width; ++x, d += C) rotate_pixel_placed<C, kTaps>(m, src.data, src.stride, x, y, inside, d);
        }
    });
}

template <typename T>
Image<T> rotate_any(ImageView<const T> src, const RotateSpec& spec) {
    const RotateMap m = rotate_map(spec, src.width, src.height, src.channels);
    Image<T> out(m.dst_w, m.dst_h, src.channels);
    with_rotate_layout(src.channels, m.taps, [&](auto c, auto t) { rotate_rows<c, t, T>(m, src, out.view()); });
    return out;
}

}  // namespace

ImageU8 rotate(ConstViewU8 src, const RotateSpec& spec) { return rotate_any(src, spec); }
ImageU16 rotate(ConstViewU16 src, const RotateSpec& spec) { return rotate_any(src, spec); }

}  // namespace cpu
}  // namespace imgpar
