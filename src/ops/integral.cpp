// The CPU reference of summed-area tables (src/ops/integral.hpp): one pass
// down the rows, each row the row above plus the running sum along the row,
// so every entry is written once and the row above is still in cache.
#include "src/ops/integral.hpp"

#include <cstring>
#include <limits>

#include "src/error.hpp"

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

std::uint64_t integral_bound(int width, int height, bool squared) {
    const std::uint64_t top = squared ? 255u * 255u : 255u;
    return top * static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
}

SumType integral_type(const IntegralSpec& spec, int width, int height, const std::string& file) {
    const bool fits32 = integral_bound(width, height, spec.squared) <= std::numeric_limits<std::uint32_t>::max();
    if (!spec.type) return fits32 ? SumType::U32 : SumType::U64;
    if (*spec.type == SumType::U32 && !fits32)
        throw input_error(file, std::to_string(width) + "x" + std::to_string(height) + ": its " +
                                    (spec.squared ? "squares" : "sums") + " can reach " +
                                    std::to_string(integral_bound(width, height, spec.squared)) +
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

// One plane. T holds every entry exactly (integral_type), so its own
// additions are exact; C is the channel count, known at compile time so the
// running sums stay in registers.
template <typename T, int C, bool Square>
void plane(ConstViewU8 src, const SumTableView& t, int p) {
    std::memset(static_cast<void*>(table_row<T>(t, p, 0)), 0, t.row_bytes());
    for (int y = 0; y < src.height; ++y) {
        const std::uint8_t* in = src.row(y);
        const T* above = table_row<T>(t, p, y);
        T* out = table_row<T>(t, p, y + 1);
        T run[C] = {};
        for (int c = 0; c < C; ++c) out[c] = 0;
        for (int x = 0; x < src.width; ++x)
            for (int c = 0; c < C; ++c) {
                const unsigned v = in[x * C + c];
                run[c] += static_cast<T>(Square ? v * v : v);
                const std::size_t i = static_cast<std::size_t>(x + 1) * C + c;
                out[i] = above[i] + run[c];
            }
    }
}

template <typename T, int C>
void planes(ConstViewU8 src, const SumTableView& t) {
    plane<T, C, false>(src, t, 0);
    if (t.planes == 2) plane<T, C, true>(src, t, 1);
}

template <typename T>
void by_channels(ConstViewU8 src, const SumTableView& t) {
    switch (src.channels) {
        case 1: return planes<T, 1>(src, t);
        case 2: return planes<T, 2>(src, t);
        case 3: return planes<T, 3>(src, t);
        default: return planes<T, 4>(src, t);
    }
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
        case SumType::U32: return by_channels<std::uint32_t>(src, table);
        case SumType::U64: return by_channels<std::uint64_t>(src, table);
        case SumType::F64: return by_channels<double>(src, table);
    }
}

}  // namespace cpu
}  // namespace imgpar
