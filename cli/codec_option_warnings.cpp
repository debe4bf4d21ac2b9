#include "cli/codec_option_warnings.hpp"

#include <algorithm>

namespace imgpar::cli {

namespace {

struct CodecOption {
    const char* name;
    ImageFormat used_by;
};

// Which format reads each option (src/io/save.cpp's encode_image; BMP reads
// none). --jpeg-decoder is about inputs, so any output may go with it.
constexpr CodecOption kCodecOptions[] = {{"quality", ImageFormat::Jpeg},
                                         {"chroma-subsampling", ImageFormat::Jpeg},
                                         {"jpeg-encoder", ImageFormat::Jpeg},
                                         {"compression", ImageFormat::Png}};

std::string output_name(const std::string& name) { return name == "-" ? "standard output" : name; }

}  // namespace

std::vector<std::string> unused_codec_options(const ParamValues& values, const std::vector<PlannedOutput>& outputs) {
    std::vector<std::string> lines;
    if (outputs.empty()) return lines;
    for (const CodecOption& o : kCodecOptions) {
        if (!values.has(o.name) || !values.given(o.name)) continue;
        // An option some output uses is not a no-op: a batch of PNGs and
        // JPEGs with --quality is fine.
        if (std::any_of(outputs.begin(), outputs.end(),
                        [&o](const PlannedOutput& p) { return p.format == o.used_by; }))
            continue;
        const std::string used = std::string("--") + o.name + " applies to " + format_label(o.used_by) + " outputs; ";
        if (outputs.size() == 1)
            lines.push_back(used + output_name(outputs[0].name) + " is " + format_label(outputs[0].format) +
                            ": ignored");
        else
            lines.push_back(used + "none of the " + std::to_string(outputs.size()) + " outputs is " +
                            format_label(o.used_by) + ": ignored");
    }
    return lines;
}

}  // namespace imgpar::cli
