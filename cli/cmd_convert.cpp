// imgpar convert IN OUT: format conversion (decode, encode by OUT's extension).
#include <chrono>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {
namespace {

int run(Invocation& inv) {
    SaveOptions save = read_save_options(inv.values);
    const std::string& in = inv.positionals[0];
    const std::string& out = inv.positionals[1];
    ImageFormat out_format = output_format(out, save.format);  // usage errors before any work

    LoadedImage img = load_image(in, load_options(inv.global));
    report_warnings(inv.diag, display_name(in), img.warnings);
    std::vector<std::string> warnings;
    save_image(out, img.image.view(), save, warnings);
    report_warnings(inv.diag, out == "-" ? "<stdout>" : out, warnings);
    inv.diag.info("convert: " + display_name(in) + " (" + format_name(img.header.format) + " " +
                  std::to_string(img.image.width()) + "x" + std::to_string(img.image.height()) + " " +
                  channel_layout_name(img.image.channels()) + ") -> " + (out == "-" ? "<stdout>" : out) + " (" +
                  format_name(out_format) +
                  (out_format == ImageFormat::Jpeg ? ", quality " + std::to_string(save.quality) : std::string()) + ")");
    return kExitOk;
}

}  // namespace

Command convert_command() {
    return {"convert", "Convert between PNG, JPEG and BMP", "IN OUT",
            "Decodes IN and writes it to OUT in the format OUT's extension names (.png, .jpg/.jpeg, .bmp) or\n"
            "--format gives. JPEG and BMP cannot store gray+alpha and JPEG cannot store alpha: it is dropped with a\n"
            "warning. OUT is written to a temporary file and renamed, so a failure never leaves a partial file.",
            2, 2, {image_output_options()}, run};
}

}  // namespace imgpar::cli
