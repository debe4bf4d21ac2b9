// Summed-area tables (integral images) of 8-bit images, laid out as
// OpenCV's cv2.integral: a leading zero row and column, so a table of a
// W x H image has (W + 1) x (H + 1) entries per channel, and
//   S(X, Y, c) = sum of src(x, y, c) over 0 <= x < X, 0 <= y < Y
// for 0 <= X <= W, 0 <= Y <= H. The table of squares (cv2.integral2's
// second result) sums src(x, y, c)^2 instead. Any window's sum is then four
// look-ups: sum over [x0, x1) x [y0, y1) = S(x1, y1) - S(x0, y1) - S(x1, y0)
// + S(x0, y0).
//
// CONTRACT
// --------
// Every channel of the input (gray, gray+alpha, RGB, RGBA), interleaved as
// the input: the entry of (X, Y, c) is at row Y, sample X * C + c.
// Types: u32, u64 or f64. Every entry is exact: a table is computed only in
// a type that holds the largest total the image's size allows (255 W H for
// sums, 255^2 W H for squares), so an integer table never wraps and a double
// (53-bit mantissa) holds every total up to 2^53, beyond any image imgpar
// reads. The CPU (cpu::integral) and the GPU (gpu::integral) write the same
// bytes.
// With squares, the table holds two planes of (H + 1) rows, the sums first,
// both in the one type (the one the squares need).
//
// 16-BIT CONTRACT (cpu::integral and gpu::integral on u16)
// ---------------------------------------------------------
// The same tables of samples 0..65535: bounds 65535 W H for sums and
// 65535^2 W H for squares (integral_bound with max_value 65535). auto gives
// u32 only while the bound fits 32 bits (sums of at most 65537 pixels) and
// u64 otherwise: u64 holds 65535^2 * 2^32, beyond any image imgpar reads
// (2^28 pixels by default). f64 is exact only while the bound is at most
// 2^53 (sums of 2^37 pixels, squares of 2^21): a larger image asking for
// f64 is refused (imgpar::Error, input) rather than rounded. Every partial
// sum is computed in 64-bit integers on both backends and converted once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "src/image.hpp"

namespace imgpar {

enum class SumType { U32, U64, F64 };

const char* sum_type_name(SumType type);  // "u32", "u64", "f64"
std::size_t sum_type_bytes(SumType type);

struct IntegralSpec {
    bool squared = false;          // add the plane of squares
    std::optional<SumType> type;   // none: the smallest exact type (auto)
};

// Parses "auto" (nullopt), "u32", "u64", "f64". Throws imgpar::Error (usage)
// naming --dtype.
std::optional<SumType> parse_sum_type(const std::string& text);

// The largest entry a table of a width x height image can hold: 255 W H, or
// 255^2 W H with squares.
// max_value: the samples' largest, 255 or 65535 (16 bits).
std::uint64_t integral_bound(int width, int height, bool squared, int max_value = 255);

// The type a table of that image gets: spec.type, or u32 when the bound fits
// in 32 bits and u64 otherwise. Throws imgpar::Error (input, naming `file`)
// when spec.type is u32 and the bound does not fit.
// For 16-bit samples (max_value 65535) an f64 table must also hold the
// bound exactly (at most 2^53), or the same error names it.
SumType integral_type(const IntegralSpec& spec, int width, int height, const std::string& file, int max_value = 255);

// Where a table is, on the host or on the device: `planes` (1, or 2 with
// squares) planes of `height` rows (H + 1) of width * channels samples
// (width = W + 1) of `type`, rows `pitch` bytes apart, plane p starting at
// data + p * height * pitch.
struct SumTableView {
    void* data = nullptr;
    SumType type = SumType::U64;
    int width = 0;
    int height = 0;
    int channels = 0;
    int planes = 1;
    std::size_t pitch = 0;

    std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels * sum_type_bytes(type); }
};

// The packed view of a table of `src`'s shape in `type` at `data`.
SumTableView sum_table_view(void* data, SumType type, int src_width, int src_height, int channels, bool squared);

namespace cpu {
// The table of src into `table` (a host view of src's shape + 1, src's
// channels; two planes with squares). Throws imgpar::Error (usage) on a
// shape mismatch or a type that cannot hold the bound.
void integral(ConstViewU8 src, const SumTableView& table);
// How the CPU computes the table of `src`, for -v and --json.
std::string integral_kernel_name(ConstViewU8 src);
// The table of a 16-bit image (see 16-BIT CONTRACT).
void integral(ConstViewU16 src, const SumTableView& table);
std::string integral_kernel_name(ConstViewU16 src);
}  // namespace cpu

namespace gpu {
class Session;
// cpu::integral on the session's GPU: `table` is a device view; its rows and
// columns are scanned on the device (cuda/integral.cu). Asynchronous on the
// session's stream; `kernel` (when given) names what ran.
void integral(Session& session, ConstDeviceViewU8 src, const SumTableView& table, std::string* kernel = nullptr);
void integral(Session& session, ConstDeviceViewU16 src, const SumTableView& table, std::string* kernel = nullptr);
}  // namespace gpu

}  // namespace imgpar
