// The declaration of resize: its options and geometry argument, the output
// size they give for each image, and the job. No pixel arithmetic here: that
// is src/ops/resize.cpp and cuda/resize.cu.
#include "src/ops/resize_ops.hpp"

#include <cmath>
#include <memory>
#include <mutex>
#include <optional>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/io/load.hpp"

namespace imgpar {

namespace {

constexpr int kMaxSide = 1 << 24;       // of a result
constexpr int kMaxOptionSide = 100000;  // --width, --height: what a user types
constexpr double kMaxScale = 100;

int side(const std::string& text, const std::string& option) {
    const std::optional<long long> v = parse_whole_number(text);
    if (!v || *v < 1 || *v > kMaxSide)
        throw usage_error(option, "'" + text + "' is not a size in pixels (allowed: 1 to " + std::to_string(kMaxSide) + ")");
    return static_cast<int>(*v);
}

double factor(const std::string& text, const std::string& option, double most = kMaxScale) {
    const std::optional<double> v = parse_decimal(text);
    if (!v || *v <= 0 || *v > most)
        throw usage_error(option, "'" + text + "' is not a scale factor (allowed: more than 0, up to " +
                                      std::to_string(static_cast<int>(most)) + (most > kMaxScale ? "%" : "") + ")");
    return *v;
}

// "WxH" as two sides.
std::pair<int, int> box(const std::string& text, const std::string& option) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos) throw usage_error(option, "'" + text + "' is not WxH (e.g. 800x600)");
    return {side(text.substr(0, x), option), side(text.substr(x + 1), option)};
}

// round(a * b / c), half up, for positive operands, at least 1.
int ratio(long long a, long long b, long long c) {
    const long long v = (2 * a * b + c) / (2 * c);
    return static_cast<int>(std::max(1LL, v));
}

int scaled(int n, double s) {
    const double v = std::floor(n * s + 0.5);
    if (v > kMaxSide)
        throw usage_error("resize", std::to_string(n) + " pixels times " + std::to_string(s) + " is more than " +
                                        std::to_string(kMaxSide));
    return std::max(1, static_cast<int>(v));
}

ResizeSpec read_geometry(const std::string& text) {
    ResizeSpec s;
    std::string g = text;
    const auto bad = [&text] { return usage_error(text, "the forms are"); };
    if (g.empty()) throw bad();
    const char last = g.back();
    if (last == '!' || last == '^' || last == '>' || last == '<') g.pop_back();
    if (g.find('%') != std::string::npos) {
        if (last == '!' || last == '^') throw bad();
        const std::size_t x = g.find('x');
        const std::string a = x == std::string::npos ? g : g.substr(0, x);
        const std::string b = x == std::string::npos ? a : g.substr(x + 1);
        if (a.size() < 2 || a.back() != '%' || b.size() < 2 || b.back() != '%') throw bad();
        s.mode = ResizeSpec::Mode::Scale;
        s.scale_x = factor(a.substr(0, a.size() - 1), text, 100 * kMaxScale) / 100;
        s.scale_y = factor(b.substr(0, b.size() - 1), text, 100 * kMaxScale) / 100;
    } else {
        const std::size_t x = g.find('x');
        const std::string a = x == std::string::npos ? g : g.substr(0, x);
        const std::string b = x == std::string::npos ? std::string() : g.substr(x + 1);
        if (a.empty() && b.empty()) throw bad();
        if (a.empty() || b.empty()) {
            if (last == '!' || last == '^') throw bad();
            s.mode = a.empty() ? ResizeSpec::Mode::Height : ResizeSpec::Mode::Width;
            (a.empty() ? s.height : s.width) = side(a.empty() ? b : a, text);
        } else {
            s.width = side(a, text);
            s.height = side(b, text);
            s.mode = last == '!' ? ResizeSpec::Mode::Exact : last == '^' ? ResizeSpec::Mode::Cover : ResizeSpec::Mode::Fit;
        }
    }
    if (last == '>') s.only = ResizeSpec::Only::Shrink;
    if (last == '<') s.only = ResizeSpec::Only::Enlarge;
    return s;
}

}  // namespace

ResizeSpec parse_resize_geometry(const std::string& text) {
    try {
        return read_geometry(text);
    } catch (const Error& e) {
        throw usage_error(text, "is not a geometry (" + e.reason() +
                                    "; e.g. 50%, 800x600, 800x600!, 800x600^, 800x600>, 800x, x600)");
    }
}

ResizeGeometry resize_geometry(const ResizeSpec& s, int w, int h) {
    ResizeGeometry g;
    switch (s.mode) {
        case ResizeSpec::Mode::Width: g.width = s.width, g.height = ratio(h, s.width, w); break;
        case ResizeSpec::Mode::Height: g.width = ratio(w, s.height, h), g.height = s.height; break;
        case ResizeSpec::Mode::Exact: g.width = s.width, g.height = s.height; break;
        case ResizeSpec::Mode::Scale: g.width = scaled(w, s.scale_x), g.height = scaled(h, s.scale_y); break;
        case ResizeSpec::Mode::Fit:
        case ResizeSpec::Mode::Cover:
        case ResizeSpec::Mode::Fill: {
            // Width-bound when the box is relatively narrower (fit), or wider (cover).
            const bool by_width = (static_cast<long long>(s.width) * h <= static_cast<long long>(s.height) * w) ==
                                  (s.mode == ResizeSpec::Mode::Fit);
            g.width = by_width ? s.width : ratio(w, s.height, h);
            g.height = by_width ? ratio(h, s.width, w) : s.height;
            break;
        }
    }
    if (g.width > kMaxSide || g.height > kMaxSide)
        throw usage_error("resize", "the result would be " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                        ", more than " + std::to_string(kMaxSide) + " pixels a side");
    if (s.only != ResizeSpec::Only::Any) {
        // ImageMagick's > and <: shrink an image larger than the box (a side
        // beyond it), enlarge one smaller than it (both sides within); with a
        // scale, shrink or enlarge only.
        const bool box = s.mode != ResizeSpec::Mode::Scale;
        const bool beyond = box ? (s.width && w > s.width) || (s.height && h > s.height)
                                : g.width < w || g.height < h;
        const bool within = box ? (!s.width || w < s.width) && (!s.height || h < s.height)
                                : g.width > w || g.height > h;
        if (s.only == ResizeSpec::Only::Shrink ? !beyond : !within) {
            g.width = w;
            g.height = h;
        }
    }
    g.crop_width = g.width;
    g.crop_height = g.height;
    if (s.mode == ResizeSpec::Mode::Fill) {
        g.crop_width = std::min(g.width, s.width);
        g.crop_height = std::min(g.height, s.height);
        const Corner corner = gravity_corner(s.gravity, g.width, g.height, g.crop_width, g.crop_height, 0, 0);
        g.x = static_cast<int>(corner.x);
        g.y = static_cast<int>(corner.y);
    }
    return g;
}

namespace {

class ResizeJob final : public ImageJob {
public:
    explicit ResizeJob(ResizeSpec spec) : spec_(spec) {}

    std::string describe() const override { return std::string("resize, ") + resize_filter_name(spec_.filter) + " filter"; }
    JsonObject details() const override {
        JsonObject o;
        o.add("name", "resize").add("filter", resize_filter_name(spec_.filter));
        return o;
    }
    ImageShape output_shape(const ImageShape& in) const override {
        const ResizeGeometry g = resize_geometry(spec_, in.width, in.height);
        return {g.crop_width, g.crop_height, in.channels, in.type};  // u8 or u16, kept
    }
    void check_input(const ImageShape& in, const std::string& file) const override {
        ImageShape out;
        try {
            out = output_shape(in);
        } catch (const Error& e) {
            throw input_error(file, e.reason());
        }
        if (static_cast<std::uint64_t>(out.width) * static_cast<std::uint64_t>(out.height) > kDefaultMaxPixels)
            throw input_error(file, "resized to " + std::to_string(out.width) + "x" + std::to_string(out.height) +
                                        " it would have more than " + std::to_string(kDefaultMaxPixels) + " pixels");
        try {
            check_resize_range(*plan_for(in.width, in.height, in.type == SampleType::U16 ? SampleType::U16
                                                                                          : SampleType::U8),
                               in.channels);
        } catch (const Error& e) {
            throw input_error(file, e.reason());
        }
    }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override {
        const std::shared_ptr<const ResizePlan> planned = plan_for(src.width, src.height);
        const ResizePlan& plan = *planned;
        ImageU8 out(plan.x.count, plan.y.count, src.channels);
        cpu::resize(plan, src, out.view());
        notes.kernel = cpu::resize_kernel_name(plan, src.channels);
        record(plan, notes);
        return out;
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override {
        const std::shared_ptr<const ResizePlan> planned = plan_for(src.width, src.height);
        const ResizePlan& plan = *planned;
        gpu::resize(session, plan, src, dst, &notes.kernel);
        record(plan, notes);
    }
    // 16-bit samples: a plan made for them (22-bit weights, src/ops/resize.hpp's 16 BITS).
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override {
        const std::shared_ptr<const ResizePlan> planned = plan_for(src.width, src.height, SampleType::U16);
        const ResizePlan& plan = *planned;
        ImageU16 out(plan.x.count, plan.y.count, src.channels);
        cpu::resize(plan, src, out.view());
        notes.kernel = cpu::resize_kernel_name16(plan, src.channels);
        record(plan, notes);
        return out;
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override {
        const std::shared_ptr<const ResizePlan> planned = plan_for(src.width, src.height, SampleType::U16);
        const ResizePlan& plan = *planned;
        gpu::resize(session, plan, src, dst, &notes.kernel);
        record(plan, notes);
    }

    // The largest JPEG scaling whose decoded image still holds at least the
    // resized image's pixels both ways and gives the same geometry.
    int load_shrink(const ImageShape& in) const override {
        if (!spec_.shrink_on_load) return 1;
        const ResizeGeometry full = resize_geometry(spec_, in.width, in.height);
        for (int d : {8, 4, 2}) {
            const int w = shrunk_side(in.width, d), h = shrunk_side(in.height, d);
            if (w < full.width || h < full.height) continue;
            const ResizeGeometry g = resize_geometry(spec_, w, h);
            if (g.width == full.width && g.height == full.height && g.x == full.x && g.y == full.y &&
                g.crop_width == full.crop_width && g.crop_height == full.crop_height)
                return d;
        }
        return 1;
    }

private:
    // The plan of a w x h input: its tables take milliseconds to make for
    // long kernels (sines, and a thumbnail's hundreds of taps), and a run
    // asks for them when it checks a file and again when it resizes it, a
    // batch of one size for every file: the last size's plan is kept.
    // (A plan is for one sample type: 16-bit images' weights are finer.)
    std::shared_ptr<const ResizePlan> plan_for(int w, int h, SampleType type = SampleType::U8) const {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!last_ || last_w_ != w || last_h_ != h || last_->type != type) {
            last_ = std::make_shared<const ResizePlan>(
                resize_plan(spec_.filter, w, h, resize_geometry(spec_, w, h), type));
            last_w_ = w;
            last_h_ = h;
        }
        return last_;
    }
    static void record(const ResizePlan& plan, RunNotes& notes) {
        notes.details.add("resized_width", plan.x.out).add("resized_height", plan.y.out);
        notes.details.add("filter_across", resize_filter_name(plan.x.filter)).add("filter_down", resize_filter_name(plan.y.filter));
        notes.info.push_back("resize: " + describe_resize(plan));
    }

    ResizeSpec spec_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const ResizePlan> last_;
    mutable int last_w_ = -1, last_h_ = -1;
};

// The geometry argument (IN OUT GEOMETRY, or 'resize 50%' in a chain).
void apply_geometry(const std::string& text, ParamValues& values) {
    for (const char* o : {"width", "height", "scale", "fit", "fill"})
        if (values.given(o))
            throw usage_error(text, std::string("give either a geometry or --") + o + ", not both");
    (void)parse_resize_geometry(text);  // checked now
    values.set("geometry", text);
}

ResizeSpec read_spec(const ParamValues& v) {
    int asked = 0;
    for (const char* o : {"geometry", "scale", "fit", "fill"}) asked += v.given(o);
    asked += v.given("width") || v.given("height");
    if (asked != 1)
        throw usage_error(asked ? "--width" : "resize",
                          std::string(asked ? "give only one of " : "give one of ") +
                              "a geometry (50%, 800x600), --width/--height, --scale, --fit or --fill");
    ResizeSpec s;
    if (v.given("geometry")) {
        try {
            s = parse_resize_geometry(v.text("geometry"));
        } catch (const Error& e) {
            throw usage_error("--geometry", e.what());
        }
    }
    if (v.given("width") || v.given("height")) {
        s.width = v.given("width") ? v.int_value("width") : 0;
        s.height = v.given("height") ? v.int_value("height") : 0;
        s.mode = s.width && s.height ? ResizeSpec::Mode::Exact : s.width ? ResizeSpec::Mode::Width : ResizeSpec::Mode::Height;
    }
    if (v.given("scale")) {
        const std::string t = v.text("scale");
        const std::size_t x = t.find('x');
        s.mode = ResizeSpec::Mode::Scale;
        s.scale_x = factor(x == std::string::npos ? t : t.substr(0, x), "--scale");
        s.scale_y = x == std::string::npos ? s.scale_x : factor(t.substr(x + 1), "--scale");
    }
    for (const char* o : {"fit", "fill"})
        if (v.given(o)) {
            const auto [w, h] = box(v.text(o), std::string("--") + o);
            s.width = w;
            s.height = h;
            s.mode = std::string(o) == "fit" ? ResizeSpec::Mode::Fit : ResizeSpec::Mode::Fill;
        }
    if (v.given("gravity") && s.mode != ResizeSpec::Mode::Fill)
        throw usage_error("--gravity", "places the crop of --fill: give it with --fill WxH");
    s.gravity = parse_gravity(v.text("gravity"), "--gravity");
    s.filter = parse_resize_filter(v.text("filter"));
    return s;
}

}  // namespace

Operation resize_operation() {
    Operation op;
    op.name = "resize";
    // The input, the rows pass's intermediate (4 bytes a sample, for the
    // output's width) and the output with its encoding: measured with
    // /usr/bin/time -v on 4096x4096 RGB halved and doubled.
    op.peak_images = 6;
    op.summary = "Resize: to a size, a scale, a box (fit or fill); antialiased";
    op.description =
        "Resamples IN to the size a geometry or the options give: 50% or 50%x25% (scale), 800x600 (the largest\n"
        "size inside the box, keeping the aspect ratio), 800x600! (exactly), 800x600^ (the smallest covering the\n"
        "box), 800x600> (only shrink), 800x600< (only enlarge), 800x or x600 (one side); or --width/--height,\n"
        "--scale, --fit WxH, --fill WxH (cover the box, then crop it: --gravity). Pixel centres are at (i + 0.5);\n"
        "output pixel j samples around (j + 0.5) x in/out. Filters: nearest, bilinear, bicubic (Catmull-Rom),\n"
        "lanczos3, area (the exact mean over each output pixel's box); auto (default) is lanczos3 on a side that\n"
        "shrinks and bicubic on one that grows. Shrinking widens the filter by the factor (antialiased). Pixels\n"
        "beyond the edge are not used: the weights of those inside are normalised. Colour is resampled\n"
        "premultiplied by alpha. The result is identical on the CPU and the GPU.";
    op.group = "Resize";
    op.params = {
        ParamSpec::integer("width", "W", "Output width; the height keeps the aspect ratio unless --height is given", 1,
                           kMaxOptionSide),
        ParamSpec::integer("height", "H", "Output height; the width keeps the aspect ratio unless --width is given", 1,
                           kMaxOptionSide),
        ParamSpec::text("scale", "S", "Scale both sides by S, or across by S and down by T", "S or SxT, each more than 0, up to 100"),
        ParamSpec::text("fit", "WxH", "The largest size inside WxH keeping the aspect ratio", "WxH, e.g. 1024x1024"),
        ParamSpec::text("fill", "WxH", "Cover WxH keeping the aspect ratio, then crop to it", "WxH, e.g. 512x512"),
        ParamSpec::choice("gravity", "G", "Which part --fill keeps", gravity_names()).defaults("center"),
        ParamSpec::choice("filter", "F", "Resampling filter", {"auto", "nearest", "bilinear", "bicubic", "lanczos3", "area"})
            .defaults("auto"),
        ParamSpec::text("geometry", "GEOMETRY", "The geometry argument as an option", "50%, 800x600, 800x600!, 800x600^, "
                                                                                      "800x600>, 800x600<, 800x, x600"),
    };
    op.extra = {"GEOMETRY", apply_geometry};
    op.examples = {{"50% lanczos3", {{"geometry", "50%"}}},
                   {"50% area", {{"geometry", "50%"}, {"filter", "area"}}},
                   {"30% area", {{"geometry", "30%"}, {"filter", "area"}}},
                   {"25% lanczos3", {{"geometry", "25%"}}},
                   {"37% bilinear", {{"geometry", "37%"}, {"filter", "bilinear"}}},
                   {"150% bicubic", {{"geometry", "150%"}, {"filter", "bicubic"}}},
                   {"width 97", {{"width", "97"}}, false},
                   {"height 61 bicubic", {{"height", "61"}, {"filter", "bicubic"}}, false},
                   {"fit 97x61 bicubic", {{"fit", "97x61"}, {"filter", "bicubic"}}, false},
                   {"fill 64x64 north", {{"fill", "64x64"}, {"gravity", "north"}}, false},
                   {"scale 2.6x1.3 auto", {{"scale", "2.6x1.3"}}, false},
                   {"1/37 area", {{"scale", "0.027"}, {"filter", "area"}}, false},
                   {"13x lanczos3", {{"scale", "13"}, {"filter", "lanczos3"}}, false},
                   {"nearest 300%x70%", {{"geometry", "300%x70%"}, {"filter", "nearest"}}, false}};
    op.usage = {{"imgpar resize photo.jpg half.jpg 50%", "Half the size, lanczos3"},
                {"imgpar resize photo.jpg small.jpg '400x400>'", "Shrink to fit 400x400 keeping the aspect ratio; never enlarge"},
                {"imgpar resize --width 320 --filter area --out-dir small photos/*.jpg",
                 "Each JPEG of photos/ 320 pixels wide, box means, into small/"}};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        return std::make_unique<ResizeJob>(read_spec(v));
    };
    return op;
}

Operation thumbnail_operation() {
    Operation op;
    op.name = "thumbnail";
    op.peak_images = 6;  // resize's (the image it decodes is at most full size)
    op.summary = "Thumbnails: fit (or fill, --crop) a box; JPEGs shrink on load; upright; ICC profile kept";
    op.description =
        "Makes a thumbnail no larger than --size WxH keeping the aspect ratio (--crop: exactly WxH, the image\n"
        "covering the box and cropped by --gravity), as vipsthumbnail does: the pixels are turned upright as the\n"
        "EXIF orientation says, a JPEG is decoded at 1/2, 1/4 or 1/8 of its size where that still holds the\n"
        "thumbnail's pixels (libjpeg-turbo's DCT scaling: shrink-on-load, -v says which), then resized exactly\n"
        "(resize's filters and arithmetic, identical on the CPU and the GPU). The metadata written is the ICC\n"
        "profile only (--keep-metadata: all of it, --strip: none). With --no-shrink-on-load every image is\n"
        "decoded whole first.";
    op.group = "Thumbnail";
    op.params = {
        ParamSpec::text("size", "WxH", "The box the thumbnail fits in (or fills, with --crop)", "WxH, e.g. 256x256")
            .defaults("128x128"),
        ParamSpec::flag("crop", "Fill the box exactly: cover it, then crop (--gravity)"),
        ParamSpec::choice("gravity", "G", "Which part --crop keeps", gravity_names()).defaults("center"),
        ParamSpec::choice("filter", "F", "Resampling filter (resize's)",
                          {"auto", "nearest", "bilinear", "bicubic", "lanczos3", "area"})
            .defaults("auto"),
        ParamSpec::flag("no-shrink-on-load", "Decode JPEGs at full size before resizing"),
        ParamSpec::flag("keep-metadata", "Keep all the metadata: EXIF (its orientation set to 1), XMP, IPTC, comments"),
    };
    op.defaults.auto_orient = true;
    op.defaults.icc_only = true;
    op.examples = {{"256x256", {{"size", "256x256"}}},
                   {"64x64 crop north", {{"size", "64x64"}, {"crop", ""}, {"gravity", "north"}}, false},
                   {"31x17 area", {{"size", "31x17"}, {"filter", "area"}}, false}};
    op.usage = {{"imgpar thumbnail photo.jpg thumb.jpg", "At most 128x128, upright, its ICC profile kept"},
                op.shown("256x256", "photo.jpg thumb.jpg", "At most 256x256"),
                {"imgpar thumbnail --size 200x200 --crop -o 'thumbs/{stem}.jpg' photos/*.jpg",
                 "Exactly 200x200 (cropped to fill), each JPEG of photos/ as thumbs/NAME.jpg"}};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        ResizeSpec s;
        const auto [w, h] = box(v.text("size"), "--size");
        s.width = w;
        s.height = h;
        s.mode = v.flag("crop") ? ResizeSpec::Mode::Fill : ResizeSpec::Mode::Fit;
        if (v.given("gravity") && !v.flag("crop"))
            throw usage_error("--gravity", "places the crop of --crop: give it with --crop");
        s.gravity = parse_gravity(v.text("gravity"), "--gravity");
        s.filter = parse_resize_filter(v.text("filter"));
        s.shrink_on_load = !v.flag("no-shrink-on-load");
        return std::make_unique<ResizeJob>(s);
    };
    return op;
}

}  // namespace imgpar
