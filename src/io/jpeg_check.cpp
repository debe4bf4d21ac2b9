#include "src/io/jpeg_check.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "src/io/jpeg_scan_header.hpp"

namespace imgpar {

namespace {

constexpr int kSOI = 0xD8, kEOI = 0xD9, kSOS = 0xDA, kDQT = 0xDB, kDNL = 0xDC, kDRI = 0xDD, kDHT = 0xC4, kDAC = 0xCC,
              kCOM = 0xFE;

bool restart_marker(int m) { return m >= 0xD0 && m <= 0xD7; }
bool app_marker(int m) { return m >= 0xE0 && m <= 0xEF; }
bool frame_marker(int m) { return m >= 0xC0 && m <= 0xCF && m != kDHT && m != 0xC8 && m != kDAC; }

std::string hex(int v) {
    static const char digits[] = "0123456789ABCDEF";
    return std::string("0x") + digits[(v >> 4) & 15] + digits[v & 15];
}

std::string marker_name(int m) {
    switch (m) {
        case kDHT: return "DHT";
        case kDQT: return "DQT";
        case kSOS: return "SOS";
        case kDRI: return "DRI";
        case kDNL: return "DNL";
        case kDAC: return "DAC";
        default: break;
    }
    if (frame_marker(m)) return "SOF" + std::to_string(m - 0xC0);
    return "marker " + hex(m);
}

struct Component {
    int id = 0, h = 1, v = 1, tq = 0;
    bool scanned = false;      // in some scan (sequential)
    bool dc_first = false;     // progressive: its first DC scan came
    std::uint64_t first = 0;   // progressive: coefficients its first-pass scans covered
};

// Why a segment stops being read: a problem (recorded), or the file ends
// inside it (a truncated file, whose end the caller judges).
enum class Stop { None, Problem, FileEnds };

// Bytes of a segment's payload: the declared length, of which `available`
// are in the file.
struct Payload {
    const std::uint8_t* p;
    std::size_t declared;
    std::size_t available;
};

class Walker {
public:
    Walker(const std::uint8_t* data, std::size_t size) : d_(data), size_(size) {}

    JpegCheck run() {
        if (size_ < 2 || d_[0] != 0xFF || d_[1] != kSOI) {
            record("no start-of-image marker (SOI)");
            return c_;
        }
        std::size_t i = 2;
        while (c_.problem.empty()) {
            // Bytes between segments that are not a marker are skipped, as
            // decoders do (with a warning); fill bytes (FF FF) too.
            const void* ff = i < size_ ? std::memchr(d_ + i, 0xFF, size_ - i) : nullptr;
            if (!ff) break;
            i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - d_);
            while (i + 1 < size_ && d_[i + 1] == 0xFF) ++i;
            if (i + 1 >= size_) break;
            const int m = d_[i + 1];
            if (m == kEOI) {
                c_.ends = true;
                break;
            }
            if (m == 0x00 || m == 0x01 || m == kSOI || restart_marker(m)) {
                fail(i, "byte pair FF " + hex(m).substr(2), "outside scan data, where a marker segment must start");
                break;
            }
            if (i + 4 > size_) break;  // the file ends inside the segment's length
            const std::size_t length = static_cast<std::size_t>(d_[i + 2]) << 8 | d_[i + 3];
            if (length < 2) {
                fail(i, marker_name(m) + " segment", "declares a length of " + std::to_string(length) + " (at least 2)");
                break;
            }
            const Payload payload{d_ + i + 4, length - 2, std::min(length - 2, size_ - (i + 4))};
            if (segment(i, m, payload) != Stop::None) break;
            i += 2 + length;
            if (m == kSOS) {
                in_header_ = false;
                i = skip_scan_data(i);
            }
        }
        finish();
        return c_;
    }

private:
    Stop fail(std::size_t at, const std::string& what, const std::string& why) {
        return record(what + " at byte " + std::to_string(at) + ": " + why);
    }
    Stop record(const std::string& problem) {
        if (c_.problem.empty()) {
            c_.problem = problem;
            c_.problem_in_header = in_header_;
        }
        return Stop::Problem;
    }

    // The payload ends before `need` bytes from `pos`: a problem when the
    // segment's own length is too short, the file's end otherwise.
    Stop short_payload(std::size_t at, int m, const Payload& s, std::size_t pos, std::size_t need, const char* what) {
        if (pos + need <= s.declared) return Stop::FileEnds;
        return fail(at, marker_name(m) + " segment",
                    std::string("its length (") + std::to_string(s.declared + 2) + ") ends inside " + what);
    }

    Stop segment(std::size_t at, int m, const Payload& s) {
        if (m == kDHT) return huffman_tables(at, s);
        if (m == kDQT) return quantization_tables(at, s);
        if (frame_marker(m)) return frame(at, m, s);
        if (m == kSOS) return scan(at, s);
        if (m == kDRI) {
            if (s.declared != 2) return fail(at, "DRI segment", "declares a length of " + std::to_string(s.declared + 2) + " (4)");
            return s.available < 2 ? Stop::FileEnds : Stop::None;
        }
        if (m == kDNL) {
            if (in_header_) return fail(at, "DNL segment", "comes before any scan");
            if (s.declared != 2) return fail(at, "DNL segment", "declares a length of " + std::to_string(s.declared + 2) + " (4)");
            return Stop::None;
        }
        if (app_marker(m) || m == kCOM || m == kDAC) return s.available < s.declared ? Stop::FileEnds : Stop::None;
        return fail(at, marker_name(m), "is not a marker a JPEG image may hold here");
    }

    // DHT: tables read one after another until the payload is used up, as
    // decoders read them; the code counts are checked before anything else,
    // those of a table the file cuts too: stb reads the missing ones as 0.
    Stop huffman_tables(std::size_t at, const Payload& s) {
        std::size_t pos = 0;
        while (pos < s.declared) {
            const auto byte = [&](std::size_t k) -> int { return pos + k < s.available ? s.p[pos + k] : 0; };
            if (pos >= s.available) return short_payload(at, kDHT, s, pos, 1, "a table");
            const int cls = byte(0) >> 4, id = byte(0) & 15;
            if (cls > 1 || id > 3)
                return fail(at, "DHT segment", "table class " + std::to_string(cls) + ", id " + std::to_string(id) +
                                                   " is out of range (class 0 = DC or 1 = AC, id 0 to 3)");
            const std::string name = std::string(cls == 0 ? "DC" : "AC") + std::to_string(id);
            std::size_t total = 0;
            std::uint32_t code = 0;  // the next free code of the current length
            for (int len = 1; len <= 16; ++len) {
                const int count = byte(static_cast<std::size_t>(len));
                total += static_cast<std::size_t>(count);
                code += static_cast<std::uint32_t>(count);
                if (code > (std::uint32_t{1} << len))
                    return fail(at, "DHT segment", "Huffman table " + name + " has more codes than fit in " +
                                                       std::to_string(len) + " bits (its code lengths form no prefix code)");
                code <<= 1;
            }
            if (total > 256)
                return fail(at, "DHT segment",
                            "Huffman table " + name + " declares " + std::to_string(total) + " codes (at most 256)");
            if (pos + 17 > s.available) return short_payload(at, kDHT, s, pos, 17, "a table's code counts");
            if (pos + 17 + total > s.available) return short_payload(at, kDHT, s, pos + 17, total, "a table's symbols");
            (cls == 0 ? dc_ : ac_)[id] = true;
            JpegHuffmanSpec spec;
            for (int len = 1; len <= 16; ++len) spec.counts[len - 1] = static_cast<std::uint8_t>(byte(static_cast<std::size_t>(len)));
            for (std::size_t k = 0; k < total; ++k) spec.values[k] = static_cast<std::uint8_t>(byte(17 + k));
            spec.total = static_cast<int>(total);
            std::string& refused = (cls == 0 ? dc_refused_ : ac_refused_)[id];
            refused.clear();
            if (!libjpeg_takes_huffman_table(spec, false))
                refused = "whose codes use the all-ones code of their length";
            else if (cls == 0 && !libjpeg_takes_huffman_table(spec, true))
                refused = "whose symbols exceed 15 (a DC difference's bit count)";
            pos += 17 + total;
        }
        return Stop::None;
    }

    Stop quantization_tables(std::size_t at, const Payload& s) {
        std::size_t pos = 0;
        while (pos < s.declared) {
            if (pos + 1 > s.available) return short_payload(at, kDQT, s, pos, 1, "a table");
            const int precision = s.p[pos] >> 4, id = s.p[pos] & 15;
            if (precision > 1 || id > 3)
                return fail(at, "DQT segment", "table precision " + std::to_string(precision) + ", id " + std::to_string(id) +
                                                   " is out of range (precision 0 or 1, id 0 to 3)");
            const std::size_t bytes = 1 + 64 * static_cast<std::size_t>(precision + 1);
            if (pos + bytes > s.available) return short_payload(at, kDQT, s, pos, bytes, "a table");
            dqt_[id] = true;
            pos += bytes;
        }
        return Stop::None;
    }

    Stop frame(std::size_t at, int m, const Payload& s) {
        const std::string what = marker_name(m) + " frame header";
        if (c_.frame) return fail(at, what, "is a second frame (a file holds one image)");
        if (m == 0xC3 || m == 0xC5 || m == 0xC6 || m == 0xC7 || m == 0xCB || m == 0xCD || m == 0xCE || m == 0xCF)
            return fail(at, what, "is a lossless or hierarchical frame, which is not supported");
        if (s.available < 6) return short_payload(at, m, s, 0, 6, "the frame header");
        const int precision = s.p[0];
        height_ = s.p[1] << 8 | s.p[2];
        width_ = s.p[3] << 8 | s.p[4];
        const int n = s.p[5];
        if (s.declared != 6 + 3 * static_cast<std::size_t>(n))
            return fail(at, what, "its length (" + std::to_string(s.declared + 2) + ") does not fit its " +
                                      std::to_string(n) + " components");
        if (s.available < s.declared) return Stop::FileEnds;
        if (precision != 8) return fail(at, what, std::to_string(precision) + "-bit samples are not supported (8-bit only)");
        if (width_ == 0 || height_ == 0)
            return fail(at, what, "gives a size of " + std::to_string(width_) + "x" + std::to_string(height_) +
                                      " (a height given later by a DNL marker is not supported)");
        if (n != 1 && n != 3 && n != 4)
            return fail(at, what, std::to_string(n) + " components (1, 3 or 4 are supported)");
        for (int k = 0; k < n; ++k) {
            Component comp;
            const std::uint8_t* q = s.p + 6 + 3 * k;
            comp.id = q[0];
            comp.h = q[1] >> 4;
            comp.v = q[1] & 15;
            comp.tq = q[2];
            const std::string which = "component " + std::to_string(k + 1);
            for (const Component& other : comps_)
                if (other.id == comp.id) return fail(at, what, which + " repeats the id " + std::to_string(comp.id));
            if (comp.h < 1 || comp.h > 4 || comp.v < 1 || comp.v > 4)
                return fail(at, what, which + " has sampling factors " + std::to_string(comp.h) + "x" +
                                          std::to_string(comp.v) + " (1 to 4 each)");
            if (comp.tq > 3) return fail(at, what, which + " names quantization table " + std::to_string(comp.tq) + " (0 to 3)");
            hmax_ = std::max(hmax_, comp.h);
            vmax_ = std::max(vmax_, comp.v);
            comps_.push_back(comp);
        }
        for (std::size_t k = 0; k < comps_.size(); ++k)
            if (hmax_ % comps_[k].h != 0 || vmax_ % comps_[k].v != 0)
                return fail(at, what, "the sampling factors of component " + std::to_string(k + 1) +
                                          " do not divide the largest (fractional sampling is not supported)");
        c_.frame = true;
        c_.arithmetic = m >= 0xC8;
        c_.progressive = m == 0xC2 || m == 0xCA;
        c_.work.progressive = c_.progressive;
        for (const Component& comp : comps_) c_.work.image_blocks += component_blocks(comp);
        return Stop::None;
    }

    // 8x8 blocks of component k over the image (a scan of it alone).
    std::uint64_t component_blocks(const Component& k) const {
        const std::uint64_t w = (static_cast<std::uint64_t>(width_) * static_cast<std::uint64_t>(k.h) + hmax_ - 1) / hmax_;
        const std::uint64_t h = (static_cast<std::uint64_t>(height_) * static_cast<std::uint64_t>(k.v) + vmax_ - 1) / vmax_;
        return ((w + 7) / 8) * ((h + 7) / 8);
    }

    Stop scan(std::size_t at, const Payload& s) {
        if (!c_.frame) return fail(at, "SOS segment", "comes before the frame header");
        if (s.available < 1) return short_payload(at, kSOS, s, 0, 1, "the scan header");
        const int n = s.p[0];
        if (s.declared != 4 + 2 * static_cast<std::size_t>(n))
            return fail(at, "SOS segment", "its length (" + std::to_string(s.declared + 2) + ") does not fit its " +
                                               std::to_string(n) + " components");
        if (s.available < s.declared) return Stop::FileEnds;
        if (n < 1 || n > static_cast<int>(comps_.size()))
            return fail(at, "SOS segment", "names " + std::to_string(n) + " components (the frame has " +
                                               std::to_string(comps_.size()) + ")");
        const int ss = s.p[1 + 2 * n], se = s.p[2 + 2 * n], ah = s.p[3 + 2 * n] >> 4, al = s.p[3 + 2 * n] & 15;
        const std::string band = "spectral band " + std::to_string(ss) + "-" + std::to_string(se) +
                                 ", successive approximation " + std::to_string(ah) + "/" + std::to_string(al);
        if (c_.progressive) {
            if (se > 63 || ss > se || (ss == 0) != (se == 0) || ah > 13 || al > 13 || (ah != 0 && al != ah - 1))
                return fail(at, "SOS segment", band + " is not a valid progressive scan");
            if (ss > 0 && n != 1) return fail(at, "SOS segment", "an AC scan names " + std::to_string(n) + " components (one)");
        } else if (ss != 0 || ah != 0 || al != 0) {
            return fail(at, "SOS segment", band + " in a sequential frame (0-63, 0/0)");
        }
        std::vector<int> members;
        int blocks_per_mcu = 0;
        for (int k = 0; k < n; ++k) {
            const int id = s.p[1 + 2 * k], dc = s.p[2 + 2 * k] >> 4, ac = s.p[2 + 2 * k] & 15;
            int index = -1;
            for (std::size_t j = 0; j < comps_.size(); ++j)
                if (comps_[j].id == id) index = static_cast<int>(j);
            if (index < 0) return fail(at, "SOS segment", "names component id " + std::to_string(id) + ", which the frame lacks");
            for (int m : members)
                if (m == index) return fail(at, "SOS segment", "names component id " + std::to_string(id) + " twice");
            members.push_back(index);
            const Component& comp = comps_[static_cast<std::size_t>(index)];
            blocks_per_mcu += comp.h * comp.v;
            const std::string which = "component " + std::to_string(index + 1);
            if (!dqt_[comp.tq])
                return fail(at, "SOS segment", which + " uses quantization table " + std::to_string(comp.tq) +
                                                   ", which no DQT segment before the scan defines");
            if (dc > 3 || ac > 3)
                return fail(at, "SOS segment", which + " names Huffman tables DC" + std::to_string(dc) + "/AC" +
                                                   std::to_string(ac) + " (ids 0 to 3)");
            if (c_.arithmetic) continue;  // conditioning tables have defaults
            const bool needs_dc = ss == 0 && ah == 0, needs_ac = se > 0;
            if ((needs_dc && !dc_[dc]) || (needs_ac && !ac_[ac]))
                return fail(at, "SOS segment", which + " uses Huffman table " +
                                                   (needs_dc && !dc_[dc] ? "DC" + std::to_string(dc) : "AC" + std::to_string(ac)) +
                                                   ", which no DHT segment before the scan defines");
            // As libjpeg-turbo, which refuses such a table when a scan uses
            // it (a decoder without its check would decode the file).
            if (needs_dc && !dc_refused_[dc].empty())
                return fail(at, "SOS segment", which + " uses Huffman table DC" + std::to_string(dc) + ", " + dc_refused_[dc]);
            if (needs_ac && !ac_refused_[ac].empty())
                return fail(at, "SOS segment", which + " uses Huffman table AC" + std::to_string(ac) + ", " + ac_refused_[ac]);
        }
        if (n > 1 && blocks_per_mcu > 10)
            return fail(at, "SOS segment", "an interleaved scan with " + std::to_string(blocks_per_mcu) +
                                               " blocks per MCU (at most 10)");
        if (++c_.scans > kMaxJpegScans)
            return fail(at, "SOS segment", "more than " + std::to_string(kMaxJpegScans) +
                                               " scans (a decoder passes over the whole image for each)");
        if (c_.progressive) {
            const std::uint64_t bits = (se == 63 ? ~std::uint64_t{0} : ((std::uint64_t{1} << (se + 1)) - 1)) &
                                       ~((std::uint64_t{1} << ss) - 1);
            for (int index : members) {
                Component& comp = comps_[static_cast<std::size_t>(index)];
                const std::string which = "component " + std::to_string(index + 1);
                if (ss > 0 && !comp.dc_first)
                    return fail(at, "SOS segment", "an AC scan of " + which + " comes before its first DC scan");
                if (ah > 0 && (comp.first & bits) != bits)
                    return fail(at, "SOS segment", "a refinement scan of " + which + " comes before its first pass");
                if (ah == 0) comp.first |= bits;
                if (ss == 0 && ah == 0) comp.dc_first = true;
            }
        }
        for (int index : members) comps_[static_cast<std::size_t>(index)].scanned = true;
        // The floor on the scan's size (see JpegCheck::min_scan_bytes).
        std::uint64_t blocks = 0;
        if (n == 1) {
            blocks = component_blocks(comps_[static_cast<std::size_t>(members[0])]);
        } else {
            const std::uint64_t mx = (static_cast<std::uint64_t>(width_) + 8 * hmax_ - 1) / (8 * hmax_);
            const std::uint64_t my = (static_cast<std::uint64_t>(height_) + 8 * vmax_ - 1) / (8 * vmax_);
            blocks = mx * my * static_cast<std::uint64_t>(blocks_per_mcu);
        }
        c_.work.add_scan(blocks);
        const std::uint64_t bits_per_block = c_.arithmetic ? 0 : !c_.progressive ? 2 : ss == 0 ? 1 : 0;
        c_.min_scan_bytes += blocks * bits_per_block / 8;
        return Stop::None;
    }

    // From the start of a scan's entropy-coded data to the marker that ends
    // it (FF followed by neither a stuffed 00, a restart marker nor a fill
    // byte); returns that marker's offset, or the file's size.
    std::size_t skip_scan_data(std::size_t i) {
        const std::size_t start = i;
        std::uint64_t restarts = 0;
        while (i < size_) {
            const void* ff = std::memchr(d_ + i, 0xFF, size_ - i);
            if (!ff) {
                i = size_;
                break;
            }
            i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - d_);
            if (i + 1 >= size_) {
                i = size_;
                break;
            }
            const int next = d_[i + 1];
            if (next == 0x00) {
                i += 2;
            } else if (restart_marker(next)) {
                restarts += 2;
                i += 2;
            } else if (next == 0xFF) {
                ++i;
            } else {
                break;
            }
        }
        c_.scan_bytes += (i - start) - restarts;
        return i;
    }

    void finish() {
        if (!c_.problem.empty()) return;
        if (!c_.frame) {
            if (c_.ends) record("no frame header (SOF) before the end-of-image marker");
            return;
        }
        // After the last scan: the message counts them all.
        const std::string too_much = jpeg_work_refusal(c_.work, size_);
        if (!too_much.empty()) {
            record(too_much);
            return;
        }
        for (std::size_t k = 0; k < comps_.size(); ++k) {
            const bool filled = c_.progressive ? comps_[k].dc_first : comps_[k].scanned;
            if (!filled) {
                c_.uncovered = "component " + std::to_string(k + 1) + " of " + std::to_string(comps_.size()) + " is in no scan";
                break;
            }
        }
    }

    const std::uint8_t* d_;
    std::size_t size_;
    JpegCheck c_;
    bool in_header_ = true;
    bool dqt_[4] = {}, dc_[4] = {}, ac_[4] = {};
    std::string dc_refused_[4], ac_refused_[4];  // why libjpeg-turbo refuses to use a table, or ""
    std::vector<Component> comps_;
    int width_ = 0, height_ = 0, hmax_ = 1, vmax_ = 1;
};

}  // namespace

JpegCheck check_jpeg(const std::uint8_t* data, std::size_t size) { return Walker(data, size).run(); }

}  // namespace imgpar
