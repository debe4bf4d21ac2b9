// The declarations of the colour commands: grayscale, extract-channel,
// flatten and add-alpha (src/op/operation.hpp). No pixel arithmetic here:
// src/ops/colour_math.hpp, colour.cpp and cuda/colour.cu.
#include "src/ops/colour_ops.hpp"

#include <memory>
#include <string>

#include "src/error.hpp"
#include "src/ops/colour.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace {

const char* const kColourGroup = "Colour";

class ColourJob final : public ImageJob {
public:
    explicit ColourJob(ColourPlan plan) : plan_(std::move(plan)) {}
    std::string describe() const override { return plan_.describe(); }
    JsonObject details() const override {
        JsonObject o;
        switch (plan_.op) {
            case ColourOp::Grayscale: o.add("luma", plan_.weights == LumaWeights::Rec709 ? "rec709" : "rec601"); break;
            case ColourOp::ExtractChannel: o.add("channel", plan_.channel); break;
            case ColourOp::Flatten: o.add("background", colour_text(plan_.background)); break;
            case ColourOp::AddAlpha: o.add("value", plan_.alpha); break;
        }
        return o;
    }
    ImageShape output_shape(const ImageShape& in) const override {
        return {in.width, in.height, plan_.output_channels(in.channels), in.type};  // u8 or u16, kept
    }
    // A channel this image does not have fails this file only.
    void check_input(const ImageShape& in, const std::string& file) const override {
        if (plan_.op != ColourOp::ExtractChannel) return;
        try {
            (void)resolve_channel(plan_.channel, in.channels);
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Usage) throw;
            throw input_error(file, e.what());
        }
    }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override {
        notes.kernel = "one pass per pixel, " + std::to_string(cpu_thread_count()) + " thread" +
                       (cpu_thread_count() == 1 ? "" : "s");
        record(src.channels, notes);
        return cpu::apply_colour(src, plan_);
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override {
        record(src.channels, notes);
        gpu::apply_colour(session, src, dst, plan_, &notes.kernel);
    }
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override {
        notes.kernel = "one pass per pixel, " + std::to_string(cpu_thread_count()) + " thread" +
                       (cpu_thread_count() == 1 ? "" : "s");
        record(src.channels, notes);
        return cpu::apply_colour(src, plan_);
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override {
        record(src.channels, notes);
        gpu::apply_colour(session, src, dst, plan_, &notes.kernel);
    }

private:
    void record(int channels, RunNotes& notes) const {
        if (plan_.op == ColourOp::ExtractChannel) notes.details.add("index", resolve_channel(plan_.channel, channels));
    }
    ColourPlan plan_;
};

std::unique_ptr<ImageJob> colour_job(ColourPlan plan) {
    check_colour_plan(plan);
    return std::make_unique<ColourJob>(std::move(plan));
}

void apply_channel(const std::string& text, ParamValues& v) {
    if (v.given("channel")) throw usage_error(text, "give the channel once: as N or as --channel");
    // Checked now, so that a file name in its place is told apart (cli/positional_errors.hpp).
    try {
        check_channel_spec(text);
    } catch (const Error& e) {
        throw usage_error(text, std::string("as N: ") + e.what());
    }
    v.set("channel", text);
}

}  // namespace

Operation grayscale_operation() {
    Operation op;
    op.name = "grayscale";
    op.peak_images = 4;  // measured (PNG to PNG): gray (a copy) 3.4, RGB 1.7, RGBA 2.0
    op.summary = "Colour to gray (luma), alpha kept";
    op.description =
        "Writes luma: RGB becomes gray and RGBA gray+alpha (alpha copied); gray images are unchanged. Rec. 601\n"
        "weights in 8-bit fixed point, (77 R + 150 G + 29 B + 128) >> 8, exactly the luma histo reports;\n"
        "--rec709 uses (54 R + 183 G + 19 B + 128) >> 8.";
    op.group = kColourGroup;
    op.params = {ParamSpec::flag("rec709", "Rec. 709 weights (HDTV, sRGB primaries) instead of Rec. 601")};
    op.examples = {{"rec601", {}}, {"rec709", {{"rec709", ""}}}};
    op.usage = {{"imgpar grayscale photo.jpg gray.jpg", "Rec. 601 luma"},
                op.shown("rec709", "photo.jpg gray.png", "Rec. 709 luma"),
                {"imgpar grayscale logo.png gray.png", "Gray with the alpha kept"}};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        ColourPlan p;
        p.op = ColourOp::Grayscale;
        p.weights = v.flag("rec709") ? LumaWeights::Rec709 : LumaWeights::Rec601;
        return colour_job(p);
    };
    return op;
}

Operation extract_channel_operation() {
    Operation op;
    op.name = "extract-channel";
    op.peak_images = 4;  // measured (PNG to PNG): gray 3.3, RGB 1.7, RGBA 1.5
    op.summary = "One channel as a gray image";
    op.description =
        "Writes channel N of IN as a gray image: 0-based (0 to 3), or by name: gray (of gray and gray+alpha\n"
        "images), red, green, blue (of RGB and RGBA), alpha. The optional third argument is N. A channel the\n"
        "image does not have (red of a gray image, alpha without alpha) fails that file.";
    op.group = kColourGroup;
    op.params = {ParamSpec::text("channel", "N", "The channel to keep", kChannelForms)
                     .suggesting({"gray", "red", "green", "blue", "alpha", "0", "1", "2", "3"})};
    op.extra = {"N", apply_channel};
    op.examples = {{"0", {{"channel", "0"}}}};
    op.usage = {{"imgpar extract-channel logo.png mask.png alpha", "The alpha channel as a gray image"},
                op.shown("0", "photo.jpg red.png", "The first channel (red)"),
                {"imgpar extract-channel --channel green --out-dir green photos/*.jpg", "Each photo's green channel"}};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        if (!v.given("channel")) throw usage_error("--channel", std::string("is needed (") + kChannelForms + ")");
        ColourPlan p;
        p.op = ColourOp::ExtractChannel;
        p.channel = v.text("channel");
        return colour_job(p);
    };
    return op;
}

Operation flatten_operation() {
    Operation op;
    op.name = "flatten";
    op.peak_images = 4;  // measured (PNG to PNG): gray (a copy) 3.4, RGB (a copy) 3.1, RGBA 2.3
    op.summary = "Composite alpha onto a background colour and drop it";
    op.description =
        "Composites each pixel over --background (opaque; default white, as ImageMagick's -flatten) and drops\n"
        "alpha: RGBA becomes RGB, gray+alpha gray (onto the background's luma). Each colour sample c with\n"
        "alpha a over background b: (c a + b (255 - a) + 127) / 255 in integers (the nearest value). Images\n"
        "without alpha are unchanged.";
    op.group = kColourGroup;
    op.params = {ParamSpec::text("background", "COLOR", "What shows through transparent pixels (opaque)", kColourForms)
                     .defaults("white")
                     .suggesting({"white", "black", "gray", "red", "green", "blue"})};
    op.examples = {{"white", {}}, {"#336699", {{"background", "#336699"}}, false}};
    op.usage = {{"imgpar flatten logo.png flat.jpg", "Onto white: a JPEG cannot hold alpha"},
                op.shown("#336699", "logo.png flat.png", "Onto a blue")};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        ColourPlan p;
        p.op = ColourOp::Flatten;
        p.background = parse_colour(v.text("background"), "--background");
        return colour_job(p);
    };
    return op;
}

Operation add_alpha_operation() {
    Operation op;
    op.name = "add-alpha";
    // Measured (PNG to PNG; of the output, the larger): gray 2.2, RGB 2.7, RGBA (a copy) 2.5.
    op.peak_images = 4;
    op.summary = "Add an alpha channel";
    op.description =
        "Adds an alpha channel of --value everywhere (default 255, opaque): gray becomes gray+alpha, RGB\n"
        "RGBA. Images that have alpha are unchanged.";
    op.group = kColourGroup;
    op.params = {ParamSpec::integer("value", "V", "The alpha of every pixel", 0, 255).defaults("255")};
    op.examples = {{"255", {}}, {"128", {{"value", "128"}}, false}};
    op.usage = {{"imgpar add-alpha photo.jpg rgba.png", "RGB becomes RGBA, opaque"},
                op.shown("128", "scan.png half.png", "Gray becomes gray+alpha, half transparent")};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        ColourPlan p;
        p.op = ColourOp::AddAlpha;
        p.alpha = v.int_value("value");
        return colour_job(p);
    };
    return op;
}

}  // namespace imgpar
