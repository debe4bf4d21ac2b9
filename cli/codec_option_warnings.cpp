#include "cli/codec_option_warnings.hpp"

#include <algorithm>

#include "src/error.hpp"

namespace imgpar::cli {

namespace {

struct CodecOption {
    const char* name;
    std::vector<ImageFormat> used_by;
    const char* formats;  // as the message names them
};

// Which formats read each option (src/io/save.cpp's encode_image; BMP reads
// none). --jpeg-decoder is about inputs, so any output may go with it.
const CodecOption kCodecOptions[] = {
    {"quality", {ImageFormat::Jpeg, ImageFormat::Webp, ImageFormat::Avif}, "JPEG, WebP and AVIF"},
    {"lossless", {ImageFormat::Webp}, "WebP"},
    {"chroma-subsampling", {ImageFormat::Jpeg}, "JPEG"},
    {"jpeg-encoder", {ImageFormat::Jpeg}, "JPEG"},
    {"compression", {ImageFormat::Png, ImageFormat::Tiff}, "PNG and TIFF"}};

// "JPEG, WebP and AVIF" as "JPEG, WebP or AVIF".
std::string either(std::string formats) {
    const std::size_t and_at = formats.rfind(" and ");
    if (and_at != std::string::npos) formats.replace(and_at, 5, " or ");
    return formats;
}

std::string output_name(const std::string& name) { return name == "-" ? "standard output" : name; }

}  // namespace

std::vector<std::string> unused_codec_options(const ParamValues& values, const std::vector<PlannedOutput>& outputs) {
    std::vector<std::string> lines;
    if (outputs.empty()) return lines;
    for (CodecOption o : kCodecOptions) {
        if (!values.has(o.name) || !values.given(o.name)) continue;
        // --compression's value says whose it is: a level is PNG's, lzw and
        // deflate are TIFF's, none is both's.
        if (std::string(o.name) == "compression") {
            const std::string v = values.text(o.name);
            if (v == "lzw" || v == "deflate") {
                o.used_by = {ImageFormat::Tiff};
                o.formats = "TIFF";
            } else if (v != "none") {
                o.used_by = {ImageFormat::Png};
                o.formats = "PNG";
            }
        }
        // An option some output uses is not a no-op: a batch of PNGs and
        // JPEGs with --quality is fine.
        if (std::any_of(outputs.begin(), outputs.end(), [&o](const PlannedOutput& p) {
                return std::find(o.used_by.begin(), o.used_by.end(), p.format) != o.used_by.end();
            }))
            continue;
        const std::string used = std::string("--") + o.name + " applies to " + o.formats + " outputs; ";
        if (outputs.size() == 1)
            lines.push_back(used + output_name(outputs[0].name) + " is " + format_label(outputs[0].format) +
                            ": ignored");
        else
            lines.push_back(used + "none of the " + std::to_string(outputs.size()) + " outputs is " +
                            either(o.formats) + ": ignored");
    }
    return lines;
}

void check_compression_fits(const SaveOptions& save, const std::string& value, const std::vector<PlannedOutput>& outputs) {
    if (save.compression_for != CompressionFor::Png && save.compression_for != CompressionFor::Tiff) return;
    // A PNG level for a TIFF, or a TIFF compression for a PNG, has no
    // meaning there: refused, not guessed.
    const bool png_value = save.compression_for == CompressionFor::Png;
    const ImageFormat refuses = png_value ? ImageFormat::Tiff : ImageFormat::Png;
    for (const PlannedOutput& p : outputs) {
        if (p.format != refuses) continue;
        throw usage_error("--compression", "'" + value + "' is " + (png_value ? "a PNG level" : "a TIFF compression") +
                                               ", and " + output_name(p.name) + " is " + format_label(refuses) +
                                               ", which takes " + (png_value ? "none, lzw or deflate" : "0-9 or none"));
    }
}

}  // namespace imgpar::cli
