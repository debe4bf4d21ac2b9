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
    return {"convert", "Convert between PNG, JPEG and BMP", "IN OUT",
            "Decodes IN and writes it to OUT in the format OUT's extension names (.png, .jpg/.jpeg, .bmp) or\n"
            "--format gives. JPEG and BMP cannot store gray+alpha and JPEG cannot store alpha: it is dropped with a\n"
            "warning. OUT is written to a temporary file and renamed, so a failure never leaves a partial file.",
            0, -1, {image_output_options("Print a JSON object per file: sizes and layout; failures too"),
                   many_files_options(true)}, run};
}

}  // namespace imgpar::cli
