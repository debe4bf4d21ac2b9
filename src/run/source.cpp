#include "src/run/source.hpp"

#include <chrono>
#include <utility>

#include "src/gpu/jpeg_hardware.hpp"
#include "src/gpu/jpeg_idct.hpp"
#include "src/io/jpeg_coefficients.hpp"
#include "src/io/jpeg_huffman_plan.hpp"
#include "src/io/metadata.hpp"
#include "src/io/page_select.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

SourceFile read_source(const BatchItem& item, const LoadOptions& load) {
    const auto t0 = std::chrono::steady_clock::now();
    SourceFile s;
    // "scan.tif[2]": page 2 of scan.tif (src/io/page_select.hpp).
    const PagedPath file = split_page_suffix(item.path);
    LoadOptions paged = load;
    if (file.page >= 0) paged.page = file.page;
    s.bytes = read_image_file(file.path, paged);
    s.header = read_image_header(item.name, s.bytes, paged);
    s.read_ms = ms_since(t0);
    return s;
}

HostDecoded decode_on_host(const SourceFile& source, const std::string& name, const LoadOptions& load,
                           int orientation, int shrink) {
    const auto t0 = std::chrono::steady_clock::now();
    LoadedImage loaded = decode_image(name, source.bytes, source.header, load, shrink);
    HostDecoded out;
    out.ms = ms_since(t0);
    out.warnings = std::move(loaded.warnings);
    const bool turn = orientation >= 2 && orientation <= 8;
    if (loaded.sixteen())
        out.image16 = turn ? apply_orientation(loaded.image16.view(), orientation) : std::move(loaded.image16);
    else
        out.image = turn ? apply_orientation(loaded.image.view(), orientation) : std::move(loaded.image);
    return out;
}

namespace {

using Decoder = GpuJpegDecoders::Decoder;

// Walks over the decoders out of step: a photo's fall into step in two or
// three; a file still out of step after these goes to a core, which decodes
// it faster than more walks would.
constexpr int kGpuHuffmanPasses = 8;

std::optional<DeviceDecoded> on_hardware(const SourceFile& source, const std::string& name, BackendPool& backend) {
    const auto t0 = std::chrono::steady_clock::now();
    // The walk through the scan takes a core a while: done before a session
    // is held.
    const std::optional<gpu::HardwareJpeg> file = gpu::jpeg_for_hardware(source.bytes.data(), source.bytes.size());
    if (!file) return std::nullopt;
    BackendPool::Lease lease = backend.lease();
    if (lease.choice().backend != Backend::Gpu) return std::nullopt;
    const std::optional<DeviceViewU8> image =
        gpu::decode_jpeg_on_gpu(*lease.choice().session, name, *file, source.bytes.data(), source.bytes.size());
    if (!image) return std::nullopt;
    return DeviceDecoded{std::move(lease), *image, Decoder::Hardware, source.header.notes, ms_since(t0)};
}

// The Huffman decoding on the GPU too, when one of its slots is free.
std::optional<DeviceDecoded> on_gpu_huffman(const SourceFile& source, const std::string& name,
                                            GpuJpegDecoders& decoders, BackendPool& backend) {
    const GpuJpegDecoders::Slot slot = decoders.huffman_slot();
    if (!slot) return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    const JpegHuffmanPlan plan = plan_jpeg_huffman(source.bytes.data(), source.bytes.size());
    if (!plan.taken) return std::nullopt;
    BackendPool::Lease lease = backend.lease();
    if (lease.choice().backend != Backend::Gpu) return std::nullopt;
    std::uint32_t damage = 0;
    const std::optional<DeviceViewU8> image =
        gpu::decode_jpeg_scan(*lease.choice().session, plan, name, damage, kGpuHuffmanPasses);
    if (!image) {
        decoders.count_sent_back();
        return std::nullopt;
    }
    return DeviceDecoded{std::move(lease), *image, Decoder::GpuHuffman, source.header.notes, ms_since(t0)};
}

std::optional<DeviceDecoded> split(const SourceFile& source, const std::string& name, const LoadOptions& load,
                                   BackendPool& backend) {
    const auto t0 = std::chrono::steady_clock::now();
    JpegDecodeOptions options;
    options.allow_partial = load.allow_partial;
    options.max_memory = load.max_memory;
    std::vector<std::string> warnings = source.header.notes;
    const JpegCoefficients coefficients =
        jpeg_read_coefficients(name, source.bytes, source.header.width, source.header.height, warnings, options);
    BackendPool::Lease lease = backend.lease();
    if (lease.choice().backend != Backend::Gpu) return std::nullopt;
    const std::optional<DeviceViewU8> image = gpu::decode_jpeg_coefficients(*lease.choice().session, coefficients);
    if (!image) return std::nullopt;
    return DeviceDecoded{std::move(lease), *image, Decoder::Split, std::move(warnings), ms_since(t0)};
}

std::optional<DeviceDecoded> first_taker(const SourceFile& source, const std::string& name, const LoadOptions& load,
                                         GpuJpegDecoders& decoders, BackendPool& backend) {
    if (decoders.how() == GpuJpegDecode::Hardware && source.header.channels == 3 && gpu::jpeg_hardware_ready())
        if (std::optional<DeviceDecoded> d = on_hardware(source, name, backend)) return d;
    if (!jpeg_coefficients_suit(source.bytes.data(), source.bytes.size())) return std::nullopt;
    if (decoders.huffman_on_gpu())
        if (std::optional<DeviceDecoded> d = on_gpu_huffman(source, name, decoders, backend)) return d;
    return split(source, name, load, backend);
}

}  // namespace

std::optional<DeviceDecoded> decode_on_gpu(const SourceFile& source, const std::string& name, const LoadOptions& load,
                                           GpuJpegDecoders& decoders, BackendPool& backend) {
    if (decoders.how() == GpuJpegDecode::None || source.header.format != ImageFormat::Jpeg) return std::nullopt;
    std::optional<DeviceDecoded> d = first_taker(source, name, load, decoders, backend);
    if (d) decoders.count(d->decoder);
    return d;
}

}  // namespace imgpar
