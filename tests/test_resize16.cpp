// 16-bit resize on the CPU (src/ops/resize.hpp, 16 BITS) against references
// written here, independently of its tables: area as the exact rational box
// mean (and at integer factors the plain block mean), nearest as NumPy
// indexing, the filters against a float64 evaluation of the same kernels
// (within one level on at least 99.5% of samples, as the 8-bit contract),
// premultiplied alpha in float64; every layout, odd sizes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "src/ops/resize.hpp"
#include "tests/support/resize_reference.hpp"
#include "tests/support/test_images.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

ImageU16 resized16(ResizeFilter f, const ImageU16& src, int w, int h) {
    const ResizePlan plan = resize_plan(f, src.width(), src.height(), {w, h, 0, 0, w, h}, SampleType::U16);
    ImageU16 out(w, h, src.channels());
    cpu::resize(plan, src.view(), out.view());
    return out;
}

}  // namespace

TEST_CASE("16-bit resize area: the exact box mean rounded half up at any factor; the plain block mean at integer factors") {
    const std::pair<int, int> sizes[] = {{6, 5}, {7, 5}, {3, 3}, {13, 1}, {1, 9}, {21, 15}, {42, 35}, {50, 40}, {1, 1}};
    for (int c : {1, 3}) {
        const ImageU16 src = test::random_image16(42, 35, c, 7 + static_cast<unsigned>(c));
        for (const auto& [w, h] : sizes) {
            CAPTURE(c);
            CAPTURE(w);
            CAPTURE(h);
            const ImageU16 got = resized16(ResizeFilter::Area, src, w, h);
            int bad = 0;
            for (int k = 0; k < h; ++k)
                for (int j = 0; j < w; ++j)
                    for (int ch = 0; ch < c; ++ch) bad += got.at(j, k, ch) != test::area_box_mean(src, w, h, j, k, ch);
            CHECK(bad == 0);
        }
    }
    // Integer factors: (sum of the k x k block + k^2 / 2) / k^2, whole numbers only.
    for (int c = 1; c <= 4; ++c)
        for (int f : {2, 3, 5}) {
            const ImageU16 src = test::random_image16(7 * f, 3 * f, c, static_cast<unsigned>(f + c));
            const ImageU16 got = resized16(ResizeFilter::Area, src, 7, 3);
            const bool alpha = c == 2 || c == 4;
            int bad = 0;
            for (int k = 0; k < 3; ++k)
                for (int j = 0; j < 7; ++j) {
                    long long sum[4] = {0, 0, 0, 0}, psum[4] = {0, 0, 0, 0};
                    for (int y = 0; y < f; ++y)
                        for (int x = 0; x < f; ++x)
                            for (int ch = 0; ch < c; ++ch) {
                                const long long v = src.at(j * f + x, k * f + y, ch);
                                sum[ch] += v;
                                psum[ch] += alpha ? v * src.at(j * f + x, k * f + y, c - 1) : v;
                            }
                    const long long n = static_cast<long long>(f) * f;
                    for (int ch = 0; ch < c; ++ch) {
                        long long want = (2 * sum[ch] + n) / (2 * n);
                        if (alpha && ch < c - 1) {  // premultiplied: round(P / A), 0 without alpha
                            const long long a = sum[c - 1];
                            want = a == 0 || psum[ch] == 0 ? 0 : std::min(65535LL, (2 * psum[ch] + a) / (2 * a));
                        }
                        bad += got.at(j, k, ch) != want;
                    }
                }
            CAPTURE(c);
            CAPTURE(f);
            CHECK(bad == 0);
        }
    ImageU16 two(2, 2, 1);
    const std::uint16_t v[] = {65535, 65534, 1, 1};  // 131071 / 4 = 32767.75
    std::copy(v, v + 4, two.data());
    CHECK(resized16(ResizeFilter::Area, two, 1, 1).at(0, 0, 0) == 32768);
}

TEST_CASE("16-bit resize nearest: numpy indexing img[(2j+1)*n // (2m)], every channel as stored") {
    const ImageU16 src = test::layout_image16(29, 17, 4, 3);
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{7, 5}, {58, 51}, {29, 17}, {1, 1}, {100, 3}})
        CHECK(test::nearest_mismatches(src, resized16(ResizeFilter::Nearest, src, w, h)) == 0);
}

TEST_CASE("16-bit resize filters: within one level of float64 on at least 99.5% of samples, factors 1/37 to 13, every layout") {
    const std::pair<int, int> sizes[] = {{5, 4}, {61, 43}, {93, 67}, {200, 140}, {561, 399}};
    for (int c = 1; c <= 4; ++c) {
        const ImageU16 photo = test::smooth_image16(187, 133, c, 11 + static_cast<unsigned>(c));
        const bool alpha = c == 2 || c == 4;
        for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3})
            for (const auto& [w, h] : sizes) {
                if (c != 3 && w > 300) continue;  // the float64 reference is slow; one layout at the largest
                CAPTURE(c);
                CAPTURE(resize_filter_name(f));
                CAPTURE(w);
                const ImageU16 got = resized16(f, photo, w, h);
                std::size_t near = 0, total = 0, within2 = 0;
                const auto alpha_of = [&](int x, int y) { return static_cast<double>(photo.at(x, y, c - 1)); };
                const std::vector<double> a = alpha ? test::float_resize_pass(f, 187, 133, w, h, alpha_of) : std::vector<double>();
                for (int ch = 0; ch < c; ++ch) {
                    const bool colour = alpha && ch < c - 1;
                    const std::vector<double> want = test::float_resize_pass(f, 187, 133, w, h, [&](int x, int y) {
                        return static_cast<double>(photo.at(x, y, ch)) * (colour ? alpha_of(x, y) : 1.0);
                    });
                    for (int k = 0; k < h; ++k)
                        for (int j = 0; j < w; ++j) {
                            const std::size_t i = static_cast<std::size_t>(k) * w + j;
                            double v = want[i];
                            if (colour) v = a[i] > 0.5 ? v / a[i] : got.at(j, k, ch);  // no colour where alpha rounds to 0
                            const double d = std::fabs(got.at(j, k, ch) - std::clamp(std::round(v), 0.0, 65535.0));
                            near += d <= 1;
                            within2 += d <= 2;
                            ++total;
                        }
                }
                CHECK(static_cast<double>(near) >= 0.995 * static_cast<double>(total));
                CHECK(static_cast<double>(within2) >= 0.999 * static_cast<double>(total));
            }
    }
}

TEST_CASE("16-bit resize: the same size is a copy with every filter; 22-bit weights sum to 2^22; 8-bit plans are refused") {
    const ImageU16 src = test::layout_image16(31, 19, 4, 5);
    for (ResizeFilter f : {ResizeFilter::Auto, ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::Bicubic,
                           ResizeFilter::Lanczos3, ResizeFilter::Area}) {
        CAPTURE(resize_filter_name(f));
        IMGPAR_CHECK_IMAGES_EQUAL(src, resized16(f, src, 31, 19));
    }
    for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3})
        for (const auto& [n, m] : std::vector<std::pair<int, int>>{{100, 37}, {37, 100}, {1000, 27}, {1, 7}}) {
            const ResizeAxis a = resize_axis(f, n, m, 0, m, kResizeWeightBits16);
            CHECK(a.sum == (1LL << 22));
            for (int k = 0; k < m; ++k) {
                long long sum = 0;
                for (int t = 0; t < a.taps; ++t) sum += a.weight[static_cast<std::size_t>(k) * a.taps + t];
                CHECK(sum == a.sum);
            }
        }
    const ResizePlan eight = resize_plan(ResizeFilter::Lanczos3, 31, 19, {10, 10, 0, 0, 10, 10});
    ImageU16 out(10, 10, 4);
    CHECK_THROWS_AS(cpu::resize(eight, src.view(), out.view()), Error);
}

TEST_CASE("16-bit resize alpha: a constant colour stays that colour at any alpha; extreme values do not overflow") {
    ImageU16 src(40, 30, 4);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x) {
            const bool opaque = (x / 5 + y / 5) % 2 == 0;
            src.at(x, y, 0) = opaque ? 65535 : 0;
            src.at(x, y, 1) = opaque ? 12345 : 0;
            src.at(x, y, 2) = opaque ? 1 : 0;
            src.at(x, y, 3) = opaque ? static_cast<std::uint16_t>(2 + x * 1600) : 0;
        }
    for (ResizeFilter f : {ResizeFilter::Bilinear, ResizeFilter::Bicubic, ResizeFilter::Lanczos3, ResizeFilter::Area}) {
        const ImageU16 got = resized16(f, src, 17, 13);
        int off = 0;
        for (int k = 0; k < 13; ++k)
            for (int j = 0; j < 17; ++j)
                if (got.at(j, k, 3) > 0)
                    off += std::abs(got.at(j, k, 0) - 65535) > 1 || std::abs(got.at(j, k, 1) - 12345) > 1 ||
                           std::abs(got.at(j, k, 2) - 1) > 1;
        CAPTURE(resize_filter_name(f));
        CHECK(off == 0);
    }
    // A 0/65535 checkerboard drives the negative lobes to their extremes: clamped, never wrapped.
    ImageU16 board(33, 21, 2);
    for (int y = 0; y < 21; ++y)
        for (int x = 0; x < 33; ++x) board.at(x, y, 0) = (x + y) % 2 ? 65535 : 0, board.at(x, y, 1) = 65535;
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{13, 9}, {70, 50}}) {
        const ImageU16 got = resized16(ResizeFilter::Lanczos3, board, w, h);
        for (int k = 0; k < h; ++k)
            for (int j = 0; j < w; ++j) CHECK(got.at(j, k, 1) == 65535);
    }
}

TEST_CASE("16-bit resize and thumbnail jobs: u16 in, u16 out, the 16-bit arithmetic") {
    const ImageU16 src = test::smooth_image16(120, 80, 3, 2);
    for (const char* name : {"resize", "thumbnail"}) {
        const Operation* op = find_operation(name);
        REQUIRE(op != nullptr);
        const auto values = std::string(name) == "resize" ? op->values({{"geometry", "50x40!"}}) : op->values({{"size", "50x40"}});
        const std::unique_ptr<ImageJob> job = op->make_image_job(values);
        CHECK(job->takes_u16());
        const ImageShape out = job->output_shape({120, 80, 3, SampleType::U16});
        CHECK(out.type == SampleType::U16);
        RunNotes notes;
        const ImageU16 got = job->run_cpu(src.view(), notes);
        CHECK(got.width() == out.width);
        CHECK(got.height() == out.height);
        CHECK(notes.kernel.find("16-bit") != std::string::npos);
    }
}
