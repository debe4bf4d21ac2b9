#include "cli/decoded_file.hpp"

#include <utility>
#include <vector>

#include "cli/common_options.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {

DecodedFile read_and_decode(const BatchItem& item, const LoadOptions& load, WorkerContext& ctx, const Diagnostics& diag) {
    std::vector<std::uint8_t> bytes = read_image_file(item.path, load);
    ImageHeader header = read_image_header(item.name, bytes, load);
    MemoryBudget::Reservation reservation = ctx.memory.reserve(estimate_memory(header, load));
    LoadedImage image = decode_image(item.name, bytes, header, load);
    std::vector<std::uint8_t>().swap(bytes);  // the file's bytes go before the caller's buffers come
    report_warnings(diag, item.name, image.warnings);
    return DecodedFile{std::move(header), std::move(image), std::move(reservation)};
}

}  // namespace imgpar::cli
