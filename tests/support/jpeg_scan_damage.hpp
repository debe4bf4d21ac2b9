// Damage to a JPEG's scan, as files met in the wild carry it: cut and closed
// by EOI, bytes changed or flipped, restart markers renumbered or moved, EOI
// in the middle. Shared by the tests of the scan walk (src/io/jpeg_scan.hpp)
// and of the parallel Huffman decoder (src/io/jpeg_huffman_cpu.hpp), which
// must refuse exactly the files the walk refuses.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace imgpar::test {

// Where the entropy-coded data of the first scan begins; 0 when there is no scan.
inline std::size_t scan_start(const std::vector<std::uint8_t>& b) {
    for (std::size_t i = 2; i + 3 < b.size(); ++i)
        if (b[i] == 0xFF && b[i + 1] == 0xDA) return i + 2 + (static_cast<std::size_t>(b[i + 2]) << 8 | b[i + 3]);
    return 0;
}

// The file cut to `keep` bytes and closed by an EOI marker.
inline std::vector<std::uint8_t> cut_with_eoi(const std::vector<std::uint8_t>& whole, std::size_t keep) {
    std::vector<std::uint8_t> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(keep));
    cut.push_back(0xFF);
    cut.push_back(0xD9);
    return cut;
}

// Where the restart markers of the scan are (the index of their 0xFF).
inline std::vector<std::size_t> restart_markers(const std::vector<std::uint8_t>& b) {
    std::vector<std::size_t> at;
    for (std::size_t i = scan_start(b); i + 1 < b.size(); ++i)
        if (b[i] == 0xFF && b[i + 1] >= 0xD0 && b[i + 1] <= 0xD7) at.push_back(i);
    return at;
}

// One random damage to the scan of `whole` (a file whose scan starts at
// `start` > 0 and ends with its EOI): a byte of data replaced, set to 0xFF
// or with a bit flipped; the file cut and closed by EOI; an EOI put in the
// middle; a restart marker renumbered, dropped or moved a few bytes.
inline std::vector<std::uint8_t> damage_scan(const std::vector<std::uint8_t>& whole, std::mt19937& rng) {
    std::vector<std::uint8_t> b = whole;
    const std::size_t start = scan_start(whole);
    const std::size_t span = whole.size() - 2 - start;  // the data before EOI
    const std::size_t at = start + rng() % span;
    const std::vector<std::size_t> restarts = restart_markers(whole);
    const unsigned kind = rng() % (restarts.empty() ? 5 : 8);
    switch (kind) {
        case 0: b[at] = static_cast<std::uint8_t>(rng()); break;
        case 1: b[at] = 0xFF; break;
        case 2: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
        case 3: return cut_with_eoi(whole, at);
        case 4: b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), {0xFF, 0xD9}); break;
        default: {
            const std::size_t r = restarts[rng() % restarts.size()];
            if (kind == 5) {
                b[r + 1] = static_cast<std::uint8_t>(0xD0 + ((b[r + 1] - 0xD0 + 1 + rng() % 7) & 7));
            } else if (kind == 6) {
                b.erase(b.begin() + static_cast<std::ptrdiff_t>(r), b.begin() + static_cast<std::ptrdiff_t>(r) + 2);
            } else {
                const std::uint8_t code = b[r + 1];
                b.erase(b.begin() + static_cast<std::ptrdiff_t>(r), b.begin() + static_cast<std::ptrdiff_t>(r) + 2);
                const std::size_t shift = 1 + rng() % 8;  // earlier or later by 1 to 8 bytes
                const std::size_t to = rng() % 2 ? std::min(b.size() - 2, r + shift) : std::max(start, r - std::min(r, shift));
                b.insert(b.begin() + static_cast<std::ptrdiff_t>(to), {0xFF, code});
            }
        }
    }
    return b;
}

}  // namespace imgpar::test
