// imgpar chain 'blur --sigma 2 | sharpen | threshold --otsu' IN OUT: several
// operations on each file in one decode, written as their own commands'
// options (src/run/chain.hpp reads them), run by the engine like any command:
// IN OUT, or many files with --out-dir / --output; a chain that ends in a
// report (histo, stats) prints it per file; one that ends in integral writes
// a .npy array.
#include <string>
#include <vector>

#include "cli/batch_settings.hpp"
#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/run_commands.hpp"
#include "src/error.hpp"
#include "src/run/chain.hpp"
#include "src/run/input_list.hpp"

namespace imgpar::cli {
namespace {

// The options that only an image result uses, refused when the chain ends
// in a report or an array: given, they would be silently ignored.
void refuse_image_options(const Invocation& inv, const std::string& last, bool array) {
    for (const char* name : {"quality", "lossless", "chroma-subsampling", "compression", "depth", "jpeg-encoder", "format", "strip",
                             "auto-orient", "out-dir", "output", "skip-existing"}) {
        const std::string n = name;
        if (array && (n == "out-dir" || n == "output" || n == "skip-existing")) continue;
        if (inv.values.given(n))
            throw usage_error("--" + n, "the chain ends in " + last + ", which writes " +
                                            (array ? "an array" : "a report") + ", not an image");
    }
}

int run(Invocation& inv) {
    if (inv.positionals.empty())
        throw usage_error("STAGES", "missing: the chain comes first, quoted as one argument, e.g. imgpar chain "
                                    "'blur --sigma 2 | sharpen' in.jpg out.jpg");
    ChainText text = parse_chain(inv.positionals[0]);
    for (const std::string& w : text.warnings) inv.diag.warning("chain: " + w);
    inv.positionals.erase(inv.positionals.begin());
    if (text.report) {
        refuse_image_options(inv, text.last->name, false);
        const std::vector<std::string> inputs = gather_inputs(inv.positionals, inv.values);
        return run_report_command(inv, text.chain, *text.report, text.last->peak_images, inputs);
    }
    if (inv.values.given("csv")) throw usage_error("--csv", "prints a report: end the chain in histo or stats");
    if (text.array) {
        refuse_image_options(inv, text.last->name, true);
        return run_array_command(inv, text.chain, *text.array, 2);
    }
    return run_image_command(inv, text.chain, 2, text.chain.text());
}

std::string operation_list() {
    std::string images, last;
    for (const Operation& op : operations()) {
        std::string& list = op.kind == OperationKind::ImageToImage ? images : last;
        list += (list.empty() ? "" : ", ") + op.name;
    }
    return "Stages: " + images + ". Last stage only: " + last + ".";
}

}  // namespace

Command chain_command() {
    Command c;
    c.name = "chain";
    c.summary = "Several operations on each file in one decode: 'blur | sharpen | equalize'";
    c.synopsis = {"'OP [OPTIONS] | OP [OPTIONS]...' IN OUT", "'OP... | OP...' --out-dir DIR IN...",
                  "'OP... | OP...' -o TEMPLATE IN...", "'OP... | histo|stats [OPTIONS]' FILE..."};
    c.description =
        "Runs the stages, separated by '|' and quoted as one argument, on each input in turn: the file is read\n"
        "and decoded once, each stage takes the previous one's image, and the last image is written. Each stage\n"
        "is an operation with its own command's options and defaults (imgpar OP --help lists them; an extra\n"
        "argument may follow its name: 'blur 0x2', 'resize 50%'); a mistake names the stage. The result equals running the stages one\n"
        "at a time through lossless files. On the GPU the image stays there from the first stage to the last.\n"
        "A chain that ends in a report (histo, stats) prints it for each FILE; one that ends in integral writes\n"
        "a .npy array. Quote words with spaces inside the chain: 'convolve --kernel \"1 2 1; 2 4 2; 1 2 1\"'.\n" +
        operation_list();
    c.min_positionals = 0;
    c.max_positionals = -1;
    OptionGroup output = image_output_options(
        "Print a JSON object per file: every stage with its parameters, kernel and time; failures too");
    output.params.push_back(ParamSpec::flag("csv", "When the chain ends in a report: print CSV with a header row"));
    c.options = {output, many_files_options(true)};
    c.run = run;
    c.examples = {{"imgpar chain 'blur 0x2 | sharpen' photo.jpg out.jpg", "Blur, then sharpen, in one decode and one encode"},
                  {"imgpar chain 'resize 50% | equalize' --out-dir small photos/*.jpg",
                   "Each JPEG of photos/ halved and equalized, into small/"},
                  {"imgpar chain 'grayscale --rec709 | histo --bins 16' photo.jpg", "The histogram of Rec. 709 luma"}};
    return c;
}

}  // namespace imgpar::cli
