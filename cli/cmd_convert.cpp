// imgpar convert IN OUT: format conversion (decode, encode by OUT's
// extension): a chain of no stage.
#include "cli/batch_settings.hpp"
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/run_commands.hpp"

namespace imgpar::cli {
namespace {

int run(Invocation& inv) { return run_image_command(inv, Chain(), 2); }

}  // namespace

Command convert_command() {
    return {"convert", "Convert between PNG, JPEG, BMP, WebP, AVIF and TIFF (and from GIF)", {"IN OUT", "--out-dir DIR IN...", "-o TEMPLATE IN..."},
            "Decodes IN and writes it to OUT in the format OUT's extension names (.png, .jpg/.jpeg, .bmp, .webp,\n"
            ".avif, .tif/.tiff) or --format gives. JPEG and BMP cannot store gray+alpha and JPEG cannot store alpha: it\n"
            "is dropped with a warning. IN may name a page of a multi-page TIFF: 'scan.tif[2]' (0-based; the first page\n"
            "by default). OUT is written to a temporary file and renamed, so a failure never leaves a partial file.",
            0, -1, {image_output_options("Print a JSON object per file: sizes and layout; failures too"),
                   many_files_options(true)}, run,
            {{"imgpar convert photo.jpg photo.png", "JPEG to PNG"},
             {"imgpar convert --compression lzw scan.png scan.tif", "PNG to TIFF, LZW-compressed"},
             {"imgpar convert -o 'png/{stem}.png' photos/*.jpg", "Each JPEG of photos/ as png/NAME.png"}},
            {}};
}

}  // namespace imgpar::cli
