// imgpar's PNG encoder: row filters chosen per row, then deflate on several
// threads. The filtered image is cut into segments of whole rows (1 MiB of
// filtered data by default), whose boundaries depend only on the image's
// size, never on the thread count, so the bytes written are the same on any
// machine. Each
// segment is deflated on its own, primed with the 32 KiB of filtered data
// before it (zlib's window, so matches across the boundary are not lost),
// and ends on a byte boundary (Z_SYNC_FLUSH; the last one Z_FINISH): joined,
// they are one valid zlib stream, whose Adler-32 is combined from the
// segments'. Each segment becomes one IDAT chunk.
#include "src/io/png_codec.hpp"

#include "src/error.hpp"

#if IMGPAR_HAVE_LIBPNG
#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <zlib.h>

#include "src/io/png_filter.hpp"
#include "src/parallel.hpp"
#endif

namespace imgpar {

void check_png_compression(int level) {
    if (level < 0 || level > 9)
        throw usage_error("--compression", std::to_string(level) + " is out of range (allowed: 0 to 9)");
}

#if IMGPAR_HAVE_LIBPNG
namespace {

constexpr std::size_t kWindowBytes = 32768;  // deflate's window: the most a dictionary can hold
// More threads than this gain nothing on one image (memory bandwidth).
constexpr int kMaxThreads = 64;
// zlib counts in 32-bit unsigned ints; longer buffers are fed in pieces.
constexpr std::size_t kZlibPiece = std::size_t{1} << 30;
// The PNG specification's limit on a chunk's length.
constexpr std::size_t kMaxChunkData = 0x7fffffff;

// zlib's deflateBound for a raw stream with a 32 KiB window and memLevel 8
// (RawDeflater's, at any level or strategy), computed without a stream:
// deflate never emits a block larger than the block stored.
std::uint64_t deflate_bound(std::uint64_t n) { return n + (n >> 12) + (n >> 14) + (n >> 25) + 7; }

// How the image is cut: every row is filtered to row_bytes (its filter type
// byte, then the row), `rows_per_segment` rows to a segment; a segment is
// primed with the filtered data of the `dictionary_rows` rows before it.
struct Geometry {
    std::size_t pixel_bytes = 0;  // one filtered row without its type byte
    std::size_t row_bytes = 0;
    int rows_per_segment = 0;
    int segments = 0;
    int dictionary_rows = 0;
};

Geometry geometry_of(ConstViewU8 image, std::size_t segment_bytes) {
    Geometry g;
    g.pixel_bytes = image.row_bytes();
    g.row_bytes = g.pixel_bytes + 1;
    g.rows_per_segment = static_cast<int>(std::clamp<std::size_t>(segment_bytes / g.row_bytes, 1,
                                                                  static_cast<std::size_t>(image.height)));
    g.segments = (image.height + g.rows_per_segment - 1) / g.rows_per_segment;
    g.dictionary_rows = static_cast<int>((kWindowBytes + g.row_bytes - 1) / g.row_bytes);
    return g;
}

// zlib's settings for a compression level: level 1 uses run-length matches
// only (Z_RLE: distance 1, which is what filtered photographs are made of),
// the fastest mode that compresses and smaller than levels 1-3 on photos;
// 2-9 search for longer matches, which drawings and flat areas reward.
struct DeflateSettings {
    int level = 1;
    int strategy = Z_RLE;
    PngFilterChoice filter = PngFilterChoice::Adaptive;
};

DeflateSettings settings_for(int compression) {
    DeflateSettings s;
    s.level = compression;
    s.strategy = compression == 0 ? Z_DEFAULT_STRATEGY : compression == 1 ? Z_RLE : Z_FILTERED;
    s.filter = compression == 0 ? PngFilterChoice::None : PngFilterChoice::Adaptive;
    return s;
}

// One segment, deflated: its bytes, and the checksums the whole stream and
// its chunk need (Adler-32 of the filtered input, CRC-32 of the output).
struct Segment {
    std::vector<std::uint8_t> deflated;
    uLong adler = 0;
    uLong crc = 0;
    std::size_t input_bytes = 0;
};

// What each thread reuses from one segment to the next.
struct Scratch {
    std::vector<std::uint8_t> filtered;
    std::vector<std::uint8_t> deflated;
    std::vector<std::uint8_t> filter;
};

class RawDeflater {
public:
    explicit RawDeflater(const DeflateSettings& s) {
        // -15: a raw deflate stream (the zlib header and checksum are ours).
        if (deflateInit2(&z_, s.level, Z_DEFLATED, -15, 8, s.strategy) != Z_OK)
            throw output_error("png", "zlib could not start (out of memory)");
    }
    ~RawDeflater() { deflateEnd(&z_); }
    RawDeflater(const RawDeflater&) = delete;
    RawDeflater& operator=(const RawDeflater&) = delete;

    void prime(const std::uint8_t* dictionary, std::size_t size) {
        if (size > 0 && deflateSetDictionary(&z_, dictionary, static_cast<uInt>(size)) != Z_OK)
            throw output_error("png", "zlib refused the segment's dictionary");
    }

    // Deflates all of `input` into `out` (grown as needed), ending with
    // `flush`; returns the bytes written.
    std::size_t run(const std::uint8_t* input, std::size_t size, int flush, std::vector<std::uint8_t>& out) {
        const std::size_t wanted = deflateBound(&z_, size) + 64;  // + the sync flush's empty block
        if (out.size() < wanted) out.resize(wanted);
        std::size_t produced = 0;
        std::size_t left = size;
        while (true) {
            const std::size_t take = std::min(left, kZlibPiece);
            const int mode = take == left ? flush : Z_NO_FLUSH;
            z_.next_in = const_cast<Bytef*>(input);  // zlib's API is not const, it only reads
            z_.avail_in = static_cast<uInt>(take);
            while (true) {
                if (out.size() - produced < 4096) out.resize(out.size() + out.size() / 2 + 4096);
                z_.next_out = out.data() + produced;
                z_.avail_out = static_cast<uInt>(std::min(out.size() - produced, kZlibPiece));
                const uInt room = z_.avail_out;
                const int r = deflate(&z_, mode);
                produced += room - z_.avail_out;
                if (r == Z_STREAM_ERROR) throw output_error("png", "zlib failed while compressing");
                const bool done = mode == Z_FINISH ? r == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0;
                if (done) break;
            }
            input += take;
            left -= take;
            if (left == 0) return produced;
        }
    }

private:
    z_stream z_{};
};

// Filters rows [first, end) of `image` into `out`, row_bytes each.
void filter_rows(ConstViewU8 image, const Geometry& g, PngFilterChoice choice, int first, int end,
                 std::vector<std::uint8_t>& out, std::vector<std::uint8_t>& scratch) {
    out.resize(static_cast<std::size_t>(end - first) * g.row_bytes);
    for (int y = first; y < end; ++y)
        png_filter_row(image.row(y), y > 0 ? image.row(y - 1) : nullptr, g.pixel_bytes, image.channels, choice,
                       out.data() + static_cast<std::size_t>(y - first) * g.row_bytes, scratch);
}

Segment deflate_segment(ConstViewU8 image, const Geometry& g, const DeflateSettings& s, int index, Scratch& scratch) {
    const int begin = index * g.rows_per_segment;
    const int end = std::min(image.height, begin + g.rows_per_segment);
    // The rows before the segment are filtered again here (a few per
    // segment), so no segment waits for another.
    const int primer = std::max(0, begin - g.dictionary_rows);
    filter_rows(image, g, s.filter, primer, end, scratch.filtered, scratch.filter);
    const std::size_t primer_bytes = static_cast<std::size_t>(begin - primer) * g.row_bytes;
    const std::uint8_t* input = scratch.filtered.data() + primer_bytes;

    Segment out;
    out.input_bytes = static_cast<std::size_t>(end - begin) * g.row_bytes;
    RawDeflater deflater(s);
    const std::size_t window = std::min(primer_bytes, kWindowBytes);
    deflater.prime(input - window, window);
    const bool last = index + 1 == g.segments;
    const std::size_t size = deflater.run(input, out.input_bytes, last ? Z_FINISH : Z_SYNC_FLUSH, scratch.deflated);
    out.deflated.assign(scratch.deflated.begin(), scratch.deflated.begin() + static_cast<std::ptrdiff_t>(size));
    out.adler = adler32_z(adler32_z(0, nullptr, 0), input, out.input_bytes);
    out.crc = crc32_z(crc32_z(0, nullptr, 0), out.deflated.data(), out.deflated.size());
    return out;
}

// Runs every segment on up to `threads` threads, each taking the next
// segment not yet started; the first exception is rethrown here.
std::vector<Segment> deflate_segments(ConstViewU8 image, const Geometry& g, const DeflateSettings& s, int threads) {
    std::vector<Segment> segments(static_cast<std::size_t>(g.segments));
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&] {
        Scratch scratch;
        try {
            for (int i; !failed && (i = next++) < g.segments;)
                segments[static_cast<std::size_t>(i)] = deflate_segment(image, g, s, i, scratch);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // no more threads to be had: the ones running share the work
        }
    }
    work();
    for (auto& t : helpers) t.join();
    if (failure) std::rethrow_exception(failure);
    return segments;
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// Appends one chunk: length, type, head + body + tail, CRC. The body's CRC
// is known (computed where it was made), so it is combined, not recomputed.
void put_chunk(std::vector<std::uint8_t>& out, const char* type, const std::vector<std::uint8_t>& head,
               const std::uint8_t* body, std::size_t body_size, uLong body_crc, const std::vector<std::uint8_t>& tail) {
    put_u32(out, static_cast<std::uint32_t>(head.size() + body_size + tail.size()));
    const std::size_t crc_from = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), head.begin(), head.end());
    uLong crc = crc32_z(crc32_z(0, nullptr, 0), out.data() + crc_from, out.size() - crc_from);
    out.insert(out.end(), body, body + body_size);
    crc = crc32_combine(crc, body_crc, static_cast<z_off_t>(body_size));
    out.insert(out.end(), tail.begin(), tail.end());
    // (Not with a null pointer, which zlib takes as "start again".)
    if (!tail.empty()) crc = crc32_z(crc, tail.data(), tail.size());
    put_u32(out, static_cast<std::uint32_t>(crc));
}

// A segment's chunk: the zlib header before the first, the stream's Adler-32
// after the last. A segment too long for one chunk (a single row of over
// 2 GiB) is written as several, each with its CRC computed here.
void put_idat(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& head, const Segment& segment,
              const std::vector<std::uint8_t>& tail) {
    const std::vector<std::uint8_t>& body = segment.deflated;
    if (head.size() + body.size() + tail.size() <= kMaxChunkData) {
        put_chunk(out, "IDAT", head, body.data(), body.size(), segment.crc, tail);
        return;
    }
    const std::vector<std::uint8_t> none;
    put_chunk(out, "IDAT", head, nullptr, 0, 0, none);
    for (std::size_t at = 0; at < body.size(); at += kMaxChunkData) {
        const std::size_t size = std::min(kMaxChunkData, body.size() - at);
        put_chunk(out, "IDAT", none, body.data() + at, size, crc32_z(crc32_z(0, nullptr, 0), body.data() + at, size),
                  none);
    }
    put_chunk(out, "IDAT", none, nullptr, 0, 0, tail);
}

std::uint8_t color_type(int channels) {
    switch (channels) {
        case 1: return 0;  // gray
        case 2: return 4;  // gray + alpha
        case 3: return 2;  // RGB
        default: return 6;  // RGBA
    }
}

// What one thread's Scratch and RawDeflater hold for a segment of `rows`
// rows: the rows filtered with their primer (none before the first
// segment), the output buffer at zlib's bound (which deflate never passes,
// so it is not grown), six candidate rows of the adaptive filter, and the
// deflate state (256 KiB and a few at memLevel 8 and a 32 KiB window).
std::uint64_t thread_scratch_bytes(const Geometry& g, int rows, int height) {
    const std::uint64_t filtered = static_cast<std::uint64_t>(std::min(rows + g.dictionary_rows, height)) * g.row_bytes;
    const std::uint64_t deflated = deflate_bound(static_cast<std::uint64_t>(rows) * g.row_bytes) + 64;
    return filtered + deflated + 6 * static_cast<std::uint64_t>(g.pixel_bytes) + (std::uint64_t{320} << 10);
}

}  // namespace

std::uint64_t png_encode_memory(int width, int height, int channels, int threads, std::uint64_t metadata_bytes) {
    const int w = std::max(width, 1), h = std::max(height, 1), c = std::clamp(channels, 1, 4);
    const ConstViewU8 shape{nullptr, w, h, c, static_cast<std::size_t>(w) * static_cast<std::size_t>(c)};
    const Geometry g = geometry_of(shape, kDefaultPngSegmentBytes);
    // Each segment's bytes as deflate may leave them (incompressible rows
    // come out as stored blocks, a little larger than they went in), then
    // the file they are copied into, with its chunks' headers and the
    // metadata (the profile deflated: at most its bound).
    std::uint64_t segments = 0;
    for (int i = 0; i < g.segments; ++i) {
        const int rows = std::min(g.rows_per_segment, h - i * g.rows_per_segment);
        segments += deflate_bound(static_cast<std::uint64_t>(rows) * g.row_bytes) + 64;
    }
    const std::uint64_t file = segments + 12 * static_cast<std::uint64_t>(g.segments) + 64 + 2 * metadata_bytes + 1024;
    const int busy = std::clamp(threads, 1, std::min(g.segments, kMaxThreads));
    return segments + file + static_cast<std::uint64_t>(busy) * thread_scratch_bytes(g, g.rows_per_segment, h);
}

namespace {

// The file of an image whose rows are `image`'s bytes as PNG stores them
// (16-bit samples big-endian), `image.channels` the bytes a pixel has (the
// filters' distance), `channels` the samples, `depth` their bits.
std::vector<std::uint8_t> encode_rows(ConstViewU8 image, int channels, int depth, const PngEncodeOptions& options) {
    const Geometry g = geometry_of(image, options.segment_bytes);
    const DeflateSettings settings = settings_for(options.compression);
    const int wanted = options.threads > 0 ? options.threads : cpu_thread_count();
    const int threads = std::clamp(wanted, 1, std::min(g.segments, kMaxThreads));
    const std::vector<Segment> segments = deflate_segments(image, g, settings, threads);

    uLong adler = adler32_z(0, nullptr, 0);
    std::size_t total = 8 + 25 + 12 + 6;
    for (const Segment& s : segments) {
        adler = adler32_combine(adler, s.adler, static_cast<z_off_t>(s.input_bytes));
        total += 12 + s.deflated.size();
    }
    std::vector<std::uint8_t> out;
    out.reserve(total);
    const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    out.insert(out.end(), signature, signature + 8);
    std::vector<std::uint8_t> header;
    put_u32(header, static_cast<std::uint32_t>(image.width));
    put_u32(header, static_cast<std::uint32_t>(image.height));
    // bit depth, colour type, deflate, adaptive filtering, no interlace
    for (std::uint8_t b : {static_cast<std::uint8_t>(depth), color_type(channels), std::uint8_t{0}, std::uint8_t{0},
                           std::uint8_t{0}})
        header.push_back(b);
    put_chunk(out, "IHDR", header, nullptr, 0, 0, {});
    if (options.metadata) {
        const std::vector<std::uint8_t> chunks = png_metadata_chunks(*options.metadata, nullptr);
        out.insert(out.end(), chunks.begin(), chunks.end());
    }

    // The zlib header: deflate with a 32 KiB window, no preset dictionary,
    // and the level hint (0: fastest ... 3: slowest), padded so the pair is
    // a multiple of 31.
    const int hint = settings.level <= 1 ? 0 : settings.level <= 5 ? 1 : settings.level == 6 ? 2 : 3;
    const unsigned cmf = 0x78, flg_base = static_cast<unsigned>(hint) << 6;
    const auto flg = static_cast<std::uint8_t>(flg_base + (31 - (cmf * 256 + flg_base) % 31) % 31);
    const std::vector<std::uint8_t> zlib_header = {static_cast<std::uint8_t>(cmf), flg};
    std::vector<std::uint8_t> checksum;
    put_u32(checksum, static_cast<std::uint32_t>(adler));
    const std::vector<std::uint8_t> none;
    for (std::size_t i = 0; i < segments.size(); ++i)
        put_idat(out, i == 0 ? zlib_header : none, segments[i], i + 1 == segments.size() ? checksum : none);
    put_chunk(out, "IEND", none, nullptr, 0, 0, none);
    return out;
}

}  // namespace

std::vector<std::uint8_t> png_encode(ConstViewU8 image, const PngEncodeOptions& options) {
    check_png_compression(options.compression);
    check_image_shape(image.width, image.height, image.channels);
    return encode_rows(image, image.channels, 8, options);
}

std::vector<std::uint8_t> png_encode(ConstViewU16 image, const PngEncodeOptions& options) {
    check_png_compression(options.compression);
    check_image_shape(image.width, image.height, image.channels);
    // PNG's samples are big-endian: the rows are copied so, and filtered as
    // bytes with a pixel of 2 x channels bytes, as the standard defines.
    const std::size_t row_samples = image.row_samples();
    std::vector<std::uint8_t> bytes(row_samples * 2 * static_cast<std::size_t>(image.height));
    for (int y = 0; y < image.height; ++y) {
        const std::uint16_t* src = image.row(y);
        std::uint8_t* dst = bytes.data() + static_cast<std::size_t>(y) * row_samples * 2;
        for (std::size_t i = 0; i < row_samples; ++i) {
            dst[2 * i] = static_cast<std::uint8_t>(src[i] >> 8);
            dst[2 * i + 1] = static_cast<std::uint8_t>(src[i] & 0xFF);
        }
    }
    const ConstViewU8 rows{bytes.data(), image.width, image.height, 2 * image.channels, row_samples * 2};
    return encode_rows(rows, image.channels, 16, options);
}

#else

std::vector<std::uint8_t> png_encode(ConstViewU16, const PngEncodeOptions&) {
    throw std::logic_error("png_encode called in a build without libpng");
}
std::vector<std::uint8_t> png_encode(ConstViewU8, const PngEncodeOptions&) {
    throw output_error("png", "this build has no libpng and zlib");
}

std::uint64_t png_encode_memory(int, int, int, int, std::uint64_t) { return 0; }

#endif

}  // namespace imgpar
