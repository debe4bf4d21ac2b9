// 16-bit rotation by any angle on the CPU against the contract
// (src/ops/rotate.hpp, 16 BITS) evaluated here by brute force: the
// position from the rounded cosine and sine, the weights from the
// Catmull-Rom polynomial in float64 rounded as the contract says, every tap
// checked against the image, the sums in 64-bit integers. Every layout, odd
// sizes, both interpolations, the background as v * 257; then a float64
// check that the result is the weighted mean it claims to be.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "src/ops/rotate.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

// Weights in 1/256 at fraction f (0..255).
void weights(int taps, int f, long long w[4]) {
    if (taps == 2) {
        w[0] = 256 - f, w[1] = f, w[2] = w[3] = 0;
        return;
    }
    const double t = f / 256.0;
    const double k[4] = {(-t * t * t + 2 * t * t - t) / 2, (3 * t * t * t - 5 * t * t + 2) / 2,
                         (-3 * t * t * t + 4 * t * t + t) / 2, (t * t * t - t * t) / 2};
    long long sum = 0;
    for (int i = 0; i < 4; ++i) {
        const double v = k[i] * 256;
        // Ties away from zero (the values are multiples of 2^-17: exact in float64).
        w[i] = static_cast<long long>(v >= 0 ? std::floor(v + 0.5) : -std::floor(-v + 0.5));
        sum += w[i];
    }
    w[f < 128 ? 1 : 2] += 256 - sum;
}

// The contract's output pixel (ox, oy) of a rotation of `img`.
void reference_pixel(const ImageU16& img, double degrees, int taps, const std::array<std::uint16_t, 4>& fill, int W, int H,
                     int ox, int oy, std::uint16_t* out) {
    const int w = img.width(), h = img.height(), C = img.channels();
    double a = std::fmod(degrees, 360.0);
    if (a < 0) a += 360.0;
    const double theta = a * (3.14159265358979323846 / 180.0);
    const long long cq = std::llround(std::ldexp(std::cos(theta), 32)), sq = std::llround(std::ldexp(std::sin(theta), 32));
    const long long dx2 = 2LL * ox + 1 - W, dy2 = 2LL * oy + 1 - H;
    const long long X = cq * dx2 + sq * dy2 + (static_cast<long long>(w - 1) << 32);
    const long long Y = -sq * dx2 + cq * dy2 + (static_cast<long long>(h - 1) << 32);
    // Floor division by 2^25 of X + 2^24 (written as division, not a shift).
    const auto floor_div = [](long long n, long long d) { return n >= 0 ? n / d : -((-n + d - 1) / d); };
    const long long qx = floor_div(X + (1LL << 24), 1LL << 25), qy = floor_div(Y + (1LL << 24), 1LL << 25);
    const long long ix = floor_div(qx, 256), iy = floor_div(qy, 256);
    long long wx[4], wy[4];
    weights(taps, static_cast<int>(qx - ix * 256), wx);
    weights(taps, static_cast<int>(qy - iy * 256), wy);
    const int first = taps == 4 ? 1 : 0;
    const bool alpha = C == 2 || C == 4;
    long long sum[4] = {0, 0, 0, 0}, asum = 0;
    for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i) {
            const long long x = ix - first + i, y = iy - first + j;
            const bool in = x >= 0 && x < w && y >= 0 && y < h;
            long long v[4];
            for (int c = 0; c < C; ++c)
                v[c] = in ? img.at(static_cast<int>(x), static_cast<int>(y), c) : fill[static_cast<std::size_t>(c)];
            const long long wt = wx[i] * wy[j];
            if (alpha) {
                for (int c = 0; c < C - 1; ++c) sum[c] += wt * v[c] * v[C - 1];
                asum += wt * v[C - 1];
            } else {
                for (int c = 0; c < C; ++c) sum[c] += wt * v[c];
            }
        }
    const auto clamp16 = [](long long v) { return static_cast<std::uint16_t>(v < 0 ? 0 : v > 65535 ? 65535 : v); };
    if (!alpha) {
        for (int c = 0; c < C; ++c) out[c] = clamp16(floor_div(sum[c] + 32768, 65536));
        return;
    }
    const std::uint16_t a16 = clamp16(floor_div(asum + 32768, 65536));
    for (int c = 0; c < C - 1; ++c)
        out[c] = a16 == 0 || sum[c] <= 0 ? 0 : clamp16((2 * sum[c] + asum) / (2 * asum));
    out[C - 1] = a16;
}

}  // namespace

TEST_CASE("16-bit rotate: every pixel is the contract's, by brute force, every layout, both interpolations") {
    int compared = 0;
    for (int c = 1; c <= 4; ++c)
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 9}, {9, 1}, {2, 3}, {17, 13}, {31, 5}})
            for (double degrees : {30.0, -17.5, 123.0, 200.25, 359.0})
                for (Interpolation in : {Interpolation::Bilinear, Interpolation::Bicubic}) {
                    const ImageU16 img = test::layout_image16(w, h, c, static_cast<unsigned>(w * 7 + h + c));
                    RotateSpec spec;
                    spec.degrees = degrees;
                    spec.interpolation = in;
                    if (compared % 3 == 1) spec.background = Rgba{255, 7, 200, 128};
                    const ImageU16 got = cpu::rotate(img.view(), spec);
                    const std::array<std::uint16_t, 4> fill =
                        colour_pixel16(spec.background ? *spec.background : Rgba{0, 0, 0, 0}, c);
                    int bad = 0, first_x = -1, first_y = -1;
                    for (int y = 0; y < got.height(); ++y)
                        for (int x = 0; x < got.width(); ++x) {
                            std::uint16_t want[4];
                            reference_pixel(img, degrees, in == Interpolation::Bicubic ? 4 : 2, fill, got.width(),
                                            got.height(), x, y, want);
                            for (int k = 0; k < c; ++k)
                                if (got.at(x, y, k) != want[k] && bad++ == 0) first_x = x, first_y = y;
                        }
                    CAPTURE(c);
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(degrees);
                    CAPTURE(first_x);
                    CAPTURE(first_y);
                    CHECK(bad == 0);
                    ++compared;
                }
    CHECK(compared == 4 * 6 * 5 * 2);
}

TEST_CASE("16-bit rotate: bilinear is within one level of the float64 weighted mean; a constant image stays constant inside") {
    const ImageU16 img = test::smooth_image16(40, 30, 3, 4);
    RotateSpec spec;
    spec.degrees = 33;
    const ImageU16 got = cpu::rotate(img.view(), spec);
    int inside = 0;
    for (int y = 0; y < got.height(); ++y)
        for (int x = 0; x < got.width(); ++x) {
            // The position in float64 (the contract's 1/256 steps are what the weights see).
            const double t = 33 * 3.14159265358979323846 / 180, co = std::cos(t), si = std::sin(t);
            const double dx = x + 0.5 - got.width() / 2.0, dy = y + 0.5 - got.height() / 2.0;
            const double sx = co * dx + si * dy + (40 - 1) / 2.0, sy = -si * dx + co * dy + (30 - 1) / 2.0;
            const double qx = std::floor(sx * 256 + 0.5) / 256, qy = std::floor(sy * 256 + 0.5) / 256;
            const int ix = static_cast<int>(std::floor(qx)), iy = static_cast<int>(std::floor(qy));
            if (ix < 0 || iy < 0 || ix + 1 >= 40 || iy + 1 >= 30) continue;
            const double fx = qx - ix, fy = qy - iy;
            for (int c = 0; c < 3; ++c) {
                const double v = (1 - fy) * ((1 - fx) * img.at(ix, iy, c) + fx * img.at(ix + 1, iy, c)) +
                                 fy * ((1 - fx) * img.at(ix, iy + 1, c) + fx * img.at(ix + 1, iy + 1, c));
                CHECK(std::fabs(got.at(x, y, c) - v) <= 1.0);
            }
            ++inside;
        }
    CHECK(inside > 500);
    ImageU16 flat(21, 11, 2);
    for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 21; ++x) flat.at(x, y, 0) = 40001, flat.at(x, y, 1) = 65535;
    spec.interpolation = Interpolation::Bicubic;
    const ImageU16 turned = cpu::rotate(flat.view(), spec);
    int opaque = 0;
    for (int y = 0; y < turned.height(); ++y)
        for (int x = 0; x < turned.width(); ++x)
            if (turned.at(x, y, 1) == 65535) {
                CHECK(turned.at(x, y, 0) == 40001);
                ++opaque;
            }
    CHECK(opaque > 50);
}
