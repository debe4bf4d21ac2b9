#include "cli/codec_option_warnings.hpp"

#include <algorithm>

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
    {"compression", {ImageFormat::Png}, "PNG"}};

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
    for (const CodecOption& o : kCodecOptions) {
        if (!values.has(o.name) || !values.given(o.name)) continue;
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

}  // namespace imgpar::cli
