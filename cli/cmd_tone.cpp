// The histogram-driven image commands: equalize and threshold.
#include "cli/command.hpp"
#include "cli/image_op.hpp"
#include "src/error.hpp"
#include "src/ops/histogram_backend.hpp"

namespace imgpar::cli {
namespace {

void equalize_options(cxxopts::Options& o) {
    o.add_options("Equalize")("mode",
                              "luma: equalize luma and keep colour (default); channels: each colour channel on its own",
                              cxxopts::value<std::string>()->default_value("luma"), "MODE");
    add_image_op_options(o);
}

int equalize_run(Invocation& inv) {
    EqualizeMode mode = parse_equalize_mode(inv.args["mode"].as<std::string>());
    ImageOp op;
    op.description = std::string("histogram equalization, mode ") + equalize_mode_name(mode);
    op.details.add("mode", equalize_mode_name(mode));
    op.run = [mode](ConstViewU8 in, const BackendChoice& backend, JsonObject&, std::string& kernel) {
        return equalize(in, mode, backend, kernel);
    };
    return run_image_op(inv, std::move(op));
}

void threshold_options(cxxopts::Options& o) {
    o.add_options("Threshold")
        ("otsu", "Choose the level with Otsu's method")
        ("value", "Fixed level T, 0 to 255: samples above T become 255, the rest 0", cxxopts::value<int>(), "T");
    add_image_op_options(o);
}

int threshold_run(Invocation& inv) {
    bool otsu = inv.args.count("otsu") > 0;
    bool value = inv.args.count("value") > 0;
    if (otsu == value) throw usage_error("--otsu", "give exactly one of --otsu or --value T");
    ThresholdSpec spec = otsu ? threshold_otsu() : threshold_at(inv.args["value"].as<int>());
    ImageOp op;
    op.description = otsu ? "threshold, Otsu's level" : "threshold at " + std::to_string(spec.value);
    op.details.add("method", otsu ? "otsu" : "value");
    const Diagnostics& diag = inv.diag;
    op.run = [spec, &diag](ConstViewU8 in, const BackendChoice& backend, JsonObject& details, std::string& kernel) {
        ThresholdResult r = threshold(in, spec, backend, kernel);
        details.add("threshold", r.threshold);
        diag.info("threshold level " + std::to_string(r.threshold));
        return std::move(r.image);
    };
    return run_image_op(inv, std::move(op));
}

}  // namespace

Command equalize_command() {
    return {"equalize", "Histogram equalization", "IN OUT",
            "Spreads the intensities over the full range: histogram -> cumulative distribution -> lookup table.\n"
            "Gray images are equalized directly. Colour images (default --mode luma) have their luma equalized and\n"
            "each of R, G, B shifted by the same amount, which keeps hue; --mode channels equalizes each colour\n"
            "channel on its own. Alpha is never changed.",
            2, 2, equalize_options, equalize_run};
}

Command threshold_command() {
    return {"threshold", "Binary threshold (fixed or Otsu)", "IN OUT",
            "Writes a binary image: 255 where the intensity is above the level, 0 elsewhere. The intensity is the\n"
            "gray channel, or luma (Rec. 601) for colour images. --otsu picks the level that best separates the\n"
            "histogram into two classes (Otsu's method) and reports it with -v and --json. Output is gray, or\n"
            "gray+alpha when the input has alpha (alpha copied).",
            2, 2, threshold_options, threshold_run};
}

}  // namespace imgpar::cli
