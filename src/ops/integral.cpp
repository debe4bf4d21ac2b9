// The CPU reference of summed-area tables (src/ops/integral.hpp): bands of
// rows in parallel, each row the row above plus the running sums along the
// row (scanned in vector lanes, src/ops/simd/integral_rows.hpp), so every
// entry is written once and the row above is still in cache.
#include "src/ops/integral.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/simd/integral_rows.hpp"
#include "src/ops/simd/targets.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const char* sum_type_name(SumType type) {
    switch (type) {
        case SumType::U32: return "u32";
        case SumType::U64: return "u64";
        case SumType::F64: return "f64";
    }
    return "u64";
}

std::size_t sum_type_bytes(SumType type) { return type == SumType::U32 ? 4 : 8; }

std::optional<SumType> parse_sum_type(const std::string& text) {
    if (text == "auto") return std::nullopt;
    if (text == "u32") return SumType::U32;
    if (text == "u64") return SumType::U64;
    if (text == "f64") return SumType::F64;
    throw usage_error("--dtype", "'" + text + "' is not a table type (allowed: auto, u32, u64, f64)");
}

std::uint64_t integral_bound(int width, int height, bool squared, int max_value) {
    const std::uint64_t m = static_cast<std::uint64_t>(max_value);
    const std::uint64_t top = squared ? m * m : m;
    return top * static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
}

SumType integral_type(const IntegralSpec& spec, int width, int height, const std::string& file, int max_value) {
    const std::uint64_t bound = integral_bound(width, height, spec.squared, max_value);
    const bool fits32 = bound <= std::numeric_limits<std::uint32_t>::max();
    if (!spec.type) return fits32 ? SumType::U32 : SumType::U64;
    if (*spec.type == SumType::F64 && max_value > 255 && bound > (std::uint64_t{1} << 53))
        throw input_error(file, std::to_string(width) + "x" + std::to_string(height) + " (16-bit): its " +
                                    (spec.squared ? "squares" : "sums") + " can reach " + std::to_string(bound) +
                                    ", more than f64 holds exactly (2^53); use --dtype u64 or auto");
    if (*spec.type == SumType::U32 && !fits32)
        throw input_error(file, std::to_string(width) + "x" + std::to_string(height) + ": its " +
                                    (spec.squared ? "squares" : "sums") + " can reach " +
                                    std::to_string(bound) +
                                    ", more than u32 holds (4294967295); use --dtype u64, f64 or auto");
    return *spec.type;
}

SumTableView sum_table_view(void* data, SumType type, int src_width, int src_height, int channels, bool squared) {
    SumTableView t;
    t.data = data;
    t.type = type;
    t.width = src_width + 1;
    t.height = src_height + 1;
    t.channels = channels;
    t.planes = squared ? 2 : 1;
    t.pitch = t.row_bytes();
    return t;
}

namespace {

template <typename T>
T* table_row(const SumTableView& t, int plane, int y) {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(t.data) +
                                (static_cast<std::size_t>(plane) * t.height + y) * t.pitch);
}

// Bands of rows fill the table in parallel. A band's first row continues the
// table row above it, S(., y0): the running sums along the row of the column
// totals of the image rows above the band, which the bands above add up
// first (reading the image only, a byte per sample against the table's 4 or
// 8 bytes written). Then every band writes its rows, each the row above plus
// the running sums along its image row (simd::integral_row), the image row
// and the row above still in cache. Every sum is exact in T (integral_type),
// so the entries are those of one pass down the whole image.
// A band has at least this many samples and rows: below, the set-up costs
// more than a thread gains, and the column totals outgrow the table.
constexpr std::size_t kMinBandSamples = std::size_t{1} << 18;
constexpr int kMinBandRows = 16;

struct Band {
    int y0, y1;  // image rows [y0, y1): table rows y0 + 1 .. y1
};

std::vector<Band> bands_of(const ConstViewU8& src) {
    const std::size_t samples = static_cast<std::size_t>(src.width) * src.height * src.channels;
    const std::size_t by_size = std::max<std::size_t>(1, samples / kMinBandSamples);
    const int count = static_cast<int>(std::min<std::size_t>({by_size, static_cast<std::size_t>(cpu_thread_count()),
                                                              static_cast<std::size_t>(std::max(1, src.height / kMinBandRows))}));
    std::vector<Band> bands;
    for (int b = 0; b < count; ++b)
        bands.push_back({static_cast<int>(static_cast<long long>(src.height) * b / count),
                         static_cast<int>(static_cast<long long>(src.height) * (b + 1) / count)});
    return bands;
}

// The table row S(., y0) of each band for each plane (starts[p][b], (W + 1)
// * C entries): the running sums along the row of the column totals of the
// bands above. Empty for the first band, whose row above is the table's
// zero row.
template <typename T>
std::vector<std::vector<std::vector<T>>> band_starts(ConstViewU8 src, const std::vector<Band>& bands, int planes) {
    const std::size_t n = static_cast<std::size_t>(src.width) * src.channels;
    const std::size_t C = static_cast<std::size_t>(src.channels);
    const int count = static_cast<int>(bands.size());
    // The column totals of each half of every band but the last: two pieces
    // per band keep every thread busy with two bands.
    constexpr int kPieces = 2;
    const int pieces = (count - 1) * kPieces;
    std::vector<std::vector<std::uint64_t>> sums(static_cast<std::size_t>(pieces)), squares(sums.size());
    parallel_for(pieces, 1, [&](int i0, int i1) {
        for (int i = i0; i < i1; ++i) {
            const Band band = bands[static_cast<std::size_t>(i / kPieces)];
            const int k = i % kPieces, rows = band.y1 - band.y0;
            std::vector<std::uint64_t>& sum = sums[static_cast<std::size_t>(i)];
            std::vector<std::uint64_t>& square = squares[static_cast<std::size_t>(i)];
            sum.assign(n, 0);
            if (planes == 2) square.assign(n, 0);
            for (int y = band.y0 + rows * k / kPieces; y < band.y0 + rows * (k + 1) / kPieces; ++y)
                simd::add_columns(src.row(y), n, sum.data(), planes == 2 ? square.data() : nullptr);
        }
    });
    std::vector<std::vector<std::vector<T>>> starts(static_cast<std::size_t>(planes),
                                                    std::vector<std::vector<T>>(static_cast<std::size_t>(count)));
    for (int p = 0; p < planes; ++p) {
        const auto& totals = p == 0 ? sums : squares;
        std::vector<std::uint64_t> above(n, 0);
        for (int b = 1; b < count; ++b) {
            for (int k = 0; k < kPieces; ++k) {
                const std::vector<std::uint64_t>& t = totals[static_cast<std::size_t>((b - 1) * kPieces + k)];
                for (std::size_t i = 0; i < n; ++i) above[i] += t[i];
            }
            std::vector<T>& row = starts[static_cast<std::size_t>(p)][static_cast<std::size_t>(b)];
            row.assign(n + C, T(0));
            std::uint64_t run[4] = {};
            for (std::size_t i = 0; i < n; ++i) {
                run[i % C] += above[i];
                row[C + i] = static_cast<T>(run[i % C]);
            }
        }
    }
    return starts;
}

template <typename T>
void fill(ConstViewU8 src, const SumTableView& t) {
    const std::vector<Band> bands = bands_of(src);
    for (int p = 0; p < t.planes; ++p) std::memset(static_cast<void*>(table_row<T>(t, p, 0)), 0, t.row_bytes());
    const std::vector<std::vector<std::vector<T>>> starts = band_starts<T>(src, bands, t.planes);
    parallel_for(static_cast<int>(bands.size()), 1, [&](int b0, int b1) {
        for (int b = b0; b < b1; ++b) {
            const Band band = bands[static_cast<std::size_t>(b)];
            for (int y = band.y0; y < band.y1; ++y)
                for (int p = 0; p < t.planes; ++p) {
                    const std::vector<T>& start = starts[static_cast<std::size_t>(p)][static_cast<std::size_t>(b)];
                    const T* above = y == band.y0 && b > 0 ? start.data() : table_row<T>(t, p, y);
                    simd::integral_row(src.row(y), src.width, src.channels, p == 1, above, table_row<T>(t, p, y + 1));
                }
        }
    });
}

}  // namespace

namespace cpu {

void integral(ConstViewU8 src, const SumTableView& table) {
    check_image_shape(src.width, src.height, src.channels);
    if (table.width != src.width + 1 || table.height != src.height + 1 || table.channels != src.channels ||
        table.planes < 1 || table.planes > 2 || table.pitch < table.row_bytes())
        throw usage_error("integral", "the table's shape does not match the image's");
    if (table.type == SumType::U32 &&
        integral_bound(src.width, src.height, table.planes == 2) > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this image's sums");
    switch (table.type) {
        case SumType::U32: return fill<std::uint32_t>(src, table);
        case SumType::U64: return fill<std::uint64_t>(src, table);
        case SumType::F64: return fill<double>(src, table);
    }
}

std::string integral_kernel_name(ConstViewU8 src) {
    const std::size_t bands = bands_of(src).size();
    return "row bands, each row the row above plus its running sums scanned in SIMD lanes (" +
           simd::simd_target_name() + "); " + std::to_string(bands) + " thread" + (bands == 1 ? "" : "s");
}

}  // namespace cpu
}  // namespace imgpar
