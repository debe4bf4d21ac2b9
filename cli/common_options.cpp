#include "cli/common_options.hpp"

#include <cstdlib>

#include "src/error.hpp"
#include "src/io/byte_size.hpp"


namespace imgpar::cli {

namespace {
ParamSpec max_pixels_param() {
    ParamSpec p = ParamSpec::integer("max-pixels", "N", "Refuse inputs with more pixels than this, before decoding", 1, 1)
                      .defaults(std::to_string(kDefaultMaxPixels));
    // No bound but the largest whole number a value may be, said in the
    // range ("1 to 2^63-1"): "at least 1" read as if any larger number did.
    p.max = 9223372036854775807.0;
    return p;
}

// --max-memory's range: below a mebibyte nothing decodes; above a pebibyte
// is surely a typo.
constexpr std::uint64_t kMinMaxMemory = std::uint64_t{1} << 20;
constexpr std::uint64_t kMaxMaxMemory = std::uint64_t{1} << 50;

ParamSpec max_memory_param() {
    return ParamSpec::text("max-memory", "SIZE",
                           "Refuse inputs whose decoding and processing would need more memory than this, estimated "
                           "from the header before decoding; the files in flight share it",
                           "bytes with an optional unit K, M, G or T (binary: 1K = 1024), e.g. 8G, 1.5G, 512M")
        .defaults(byte_size_argument(default_max_memory()))
        .documented_default("half the memory, 1G to 4G");
}

// --device, else IMGPAR_DEVICE from the environment (a machine without a GPU
// says cpu once), else auto. A bad value in the variable is a usage error
// that names it: the command line holds nothing wrong.
DeviceRequest read_device(const ParamValues& values) {
    const char* env = std::getenv("IMGPAR_DEVICE");
    if (values.given("device") || !env || !*env) return parse_device_request(values.text("device"));
    try {
        return parse_device_request(env);
    } catch (const Error& e) {
        throw usage_error("IMGPAR_DEVICE", e.reason());
    }
}
}  // namespace

OptionGroup common_options() {
    return {"Common",
            {ParamSpec::text("device", "DEV", "Where to compute", "auto (GPU if usable, else CPU), cpu, gpu, gpu:N, gpu:N,M,... (a batch over those GPUs), gpu:all")
                 .defaults("auto")
                 .documented_default("IMGPAR_DEVICE from the environment, else auto")
                 .suggesting({"auto", "cpu", "gpu", "gpu:0", "gpu:all"}),
             // One setting, as an option given twice: of -q and -v the last one wins.
             ParamSpec::flag("quiet", "Print no warnings or notices (errors still go to stderr); the last of -q "
                                      "and -v wins")
                 .abbreviated("q"),
             ParamSpec::flag("verbose", "Say what runs where: backend, kernel, kernel size, timings; the last of -q "
                                        "and -v wins")
                 .abbreviated("v"),
             max_pixels_param(),
             max_memory_param(),
             ParamSpec::integer("threads", "N", "CPU threads to compute with (default: all cores; --jobs defaults to it)",
                                1, 1024),
             ParamSpec::flag("allow-partial", "Decode image data that ends early (a cut file) as far as it goes, "
                                              "with a warning, instead of failing"),
             ParamSpec::flag("help", "Show this help").abbreviated("h")}};
}

GlobalOptions read_global_options(const ParamValues& values) {
    GlobalOptions g;
    g.device = read_device(values);
    const std::string last = values.last_given({"quiet", "verbose"});
    g.verbosity = last == "quiet" ? Verbosity::Quiet : last == "verbose" ? Verbosity::Verbose : Verbosity::Normal;
    const long long max_pixels = values.integer("max-pixels");
    if (max_pixels < 1) throw usage_error("--max-pixels", "must be at least 1");
    g.max_pixels = static_cast<std::uint64_t>(max_pixels);
    g.max_memory = parse_byte_size("--max-memory", values.text("max-memory"), kMinMaxMemory, kMaxMaxMemory);
    g.allow_partial = values.flag("allow-partial");
    if (values.given("threads")) {
        g.threads = static_cast<int>(values.integer("threads"));
        if (g.threads < 1 || g.threads > 1024)
            throw usage_error("--threads", std::to_string(g.threads) + " is out of range (allowed: 1 to 1024)");
    }
    return g;
}

OptionGroup report_options(bool csv) {
    OptionGroup g{"Output", {ParamSpec::flag("json", "Print JSON: one object per input (JSON Lines for several inputs)")}};
    if (csv) g.params.push_back(ParamSpec::flag("csv", "Print CSV with a header row"));
    return g;
}

ReportFormat read_report_format(const ParamValues& values) {
    // --json-file (cli/report_file.hpp) writes the same lines to a file.
    const bool json = values.given("json") || (values.has("json-file") && values.given("json-file"));
    const bool csv = values.has("csv") && values.given("csv");
    if (json && csv) throw usage_error("--json", "cannot be combined with --csv");
    return json ? ReportFormat::Json : csv ? ReportFormat::Csv : ReportFormat::Text;
}

void read_compression(const std::string& value, SaveOptions& s) {
    // One option, two formats' vocabularies: a PNG level (or none) and a
    // TIFF compression; which output takes which is checked against the
    // run's outputs (cli/codec_option_warnings.hpp).
    if (value == "none") {
        s.compression = 0;
        s.tiff_compression = TiffCompression::None;
        s.compression_for = CompressionFor::Both;
    } else if (value == "lzw" || value == "deflate") {
        s.tiff_compression = value == "lzw" ? TiffCompression::Lzw : TiffCompression::Deflate;
        s.compression_for = CompressionFor::Tiff;
    } else if (value.size() == 1 && value[0] >= '0' && value[0] <= '9') {
        s.compression = value[0] - '0';
        s.compression_for = CompressionFor::Png;
    } else {
        throw usage_error("--compression", "'" + value + "' is not a compression (allowed: 0-9 or none for PNG; none, "
                                           "lzw or deflate for TIFF)");
    }
}

OptionGroup image_output_options(const std::string& json) {
    OptionGroup g{"Output",
                  {ParamSpec::integer("quality", "Q", "Quality of JPEG, lossy WebP and AVIF outputs", 1, 100)
                       .defaults(std::to_string(kDefaultJpegQuality))
                       .documented_default("JPEG " + std::to_string(kDefaultJpegQuality) + ", WebP " +
                                           std::to_string(kDefaultWebpQuality) + ", AVIF " +
                                           std::to_string(kDefaultAvifQuality)),
                   ParamSpec::flag("lossless", "Write WebP losslessly: every pixel exact, alpha's hidden colours included"),
                   ParamSpec::choice("chroma-subsampling", "S",
                                     "JPEG colour resolution: auto (444 above quality 90, else 420), 444 (full), "
                                     "422 (half across), 420 (half both ways)",
                                     {"auto", "444", "422", "420"})
                       .defaults("auto"),
                   ParamSpec::text("compression", "C",
                                   "Lossless compression: PNG takes 0 (none), 1 (fastest: run-length) or 2-9 (zlib's "
                                   "levels: smaller, slower); TIFF takes none, lzw or deflate (with the horizontal "
                                   "predictor); none is 0 for PNG",
                                   "0-9 or none (PNG); none, lzw, deflate (TIFF)")
                       .documented_default(std::to_string(kDefaultPngCompression) + " for PNG, " +
                                           tiff_compression_name(kDefaultTiffCompression) + " for TIFF")
                       .suggesting({"none", "lzw", "deflate", "1", "6", "9"}),
                   ParamSpec::choice("depth", "BITS",
                                     "Bits per sample written to PNG and TIFF outputs: 8 (a 16-bit result rounded to "
                                     "nearest) or 16 (an 8-bit one widened exactly, v x 257); by default the result's "
                                     "own, and 8 for the formats that hold no more (a 16-bit result then reduced, with a "
                                     "warning)",
                                     {"8", "16"}),
                   ParamSpec::choice("jpeg-encoder", "E",
                                     "Where JPEG results computed on the GPU are encoded (the same bytes either way): auto (on "
                                     "the GPU), gpu (on the GPU, required), cpu (libjpeg-turbo on the cores)",
                                     {"auto", "cpu", "gpu"})
                       .defaults("auto"),
                   ParamSpec::choice("jpeg-decoder", "D",
                                     "How a batch's JPEG inputs decode when their files compute on the GPU (the same pixels "
                                     "every way): auto (on the GPU, its Huffman decoding too for baseline files in one scan, "
                                     "else on a core), gpu (the same, asked for by name: an error without the GPU), hardware "
                                     "(the GPU's hardware decoder once it has started, else as auto), cpu (libjpeg-turbo on "
                                     "the cores). Progressive files decode on the cores",
                                     {"auto", "gpu", "hardware", "cpu"})
                       .defaults("auto"),
                   ParamSpec::choice("format", "FMT", "Output format when the file name cannot tell (needed for '-')",
                                     {"png", "jpg", "jpeg", "bmp", "webp", "avif", "tif", "tiff"}),
                   ParamSpec::flag("strip", "Write no metadata (by default the input's EXIF, ICC profile, XMP, IPTC and comments are kept)"),
                   ParamSpec::flag("auto-orient",
                                   "Turn the pixels upright as the EXIF orientation says, and set it to 1 (upright)")}};
    if (!json.empty()) g.params.push_back(ParamSpec::flag("json", json));
    return g;
}

SaveOptions read_save_options(const ParamValues& values) {
    SaveOptions s;
    s.quality = values.int_value("quality");
    check_jpeg_quality(s.quality);
    s.quality_given = values.given("quality");
    s.lossless = values.flag("lossless");
    s.chroma = parse_chroma_subsampling(values.text("chroma-subsampling"));
    if (values.given("compression")) read_compression(values.text("compression"), s);
    if (values.given("format")) s.format = parse_format_name(values.text("format"));
    if (values.given("depth")) s.depth = std::stoi(values.text("depth"));
    return s;
}

LoadOptions load_options(const GlobalOptions& global, double images) {
    LoadOptions o;
    o.max_pixels = global.max_pixels;
    o.max_memory = global.max_memory;
    o.allow_partial = global.allow_partial;
    o.images = images;
    return o;
}

}  // namespace imgpar::cli
