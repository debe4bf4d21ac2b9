// The CPU reference of summed-area tables of 16-bit images
// (src/ops/integral.hpp, 16-BIT CONTRACT). The 8-bit plan (src/ops/integral.cpp):
// bands of rows in parallel, each band's first row continued from the column
// totals of the bands above, then every row the row above plus the running
// sums along its image row. The sums are 64-bit integers throughout (a
// square of a 16-bit sample already takes 32 bits) and converted to the
// table's type once, when an entry is stored: exact, since integral_type only
// allows a type that holds the bound.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/integral.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace {

constexpr std::size_t kMinBandSamples16 = std::size_t{1} << 18;
constexpr int kMinBandRows16 = 16;

struct Band16 {
    int y0, y1;
};

std::vector<Band16> bands_of16(const ConstViewU16& src) {
    const std::size_t samples = static_cast<std::size_t>(src.width) * src.height * src.channels;
    const std::size_t by_size = std::max<std::size_t>(1, samples / kMinBandSamples16);
    const int count = static_cast<int>(std::min<std::size_t>({by_size, static_cast<std::size_t>(cpu_thread_count()),
                                                              static_cast<std::size_t>(std::max(1, src.height / kMinBandRows16))}));
    std::vector<Band16> bands;
    for (int b = 0; b < count; ++b)
        bands.push_back({static_cast<int>(static_cast<long long>(src.height) * b / count),
                         static_cast<int>(static_cast<long long>(src.height) * (b + 1) / count)});
    return bands;
}

template <typename T>
T* row_of(const SumTableView& t, int plane, int y) {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(t.data) +
                                (static_cast<std::size_t>(plane) * t.height + y) * t.pitch);
}

// Table row y + 1 of plane `square` from the row above (`above`, 64-bit
// integers, W + 1 entries a channel) and image row y; `above` becomes the
// new row, which is also stored in T.
template <typename T, int C>
void row16(const std::uint16_t* src, int width, bool square, std::vector<std::uint64_t>& above, T* out) {
    std::uint64_t run[C] = {};
    for (int c = 0; c < C; ++c) out[c] = T(0);
    for (int x = 0; x < width; ++x)
        for (int c = 0; c < C; ++c) {
            const std::uint64_t v = src[static_cast<std::size_t>(x) * C + c];
            run[c] += square ? v * v : v;
            const std::size_t i = static_cast<std::size_t>(x + 1) * C + c;
            above[i] += run[c];
            out[i] = static_cast<T>(above[i]);
        }
}

template <typename T, int C>
void fill16(ConstViewU16 src, const SumTableView& t) {
    const std::vector<Band16> bands = bands_of16(src);
    const std::size_t n = static_cast<std::size_t>(src.width + 1) * C;
    for (int p = 0; p < t.planes; ++p) std::memset(static_cast<void*>(row_of<T>(t, p, 0)), 0, t.row_bytes());
    // Column totals of every band but the last (64-bit, per sample column).
    const int count = static_cast<int>(bands.size());
    std::vector<std::vector<std::uint64_t>> totals(static_cast<std::size_t>(std::max(0, count - 1) * t.planes));
    parallel_for(std::max(0, count - 1), 1, [&](int b0, int b1) {
        for (int b = b0; b < b1; ++b)
            for (int p = 0; p < t.planes; ++p) {
                std::vector<std::uint64_t>& col = totals[static_cast<std::size_t>(b * t.planes + p)];
                col.assign(static_cast<std::size_t>(src.width) * C, 0);
                for (int y = bands[static_cast<std::size_t>(b)].y0; y < bands[static_cast<std::size_t>(b)].y1; ++y) {
                    const std::uint16_t* r = src.row(y);
                    for (std::size_t i = 0; i < col.size(); ++i) {
                        const std::uint64_t v = r[i];
                        col[i] += p == 1 ? v * v : v;
                    }
                }
            }
    });
    parallel_for(count, 1, [&](int b0, int b1) {
        for (int b = b0; b < b1; ++b) {
            const Band16 band = bands[static_cast<std::size_t>(b)];
            for (int p = 0; p < t.planes; ++p) {
                // S(., y0): the running sums along the row of the column totals above the band.
                std::vector<std::uint64_t> above(n, 0);
                std::vector<std::uint64_t> cols(static_cast<std::size_t>(src.width) * C, 0);
                for (int a = 0; a < b; ++a) {
                    const std::vector<std::uint64_t>& col = totals[static_cast<std::size_t>(a * t.planes + p)];
                    for (std::size_t i = 0; i < cols.size(); ++i) cols[i] += col[i];
                }
                std::uint64_t run[C] = {};
                for (std::size_t i = 0; i < cols.size(); ++i) {
                    run[i % C] += cols[i];
                    above[C + i] = run[i % C];
                }
                for (int y = band.y0; y < band.y1; ++y) row16<T, C>(src.row(y), src.width, p == 1, above, row_of<T>(t, p, y + 1));
            }
        }
    });
}

template <typename T>
void fill16_channels(ConstViewU16 src, const SumTableView& t) {
    switch (src.channels) {
        case 1: return fill16<T, 1>(src, t);
        case 2: return fill16<T, 2>(src, t);
        case 3: return fill16<T, 3>(src, t);
        default: return fill16<T, 4>(src, t);
    }
}

}  // namespace

namespace cpu {

void integral(ConstViewU16 src, const SumTableView& table) {
    check_image_shape(src.width, src.height, src.channels);
    if (table.width != src.width + 1 || table.height != src.height + 1 || table.channels != src.channels ||
        table.planes < 1 || table.planes > 2 || table.pitch < table.row_bytes())
        throw usage_error("integral", "the table's shape does not match the image's");
    const std::uint64_t bound = integral_bound(src.width, src.height, table.planes == 2, 65535);
    if (table.type == SumType::U32 && bound > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this 16-bit image's sums");
    if (table.type == SumType::F64 && bound > (std::uint64_t{1} << 53))
        throw usage_error("integral", "an f64 table cannot hold this 16-bit image's sums exactly");
    switch (table.type) {
        case SumType::U32: return fill16_channels<std::uint32_t>(src, table);
        case SumType::U64: return fill16_channels<std::uint64_t>(src, table);
        case SumType::F64: return fill16_channels<double>(src, table);
    }
}

std::string integral_kernel_name(ConstViewU16 src) {
    const std::size_t bands = bands_of16(src).size();
    return "row bands of 16-bit samples, each row the row above plus its running sums in 64-bit integers; " +
           std::to_string(bands) + " thread" + (bands == 1 ? "" : "s");
}

}  // namespace cpu
}  // namespace imgpar
