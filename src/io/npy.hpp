// NumPy's .npy array files (format version 1.0), written so that
// numpy.load reads them with no other package: the magic "\x93NUMPY", the
// version bytes 1 0, a little-endian u16 header length, then a Python dict
// literal {'descr': '<u8', 'fortran_order': False, 'shape': (H, W, C), }
// padded with spaces and ended by '\n' so that the data starts at a
// multiple of 64 bytes (NumPy's own alignment), then the samples in C order
// (last index fastest), little-endian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace imgpar {

// The sample types imgpar writes: unsigned 32- and 64-bit integers and IEEE
// doubles, as NumPy names them: '<u4', '<u8', '<f8'.
enum class NpyType { U32, U64, F64 };

const char* npy_descr(NpyType type);
std::size_t npy_item_bytes(NpyType type);

// The header for an array of `type` and `shape` (1 to 8 dimensions, each
// at least 1); its size is a multiple of 64.
std::string npy_header(NpyType type, const std::vector<std::size_t>& shape);

// What a .npy header says.
struct NpyHeader {
    std::string descr;  // "<u8"
    bool fortran_order = false;
    std::vector<std::size_t> shape;
    std::size_t data_offset = 0;  // where the samples start
};

// Reads the header at the start of `bytes` (versions 1.0 and 2.0). Throws
// imgpar::Error (input) naming `name` and what is wrong.
NpyHeader parse_npy_header(const std::string& name, const std::uint8_t* bytes, std::size_t size);

// A whole .npy file being built in memory: its header, then room for the
// samples (not initialised), which the caller fills in C order through
// data(). The samples start at a multiple of 64 bytes into a block from
// operator new[], so a pointer to them is aligned for any sample type.
class NpyFile {
public:
    NpyFile(NpyType type, const std::vector<std::size_t>& shape);
    NpyType type() const { return type_; }
    void* data() { return block_.get() + header_bytes_; }
    std::size_t data_bytes() const { return size_ - header_bytes_; }
    const std::uint8_t* bytes() const { return block_.get(); }
    std::size_t size() const { return size_; }

private:
    NpyType type_;
    std::size_t header_bytes_ = 0;
    std::size_t size_ = 0;
    std::unique_ptr<std::uint8_t[]> block_;
};

}  // namespace imgpar
