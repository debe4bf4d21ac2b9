#include "src/io/jpeg_huffman_plan.hpp"

#include <algorithm>
#include <cstring>

#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/jpeg_scan_header.hpp"

namespace imgpar {

namespace {

// JPEG's zigzag order (figure A.6): zigzag index -> row-major index.
constexpr std::uint8_t kNatural[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

void build_lookup(huffman::Lookup& t, const JpegHuffmanSpec& spec) {
    t = huffman::Lookup{};
    for (auto& m : t.max_code) m = -1;
    for (int i = 0; i < spec.total; ++i) t.values[i] = spec.values[i];
    for_each_huffman_code(spec, [&](int length, std::int32_t code, int index) {
        t.value_offset[length] = index - code;  // alike for every code of a length
        t.max_code[length] = code;              // the last one stays
        if (length <= huffman::kFastBits) {
            const int shift = huffman::kFastBits - length;
            for (int j = 0; j < 1 << shift; ++j)
                t.fast[(code << shift) + j] = static_cast<std::uint16_t>(length << 8 | spec.values[index]);
        }
    });
}

JpegHuffmanPlan not_taken(std::string reason) {
    JpegHuffmanPlan p;
    p.reason = std::move(reason);
    return p;
}

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

}  // namespace

huffman::View JpegHuffmanPlan::view() const {
    huffman::View v;
    v.layout = layout;
    v.tables = tables.data();
    v.bits = bits.data();
    v.interval_bit = interval_bit.data();
    v.first_subsequence = first_subsequence.data();
    v.subsequence_interval = subsequence_interval.data();
    return v;
}

JpegHuffmanPlan plan_jpeg_huffman(const std::uint8_t* data, std::size_t size, std::uint32_t subsequence_bits) {
    if (subsequence_bits == 0) return not_taken("subsequences of 0 bits");
    JpegScanHeader h;
    if (!data || !read_jpeg_scan_header(data, size, h))
        return not_taken("not a sequential Huffman-coded 8-bit JPEG with one scan over all of its components");
    const JpegLayout markers = read_jpeg_layout(data, size);
    if (!jpeg_coefficients_suit(markers)) return not_taken("not gray or YCbCr in a chroma layout the GPU decodes");

    JpegHuffmanPlan p;
    if (h.components == 3) p.chroma = *markers.chroma_layout();  // suits: a layout of jpeg_color.hpp
    p.width = h.width;
    p.height = h.height;
    p.components = h.components;
    huffman::Layout& l = p.layout;
    l.components = h.components;
    std::copy(std::begin(kNatural), std::end(kNatural), l.natural);

    int hmax = 1, vmax = 1;
    for (int c = 0; c < h.components; ++c) {
        hmax = std::max(hmax, h.comp[c].h);
        vmax = std::max(vmax, h.comp[c].v);
    }
    // libjpeg-turbo's jdinput.c: blocks with samples, rounded up.
    for (int c = 0; c < h.components; ++c) {
        JpegCoefficients::Component& k = p.component[static_cast<std::size_t>(c)];
        k.blocks_wide = ceil_div(static_cast<long long>(h.width) * h.comp[c].h, 8LL * hmax);
        k.blocks_high = ceil_div(static_cast<long long>(h.height) * h.comp[c].v, 8LL * vmax);
        k.width = ceil_div(static_cast<long long>(h.width) * h.comp[c].h, hmax);
        k.height = ceil_div(static_cast<long long>(h.height) * h.comp[c].v, vmax);
        for (int z = 0; z < 64; ++z) k.quant[kNatural[z]] = h.quant[h.comp[c].quant][z];
        k.first_block = p.blocks;
        p.blocks += static_cast<std::size_t>(k.blocks_wide) * static_cast<std::size_t>(k.blocks_high);
        l.blocks_wide[c] = k.blocks_wide;
        l.blocks_high[c] = k.blocks_high;
        l.first_block[c] = k.first_block;
    }
    // One component: an MCU is one block, whatever its sampling factors.
    const bool single = h.components == 1;
    long long mcus_y = 0;
    if (single) {
        l.mcus_x = static_cast<std::uint32_t>(p.component[0].blocks_wide);
        mcus_y = p.component[0].blocks_high;
        l.slot[0] = huffman::Slot{0, static_cast<std::uint8_t>(h.comp[0].dc), static_cast<std::uint8_t>(4 + h.comp[0].ac),
                                  0, 0, 1, 1};
        l.slots = 1;
    } else {
        l.mcus_x = static_cast<std::uint32_t>(ceil_div(h.width, 8LL * hmax));
        mcus_y = ceil_div(h.height, 8LL * vmax);
        for (int s = 0; s < h.components; ++s) {
            const int c = h.scan_order[s];
            const JpegScanComponent& k = h.comp[c];
            for (int by = 0; by < k.v; ++by)
                for (int bx = 0; bx < k.h; ++bx) {
                    if (l.slots == huffman::kMaxSlots) return not_taken("more than 10 blocks in an MCU");
                    l.slot[l.slots++] = huffman::Slot{static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(k.dc),
                                                      static_cast<std::uint8_t>(4 + k.ac), static_cast<std::uint8_t>(bx),
                                                      static_cast<std::uint8_t>(by), static_cast<std::uint8_t>(k.h),
                                                      static_cast<std::uint8_t>(k.v)};
                }
        }
    }
    const long long mcus = static_cast<long long>(l.mcus_x) * mcus_y;
    if (mcus * l.slots >= (1LL << 32)) return not_taken("too many blocks");
    l.mcus = static_cast<std::uint32_t>(mcus);
    l.mcus_per_interval = h.restart_interval && h.restart_interval < mcus ? static_cast<std::uint32_t>(h.restart_interval)
                                                                          : l.mcus;
    l.intervals = (l.mcus + l.mcus_per_interval - 1) / l.mcus_per_interval;

    p.tables.resize(huffman::kTables);
    for (int c = 0; c < h.components; ++c) {
        build_lookup(p.tables[static_cast<std::size_t>(h.comp[c].dc)], h.dc[h.comp[c].dc]);
        build_lookup(p.tables[static_cast<std::size_t>(4 + h.comp[c].ac)], h.ac[h.comp[c].ac]);
    }

    // The entropy-coded data as jpeg_scan_is_clean reads it: 0xFF 0x00 is a
    // data byte 0xFF (fill bytes 0xFF before any marker or 0x00 skipped); a
    // marker ends an interval, and must be the next RSTn, or EOI after the last.
    p.bits.reserve(size - h.scan_data + huffman::kBitPadding);
    p.interval_bit.push_back(0);
    std::size_t pos = h.scan_data;
    for (std::uint32_t iv = 0; iv < l.intervals; ++iv) {
        int marker = -1;
        while (marker < 0) {
            if (pos >= size) return not_taken("the scan runs to the end of the file");
            if (data[pos] != 0xFF) {  // the bytes up to the next 0xFF, at once
                const void* ff = std::memchr(data + pos, 0xFF, size - pos);
                const std::size_t next = ff ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - data) : size;
                p.bits.insert(p.bits.end(), data + pos, data + next);
                pos = next;
                continue;
            }
            std::size_t q = pos + 1;
            while (q < size && data[q] == 0xFF) ++q;
            if (q >= size) return not_taken("the scan runs to the end of the file");
            pos = q + 1;
            if (data[q] == 0x00) p.bits.push_back(0xFF);
            else marker = data[q];
        }
        if (p.bits.size() >= (std::size_t{1} << 28)) return not_taken("a scan of 256 MB or more");
        p.interval_bit.push_back(static_cast<std::uint32_t>(p.bits.size() * 8));
        const int expected = iv + 1 < l.intervals ? 0xD0 + static_cast<int>(iv & 7) : 0xD9;
        if (marker != expected) return not_taken("a marker other than the expected RSTn or EOI in the scan");
    }
    // Every block takes 2 bits at least (a DC code and an end of block, or
    // coefficients), and must end inside its interval: an interval with fewer
    // bits is cut short (the walk finds it so too), and a hostile header's
    // size costs no output buffer.
    for (std::uint32_t iv = 0; iv < l.intervals; ++iv) {
        const std::uint64_t mcus_in = std::min<std::uint64_t>(l.mcus_per_interval, l.mcus - iv * static_cast<std::uint64_t>(l.mcus_per_interval));
        if (p.interval_bit[iv + 1] - p.interval_bit[iv] < 2 * mcus_in * static_cast<std::uint64_t>(l.slots))
            return not_taken("a restart interval or the scan is too short for its blocks");
    }
    p.bits.insert(p.bits.end(), huffman::kBitPadding, 0);

    l.subsequence_bits = subsequence_bits;
    for (std::uint32_t iv = 0; iv < l.intervals; ++iv) {
        p.first_subsequence.push_back(static_cast<std::uint32_t>(p.subsequence_interval.size()));
        const std::uint32_t n = p.interval_bit[iv + 1] - p.interval_bit[iv];
        const auto count = static_cast<std::uint32_t>(
            std::max<std::uint64_t>(1, (std::uint64_t{n} + subsequence_bits - 1) / subsequence_bits));
        p.subsequence_interval.insert(p.subsequence_interval.end(), count, iv);
    }
    p.first_subsequence.push_back(static_cast<std::uint32_t>(p.subsequence_interval.size()));
    l.subsequences = static_cast<std::uint32_t>(p.subsequence_interval.size());
    p.taken = true;
    return p;
}

JpegCoefficients coefficient_layout(const JpegHuffmanPlan& plan, const std::string& name) {
    JpegCoefficients k;
    k.width = plan.width;
    k.height = plan.height;
    k.components = plan.components;
    k.layout = plan.chroma;
    k.blocks = plan.blocks;
    k.name = name;
    k.component = plan.component;
    return k;
}

}  // namespace imgpar
