// GPU summed-area tables (cuda/integral.hpp), of 8- and 16-bit images: host
// dispatch -> the tiled scan's three launches (cuda/integral_tiles.cuh).
// Exact integer arithmetic throughout, so the table equals the CPU's byte
// for byte.
#include <cstdint>
#include <limits>
#include <string>

#include "cuda/check.hpp"
#include "cuda/histogram.hpp"
#include "cuda/integral.hpp"
#include "cuda/integral_tiles.cuh"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar::cuda {
namespace {

using namespace integral_detail;

// The image a table is built from: its first byte, row pitch in bytes,
// shape, and the size of its samples (1 or 2 bytes).
struct Source {
    const std::uint8_t* data;
    std::size_t pitch;
    int width, height, channels;
};

Source source_of(const ConstDeviceViewU8& v) { return {v.data, v.pitch, v.width, v.height, v.channels}; }
Source source_of(const ConstDeviceViewU16& v) {
    return {reinterpret_cast<const std::uint8_t*>(v.data), v.pitch, v.width, v.height, v.channels};
}

template <typename Acc, typename Out, int C, typename T, bool Square, bool Vector>
void table_plane(const Source& src, unsigned char* plane, std::size_t pitch, unsigned char* scratch, int rows,
                 cudaStream_t stream) {
    if (rows == IntegralPolicy::short_tile_rows)
        table_plane_rows<Acc, Out, C, T, Square, Vector, IntegralPolicy::short_tile_rows>(
            src.data, src.pitch, src.width, src.height, plane, pitch, scratch, stream);
    else
        table_plane_rows<Acc, Out, C, T, Square, Vector, IntegralPolicy::tile_rows>(
            src.data, src.pitch, src.width, src.height, plane, pitch, scratch, stream);
}

template <typename Acc, typename Out, int C, typename T, bool Vector>
void table_planes(const Source& src, const SumTableView& t, unsigned char* scratch, int rows, cudaStream_t stream) {
    unsigned char* base = static_cast<unsigned char*>(t.data);
    table_plane<Acc, Out, C, T, false, Vector>(src, base, t.pitch, scratch, rows, stream);
    if (t.planes == 2)
        table_plane<Acc, Out, C, T, true, Vector>(src, base + static_cast<std::size_t>(t.height) * t.pitch, t.pitch,
                                                  scratch, rows, stream);
}

// Vector loads need 16-byte rows (4-byte for RGB, whose lanes load words).
template <typename Acc, typename Out, int C, typename T>
void by_alignment(const Source& src, const SumTableView& t, unsigned char* scratch, int rows, cudaStream_t stream) {
    const std::size_t align = Strip<C, T>::bytes == 16 ? 16 : 4;
    if (reinterpret_cast<std::uintptr_t>(src.data) % align == 0 && src.pitch % align == 0)
        table_planes<Acc, Out, C, T, true>(src, t, scratch, rows, stream);
    else
        table_planes<Acc, Out, C, T, false>(src, t, scratch, rows, stream);
}

template <typename Acc, typename Out, typename T>
void by_channels(const Source& src, const SumTableView& t, unsigned char* scratch, int rows, cudaStream_t stream) {
    switch (src.channels) {
        case 1: return by_alignment<Acc, Out, 1, T>(src, t, scratch, rows, stream);
        case 2: return by_alignment<Acc, Out, 2, T>(src, t, scratch, rows, stream);
        case 3: return by_alignment<Acc, Out, 3, T>(src, t, scratch, rows, stream);
        default: return by_alignment<Acc, Out, 4, T>(src, t, scratch, rows, stream);
    }
}

template <typename T>
void by_type(const Source& src, const SumTableView& t, unsigned char* scratch, int rows, cudaStream_t stream) {
    switch (t.type) {
        case SumType::U32: return by_channels<std::uint32_t, std::uint32_t, T>(src, t, scratch, rows, stream);
        case SumType::U64: return by_channels<unsigned long long, unsigned long long, T>(src, t, scratch, rows, stream);
        case SumType::F64: return by_channels<unsigned long long, double, T>(src, t, scratch, rows, stream);
    }
}

int tile_rows_of(int width, int height, int channels, int sample_bytes) {
    const long long tall_tiles =
        static_cast<long long>((width + tile_width(channels, sample_bytes) - 1) / tile_width(channels, sample_bytes)) *
        ((height + IntegralPolicy::tile_rows - 1) / IntegralPolicy::tile_rows);
    return tall_tiles >= IntegralPolicy::min_tall_tiles ? IntegralPolicy::tile_rows : IntegralPolicy::short_tile_rows;
}

void check_table_shape(int width, int height, int channels, const SumTableView& t) {
    if (t.width != width + 1 || t.height != height + 1 || t.channels != channels || t.planes < 1 || t.planes > 2 ||
        t.pitch < t.row_bytes() || t.pitch % sum_type_bytes(t.type) != 0 ||
        reinterpret_cast<std::uintptr_t>(t.data) % sum_type_bytes(t.type) != 0)
        throw usage_error("integral", "the device table's shape or alignment does not match the image's");
}

std::string kernel_name(const SumTableView& t, int sample_bytes) {
    const int w = t.width - 1, h = t.height - 1;
    return std::string(sample_bytes == 2 ? "16-bit " : "") + "2-D tiled scan: " +
           std::to_string(tile_width(t.channels, sample_bytes)) + "x" +
           std::to_string(tile_rows_of(w, h, t.channels, sample_bytes)) +
           " tiles a warp each, tile totals, boundary scans, one table pass (" + sum_type_name(t.type) + ", " +
           std::to_string(t.channels) + " channel" + (t.channels == 1 ? "" : "s") +
           (t.planes == 2 ? ", sums and squares)" : ")");
}

}  // namespace

int integral_tile_rows(int width, int height, int channels) { return tile_rows_of(width, height, channels, 1); }

namespace {

// The tile height a call builds with: the one asked for when it is one of
// the two, else the image's own.
int tile_rows_for(int width, int height, int channels, int sample_bytes, int asked) {
    return asked == IntegralPolicy::short_tile_rows || asked == IntegralPolicy::tile_rows
               ? asked
               : tile_rows_of(width, height, channels, sample_bytes);
}

}  // namespace

std::size_t integral_workspace_bytes(int width, int height, int channels, SumType type, int tile_rows) {
    const std::size_t acc = type == SumType::U32 ? 4 : 8;
    return layout_of(width, height, channels, 1, acc, 4, tile_rows_for(width, height, channels, 1, tile_rows)).total;
}

std::string integral_kernel_name(const SumTableView& t) { return kernel_name(t, 1); }

void integral(const ConstDeviceViewU8& src, const SumTableView& t, IntegralWorkspace& ws, cudaStream_t stream,
              int tile_rows) {
    check_image_shape(src.width, src.height, src.channels);
    check_table_shape(src.width, src.height, src.channels, t);
    if (t.type == SumType::U32 &&
        integral_bound(src.width, src.height, t.planes == 2) > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this image's sums");
    const int rows = tile_rows_for(src.width, src.height, src.channels, 1, tile_rows);
    auto* scratch = static_cast<unsigned char*>(
        ws.reserve(integral_workspace_bytes(src.width, src.height, src.channels, t.type, rows), stream));
    by_type<std::uint8_t>(source_of(src), t, scratch, rows, stream);
}

// 16-bit: the same tiles, half as many pixels a lane; the squares' tile sums
// in 64 bits (LocalOf), so the workspace is sized for 64-bit entries.
std::size_t integral16_workspace_bytes(int width, int height, int channels, int tile_rows) {
    return layout_of(width, height, channels, 2, 8, 8, tile_rows_for(width, height, channels, 2, tile_rows)).total;
}

std::string integral16_kernel_name(const SumTableView& t) { return kernel_name(t, 2); }

void integral(const ConstDeviceViewU16& src, const SumTableView& t, IntegralWorkspace& ws, cudaStream_t stream,
              int tile_rows) {
    check_device_view16(src, "integral");
    check_table_shape(src.width, src.height, src.channels, t);
    const std::uint64_t bound = integral_bound(src.width, src.height, t.planes == 2, 65535);
    if (t.type == SumType::U32 && bound > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("integral", "a u32 table cannot hold this 16-bit image's sums");
    if (t.type == SumType::F64 && bound > (std::uint64_t{1} << 53))
        throw usage_error("integral", "an f64 table cannot hold this 16-bit image's sums exactly");
    const int rows = tile_rows_for(src.width, src.height, src.channels, 2, tile_rows);
    auto* scratch = static_cast<unsigned char*>(
        ws.reserve(integral16_workspace_bytes(src.width, src.height, src.channels, rows), stream));
    by_type<std::uint16_t>(source_of(src), t, scratch, rows, stream);
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void integral(Session& session, ConstDeviceViewU8 src, const SumTableView& table, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::integral(src, table, session.impl().integrals, stream);
    if (kernel) *kernel = cuda::integral_kernel_name(table);
}

void integral(Session& session, ConstDeviceViewU16 src, const SumTableView& table, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::integral(src, table, session.impl().integrals, stream);
    if (kernel) *kernel = cuda::integral16_kernel_name(table);
}

}  // namespace imgpar::gpu
