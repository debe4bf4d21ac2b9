// `imgpar info` reports: one record per input, as text, CSV or JSON.
#pragma once

#include <string>

#include "src/io/load.hpp"

namespace imgpar {

struct InfoRecord {
    std::string file;
    bool ok = false;
    std::string error;         // when !ok
    ImageHeader header;        // when ok
    bool decoded = false;      // the pixels were decoded (not --header-only)
    std::size_t decoded_bytes = 0;
};

// "camera.png: png 512x512 gray (1 channel), stored gray, 8-bit, 1 page, 139512 bytes; 262144 bytes
// decoded", then the metadata described and what of it was dropped.
std::string info_text(const InfoRecord& r);
// The CSV header and a row (no line ends).
std::string info_csv_header();
std::string info_csv_row(const InfoRecord& r);
// One JSON object (one line), schema "imgpar.info/3" (docs/json.md).
std::string info_json(const InfoRecord& r);

}  // namespace imgpar
