// The declarations of the convolution commands: parameters, help, examples,
// and the plan each one makes (make_* validate). No pixel arithmetic here.
#include "src/ops/filter_ops.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "src/error.hpp"
#include "src/report/filter_report.hpp"

namespace imgpar {

std::string FilterJob::describe() const { return plan_.describe(); }
JsonObject FilterJob::details() const { return filter_json(plan_); }

ImageU8 FilterJob::run_cpu(ConstViewU8 src, RunNotes& notes) const {
    notes.kernel = cpu::filter_kernel_name(plan_, src.channels);
    return cpu::apply_filter(plan_, src);
}

void FilterJob::run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const {
    gpu::apply_filter(session, plan_, src, dst, &notes.kernel);
}

ImageU16 FilterJob::run_cpu(ConstViewU16 src, RunNotes& notes) const {
    notes.kernel = cpu::filter_kernel_name_u16(plan_, src.channels);
    return cpu::apply_filter(plan_, src);
}

void FilterJob::run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const {
    gpu::apply_filter(session, plan_, src, dst, &notes.kernel);
}

namespace {

const char* const kFilterGroup = "Filter";

ParamSpec border_param() {
    return ParamSpec::text("border", "RULE", "Samples outside the image",
                           "replicate, reflect, reflect101, wrap or constant[:V] (V 0 to 255)")
        .defaults("replicate")
        .suggesting({"replicate", "reflect", "reflect101", "wrap", "constant"});
}
Border border(const ParamValues& v) { return parse_border(v.text("border")); }

ParamSpec sigma_param(const char* help, const char* default_value) {
    return ParamSpec::real("sigma", "S", help, 0.0, kMaxSigma).above(0.0).defaults(default_value);
}
ParamSpec radius_param(const char* help) {
    return ParamSpec::integer("radius", "R", help, 0, kMaxGaussianRadius).defaults("0").noting("0 = ceil(3 x sigma)");
}

template <typename MakePlan>
std::function<std::unique_ptr<ImageJob>(const ParamValues&)> filter_job(MakePlan make) {
    return [make](const ParamValues& v) -> std::unique_ptr<ImageJob> { return std::make_unique<FilterJob>(make(v)); };
}

// ImageMagick's geometry "RADIUSxSIGMA", e.g. 0x2: radius 0 means automatic.
void apply_geometry(const std::string& g, ParamValues& v) {
    if (v.given("sigma") || v.given("radius"))
        throw usage_error(g, "give either a geometry or --sigma/--radius, not both");
    // Both parts strictly decimal: "0x0x2" is not 0 x (hex) 2.
    const auto x = g.find('x');
    const std::string radius = x == std::string::npos ? g : g.substr(0, x);
    const std::string sigma = x == std::string::npos ? std::string() : g.substr(x + 1);
    const bool digits = !radius.empty() && radius.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || !parse_decimal(sigma))
        throw usage_error(g, "is not a geometry RADIUSxSIGMA (for example 0x2 or 5x1.5)");
    try {
        v.set("radius", radius);
        v.set("sigma", sigma);
    } catch (const Error& e) {
        throw usage_error(g, std::string("as RADIUSxSIGMA: ") + e.what());
    }
}

// A deterministic non-separable n x n kernel of small integers of both signs
// with a larger centre: what the examples (and so the benchmark) convolve with.
std::string test_kernel_text(int n) {
    std::string s;
    for (int j = 0; j < n; ++j) {
        if (j > 0) s += "; ";
        for (int i = 0; i < n; ++i) {
            const int v = i == n / 2 && j == n / 2 ? 4 * n : (i * 7 + j * 3 + i * j) % 5 - 1;
            s += (i > 0 ? " " : "") + std::to_string(v);
        }
    }
    return s;
}

}  // namespace

Operation blur_operation() {
    Operation op;
    op.name = "blur";
    op.peak_images = 5;  // measured: RGBA 5.0, RGB and gray 4.0
    op.summary = "Gaussian blur";
    op.description =
        "Blurs IN with a Gaussian of standard deviation --sigma (radius ceil(3 sigma) unless --radius) and\n"
        "writes OUT. The optional third argument is ImageMagick's geometry RADIUSxSIGMA, e.g. 0x2.\n"
        "The kernel is separable, in 12-bit fixed point summing exactly to one; the result is identical on\n"
        "the CPU and the GPU. Images with alpha are filtered premultiplied, so transparent areas do not\n"
        "bleed dark halos into opaque ones.";
    op.group = kFilterGroup;
    op.params = {sigma_param("Standard deviation in pixels", "2"), radius_param("Kernel radius"), border_param()};
    op.extra = {"RADIUSxSIGMA", apply_geometry};
    op.examples = {{"sigma=1", {{"sigma", "1"}}},
                   {"sigma=2", {}},
                   {"sigma=5", {{"sigma", "5"}}},
                   {"sigma=10", {{"sigma", "10"}}},
                   {"sigma=20", {{"sigma", "20"}}},
                   // The plans the register-chained kernel leaves to the general fallback.
                   {"sigma=0.5", {{"sigma", "0.5"}}},
                   {"sigma=25", {{"sigma", "25"}}},
                   {"sigma=0.5 reflect101", {{"sigma", "0.5"}, {"border", "reflect101"}}, false},
                   {"sigma=25 constant:40", {{"sigma", "25"}, {"border", "constant:40"}}, false},
                   {"sigma=3 radius=2 wrap", {{"sigma", "3"}, {"radius", "2"}, {"border", "wrap"}}, false}};
    op.usage = {{"imgpar blur photo.jpg soft.jpg 0x3", "Sigma 3; radius 0 is ceil(3 x sigma) = 9"},
                op.shown("sigma=0.5 reflect101", "scan.png soft.png", "A slight blur, mirroring the edge pixels"),
                {"imgpar blur --sigma 5 --out-dir soft photos/*.jpg", "Each JPEG of photos/ into soft/ by its own name"}};
    op.make_image_job = filter_job(
        [](const ParamValues& v) { return make_gaussian(v.real("sigma"), v.int_value("radius"), border(v)); });
    return op;
}

Operation box_operation() {
    Operation op;
    op.name = "box";
    op.peak_images = 7;  // measured: RGBA 7.0, RGB and gray 6.0
    op.summary = "Box (mean) filter";
    op.description =
        "Replaces each sample by the mean of the (2R+1)x(2R+1) square around it (rounded to nearest).\n"
        "Running sums make the cost independent of the radius. Alpha is handled as for blur.";
    op.group = kFilterGroup;
    op.params = {ParamSpec::integer("radius", "R", "Window radius, the mean of a (2R+1)x(2R+1) square", 1, kMaxBoxRadius)
                     .defaults("1"),
                 border_param()};
    op.examples = {{"radius=15", {{"radius", "15"}}},
                   {"radius=50", {{"radius", "50"}}},
                   {"radius=1 reflect", {{"border", "reflect"}}, false}};
    op.usage = {op.shown("radius=15", "photo.jpg mean.jpg", "The mean of each 31x31 square"),
                op.shown("radius=1 reflect", "scan.png smooth.png", "3x3 means, mirroring the image at its edges"),
                {"imgpar box --radius 3 -o 'box/{stem}.png' photos/*.jpg", "Each JPEG of photos/ as box/NAME.png"}};
    op.make_image_job = filter_job([](const ParamValues& v) { return make_box(v.int_value("radius"), border(v)); });
    return op;
}

Operation sharpen_operation() {
    Operation op;
    op.name = "sharpen";
    op.peak_images = 5;  // measured: RGBA 4.5, RGB and gray 4.0
    op.summary = "Unsharp mask";
    op.description =
        "Sharpens by adding back --amount times the difference between the image and its Gaussian blur,\n"
        "where twice that difference is at least --threshold x 255 (ImageMagick's -unsharp rule and defaults:\n"
        "0x1+1+0.05).\n"
        "Alpha is kept unchanged.";
    op.group = kFilterGroup;
    op.params = {sigma_param("Blur sigma of the unsharp mask", "1"), radius_param("Blur radius"),
                 ParamSpec::real("amount", "A", "How much of the difference to add back", 0.0, kMaxUnsharpAmount)
                     .defaults("1"),
                 ParamSpec::real("threshold", "T",
                                 "Leave samples alone where 2 x |image - blur| is below this fraction of full scale", 0.0,
                                 1.0)
                     .defaults("0.05"),
                 border_param()};
    op.examples = {{"sigma=1 amount=1 threshold=0.05", {}},
                   {"sigma=3 amount=2.5 threshold=0", {{"sigma", "3"}, {"amount", "2.5"}, {"threshold", "0"}}, false}};
    op.usage = {{"imgpar sharpen photo.jpg sharp.jpg", "ImageMagick's -unsharp 0x1+1+0.05 (the defaults)"},
                op.shown("sigma=3 amount=2.5 threshold=0", "photo.jpg sharp.jpg",
                         "A wider, stronger mask that sharpens every sample"),
                {"imgpar sharpen --amount 0.5 --out-dir sharp photos/*.jpg", "Half strength, each JPEG of photos/ into sharp/"}};
    op.make_image_job = filter_job([](const ParamValues& v) {
        return make_unsharp(v.real("sigma"), v.int_value("radius"), v.real("amount"), v.real("threshold"), border(v));
    });
    return op;
}

Operation edges_operation() {
    Operation op;
    op.name = "edges";
    op.peak_images = 4;  // measured: RGBA 3.7, RGB 3.6, gray 3.0
    op.summary = "Edge magnitude (Sobel, Scharr, Laplacian)";
    op.description =
        "Writes the gradient magnitude per channel, or of luma with --gray:\n"
        "  sobel:     sqrt(gx^2 + gy^2) / 4,  scharr: sqrt(gx^2 + gy^2) / 16,  laplacian: |4-neighbour L|\n"
        "rounded and clipped to 255. Alpha is kept unchanged.";
    op.group = kFilterGroup;
    op.params = {ParamSpec::choice("op", "OP", "Operator", {"sobel", "scharr", "laplacian"}).defaults("sobel"),
                 ParamSpec::flag("gray", "Compute on luma (Rec. 601) and write a gray image (alpha kept)"),
                 border_param()};
    op.examples = {{"sobel", {}},
                   {"scharr gray", {{"op", "scharr"}, {"gray", ""}}, false},
                   {"laplacian constant:0", {{"op", "laplacian"}, {"border", "constant:0"}}, false}};
    op.usage = {{"imgpar edges scan.png edges.png", "The Sobel magnitude"},
                op.shown("scharr gray", "photo.jpg edges.png", "Scharr on luma: a gray image of a colour photo"),
                op.shown("laplacian constant:0", "scan.png laplacian.png", "The Laplacian, black beyond the edges")};
    op.make_image_job = filter_job([](const ParamValues& v) {
        return make_edges(parse_edge_operator(v.text("op")), v.flag("gray"), border(v));
    });
    return op;
}

Operation convolve_operation() {
    Operation op;
    op.name = "convolve";
    op.peak_images = 4;  // measured: RGBA 4.0, RGB 3.6, gray 3.0
    op.summary = "Custom kernel (correlation, or convolution with --flip)";
    op.description =
        "Filters IN with a custom kernel up to 63x63. This is CORRELATION, like OpenCV's filter2D and\n"
        "ImageMagick's -convolve: coefficient (i, j) weights the sample at offset (i - w/2, j - h/2). Use --flip\n"
        "for true convolution. Result = round(sum / scale + offset), clipped to 0..255. Coefficients may be\n"
        "fractional; they are used in fixed point (exact for integers and multiples of 1/4096).";
    op.group = kFilterGroup;
    op.params = {
        ParamSpec::text("kernel", "TEXT", "Kernel rows separated by ';' (or new lines), values by spaces or commas",
                        "e.g. \"1 2 1; 2 4 2; 1 2 1\", each side 1 to 63"),
        ParamSpec::path("kernel-file", "FILE",
                        "Kernel in libvips matrix format: a line 'width height [scale [offset]]', then the rows"),
        ParamSpec::flag("normalize", "Divide by the sum of the coefficients (so a smoothing kernel keeps brightness)"),
        ParamSpec::real("scale", "S", "Divide the weighted sum by S (default 1, or the file's scale); not 0"),
        ParamSpec::real("offset", "O", "Add O after scaling (default 0, or the file's offset)"),
        ParamSpec::flag("flip", "Rotate the kernel 180 degrees: true convolution instead of correlation"),
        border_param()};
    op.examples = {{"5x5 non-separable", {{"kernel", test_kernel_text(5)}, {"normalize", ""}}},
                   {"15x15 non-separable", {{"kernel", test_kernel_text(15)}, {"normalize", ""}}},
                   {"3x3 fractional flip offset", {{"kernel", "0.1 0.2 0.3; -0.4 1.7 0; 0.33 0 0"}, {"flip", ""},
                                                   {"offset", "12.5"}, {"border", "wrap"}}, false}};
    op.usage = {{"imgpar convolve --kernel '1 2 1; 2 4 2; 1 2 1' --normalize photo.jpg smooth.jpg",
                 "A 3x3 binomial blur: the kernel divided by its sum, 16"},
                {"imgpar convolve --kernel '0 -1 0; -1 5 -1; 0 -1 0' scan.png sharp.png", "Sharpen with a 3x3 kernel"},
                {"imgpar convolve --kernel '-1 0 1' --offset 128 scan.png gradient.png",
                 "The horizontal gradient, 128 where it is 0"}};
    op.make_image_job = filter_job([](const ParamValues& v) {
        const bool text = v.given("kernel"), file = v.given("kernel-file");
        if (text == file) throw usage_error("--kernel", "give exactly one of --kernel or --kernel-file");
        CustomKernelOptions opt;
        opt.normalize = v.flag("normalize");
        opt.scale = v.optional_real("scale");
        opt.offset = v.optional_real("offset");
        opt.flip = v.flag("flip");
        const Border b = border(v);
        const KernelMatrix k = text ? parse_kernel_text(v.text("kernel")) : parse_kernel_file(v.text("kernel-file"));
        return make_custom(k, opt, b);
    });
    return op;
}

}  // namespace imgpar
