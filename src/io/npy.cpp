#include "src/io/npy.hpp"

#include <cstring>
#include <limits>

#include "src/error.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .npy writer stores the host's samples as they are: little-endian hosts only"
#endif

namespace imgpar {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;
constexpr std::size_t kAlignment = 64;
constexpr std::size_t kMaxDims = 8;

std::size_t element_count(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (std::size_t d : shape) {
        if (d == 0 || n > std::numeric_limits<std::size_t>::max() / d)
            throw usage_error(".npy", "an array shape must have dimensions of at least 1 and fit in memory");
        n *= d;
    }
    return n;
}

[[noreturn]] void bad_header(const std::string& name, const std::string& why) {
    throw input_error(name, "not a .npy file imgpar reads: " + why);
}

// The quoted value after 'key': in the dict text, or the raw text up to the
// next ',' or '}' when it is not quoted; empty when the key is missing.
std::string dict_value(const std::string& dict, const std::string& key) {
    const std::string needle = "'" + key + "':";
    std::size_t at = dict.find(needle);
    if (at == std::string::npos) return {};
    at += needle.size();
    while (at < dict.size() && dict[at] == ' ') ++at;
    if (at < dict.size() && dict[at] == '\'') {
        const std::size_t end = dict.find('\'', at + 1);
        return end == std::string::npos ? std::string() : dict.substr(at + 1, end - at - 1);
    }
    if (at < dict.size() && dict[at] == '(') {
        const std::size_t end = dict.find(')', at);
        return end == std::string::npos ? std::string() : dict.substr(at, end - at + 1);
    }
    const std::size_t end = dict.find_first_of(",}", at);
    return end == std::string::npos ? std::string() : dict.substr(at, end - at);
}

std::vector<std::size_t> parse_shape(const std::string& name, const std::string& text) {
    if (text.size() < 2 || text.front() != '(' || text.back() != ')') bad_header(name, "no shape tuple");
    std::vector<std::size_t> shape;
    std::size_t value = 0;
    bool digits = false;
    for (std::size_t i = 1; i + 1 < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            if (value > (std::numeric_limits<std::size_t>::max() - 9) / 10) bad_header(name, "a dimension is too large");
            value = value * 10 + static_cast<std::size_t>(c - '0');
            digits = true;
        } else if (c == ',') {
            if (!digits) bad_header(name, "an empty dimension in the shape");
            shape.push_back(value);
            value = 0;
            digits = false;
        } else if (c != ' ') {
            bad_header(name, std::string("unexpected '") + c + "' in the shape");
        }
    }
    if (digits) shape.push_back(value);
    return shape;
}

}  // namespace

const char* npy_descr(NpyType type) {
    switch (type) {
        case NpyType::U32: return "<u4";
        case NpyType::U64: return "<u8";
        case NpyType::F64: return "<f8";
    }
    return "<u8";
}

std::size_t npy_item_bytes(NpyType type) { return type == NpyType::U32 ? 4 : 8; }

std::string npy_header(NpyType type, const std::vector<std::size_t>& shape) {
    if (shape.empty() || shape.size() > kMaxDims) throw usage_error(".npy", "an array has 1 to 8 dimensions here");
    element_count(shape);
    std::string dict = std::string("{'descr': '") + npy_descr(type) + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(shape[i]);
    dict += shape.size() == 1 ? ",), }" : "), }";
    // magic (6), version (2), length (2), the dict, spaces, '\n'.
    const std::size_t unpadded = kMagicBytes + 4 + dict.size() + 1;
    const std::size_t total = (unpadded + kAlignment - 1) / kAlignment * kAlignment;
    dict.append(total - unpadded, ' ');
    dict += '\n';
    const std::size_t length = dict.size();  // at most a few hundred bytes: fits version 1.0's u16
    std::string header(kMagic, kMagicBytes);
    header += '\x01';
    header += '\x00';
    header += static_cast<char>(length & 0xff);
    header += static_cast<char>(length >> 8);
    return header + dict;
}

NpyHeader parse_npy_header(const std::string& name, const std::uint8_t* bytes, std::size_t size) {
    if (size < kMagicBytes + 4 || std::memcmp(bytes, kMagic, kMagicBytes) != 0) bad_header(name, "no NumPy magic");
    const int major = bytes[6];
    std::size_t length = 0, prefix = 0;
    if (major == 1) {
        length = bytes[8] | static_cast<std::size_t>(bytes[9]) << 8;
        prefix = 10;
    } else if (major == 2 && size >= 12) {
        length = bytes[8] | static_cast<std::size_t>(bytes[9]) << 8 | static_cast<std::size_t>(bytes[10]) << 16 |
                 static_cast<std::size_t>(bytes[11]) << 24;
        prefix = 12;
    } else {
        bad_header(name, "format version " + std::to_string(major) + " (allowed: 1 and 2)");
    }
    if (length > size - prefix) bad_header(name, "the header is cut short");
    const std::string dict(reinterpret_cast<const char*>(bytes + prefix), length);
    if (dict.empty() || dict.back() != '\n' || dict.front() != '{') bad_header(name, "the header is not a dict ending in a newline");
    NpyHeader h;
    h.descr = dict_value(dict, "descr");
    if (h.descr.empty()) bad_header(name, "no 'descr'");
    const std::string order = dict_value(dict, "fortran_order");
    if (order != "False" && order != "True") bad_header(name, "'fortran_order' is neither True nor False");
    h.fortran_order = order == "True";
    h.shape = parse_shape(name, dict_value(dict, "shape"));
    h.data_offset = prefix + length;
    return h;
}

NpyFile::NpyFile(NpyType type, const std::vector<std::size_t>& shape) : type_(type) {
    const std::string header = npy_header(type, shape);
    const std::size_t items = element_count(shape);
    const std::size_t item = npy_item_bytes(type);
    if (items > (std::numeric_limits<std::size_t>::max() - header.size()) / item)
        throw usage_error(".npy", "the array does not fit in memory");
    header_bytes_ = header.size();
    size_ = header.size() + items * item;
    block_.reset(new std::uint8_t[size_]);
    std::memcpy(block_.get(), header.data(), header.size());
}

}  // namespace imgpar
