#include "src/io/png_filter.hpp"

#include <algorithm>
#include <cstring>

namespace imgpar {

namespace {

// Each function writes one filter type's bytes [begin, end) of a row and
// returns the sum of their magnitudes as signed bytes, in one pass (the loops
// are written so that the compiler vectorises them: no early exit, no
// branches in the body). Bytes before `bpp` have no left neighbour.
using FilterFn = std::uint32_t (*)(const std::uint8_t* row, const std::uint8_t* prev, std::size_t begin,
                                   std::size_t end, std::size_t bpp, std::uint8_t* out);

// A block's sum fits 32 bits (magnitudes are at most 128), which vectorises
// twice as wide as 64; rows longer than this are summed block by block.
constexpr std::size_t kSumBlock = std::size_t{1} << 24;

inline std::uint32_t magnitude(std::uint8_t v) {
    const int s = static_cast<std::int8_t>(v);
    return static_cast<std::uint32_t>(s < 0 ? -s : s);
}

std::uint32_t filter_none(const std::uint8_t* row, const std::uint8_t*, std::size_t begin, std::size_t end, std::size_t,
                          std::uint8_t* out) {
    std::uint32_t sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += magnitude(out[i] = row[i]);
    return sum;
}

std::uint32_t filter_sub(const std::uint8_t* row, const std::uint8_t*, std::size_t begin, std::size_t end, std::size_t bpp,
                         std::uint8_t* out) {
    const std::size_t lead = std::clamp(bpp, begin, end);
    std::uint32_t sum = 0;
    for (std::size_t i = begin; i < lead; ++i) sum += magnitude(out[i] = row[i]);
    for (std::size_t i = lead; i < end; ++i) sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - row[i - bpp]));
    return sum;
}

std::uint32_t filter_up(const std::uint8_t* row, const std::uint8_t* prev, std::size_t begin, std::size_t end, std::size_t,
                        std::uint8_t* out) {
    std::uint32_t sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - prev[i]));
    return sum;
}

std::uint32_t filter_average(const std::uint8_t* row, const std::uint8_t* prev, std::size_t begin, std::size_t end,
                             std::size_t bpp, std::uint8_t* out) {
    const std::size_t lead = std::clamp(bpp, begin, end);
    std::uint32_t sum = 0;
    for (std::size_t i = begin; i < lead; ++i) sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - (prev[i] >> 1)));
    for (std::size_t i = lead; i < end; ++i)
        sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - ((row[i - bpp] + prev[i]) >> 1)));
    return sum;
}

// Paeth's predictor: whichever of left (a), above (b) and upper-left (c) is
// closest to a + b - c, preferring a, then b. In 16-bit arithmetic so that
// the vectorised loop works on eight lanes per SSE register.
inline std::uint8_t paeth(std::int16_t a, std::int16_t b, std::int16_t c) {
    const std::int16_t to_a = static_cast<std::int16_t>(b - c);
    const std::int16_t to_b = static_cast<std::int16_t>(a - c);
    const std::int16_t pa = static_cast<std::int16_t>(to_a < 0 ? -to_a : to_a);
    const std::int16_t pb = static_cast<std::int16_t>(to_b < 0 ? -to_b : to_b);
    const std::int16_t both = static_cast<std::int16_t>(to_a + to_b);
    const std::int16_t pc = static_cast<std::int16_t>(both < 0 ? -both : both);
    return static_cast<std::uint8_t>((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

std::uint32_t filter_paeth(const std::uint8_t* row, const std::uint8_t* prev, std::size_t begin, std::size_t end,
                           std::size_t bpp, std::uint8_t* out) {
    const std::size_t lead = std::clamp(bpp, begin, end);
    std::uint32_t sum = 0;
    // Left of the first pixel a = c = 0, so the predictor is the byte above.
    for (std::size_t i = begin; i < lead; ++i) sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - prev[i]));
    for (std::size_t i = lead; i < end; ++i)
        sum += magnitude(out[i] = static_cast<std::uint8_t>(row[i] - paeth(row[i - bpp], prev[i], prev[i - bpp])));
    return sum;
}

constexpr FilterFn kFilters[5] = {filter_none, filter_sub, filter_up, filter_average, filter_paeth};

}  // namespace

void png_filter_row(const std::uint8_t* row, const std::uint8_t* prev, std::size_t length, int bpp,
                    PngFilterChoice choice, std::uint8_t* out, std::vector<std::uint8_t>& scratch) {
    if (choice == PngFilterChoice::None) {
        out[0] = 0;
        std::memcpy(out + 1, row, length);
        return;
    }
    // Candidates go to scratch: a zero row for the first row's "above", then
    // one row per filter type, so the best is copied once at the end.
    scratch.resize(6 * length);
    std::uint8_t* zeros = scratch.data();
    if (!prev) {
        std::memset(zeros, 0, length);
        prev = zeros;
    }
    const auto pixel_bytes = static_cast<std::size_t>(bpp);
    int best = 0;
    std::uint64_t best_sum = 0;
    for (int type = 0; type < 5; ++type) {
        std::uint8_t* candidate = scratch.data() + static_cast<std::size_t>(type + 1) * length;
        std::uint64_t sum = 0;
        for (std::size_t begin = 0; begin < length; begin += kSumBlock)
            sum += kFilters[type](row, prev, begin, std::min(length, begin + kSumBlock), pixel_bytes, candidate);
        if (type == 0 || sum < best_sum) {
            best = type;
            best_sum = sum;
        }
    }
    out[0] = static_cast<std::uint8_t>(best);
    std::memcpy(out + 1, scratch.data() + static_cast<std::size_t>(best + 1) * length, length);
}

}  // namespace imgpar
