// The convolution commands: blur, box, sharpen, edges, convolve. Each turns
// its options into a FilterPlan (which validates them) and hands it to the
// shared IN -> OUT runner; no image math here.
#include <cmath>
#include <cstdlib>

#include "cli/command.hpp"
#include "cli/image_op.hpp"
#include "src/error.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/filter_backend.hpp"
#include "src/report/filter_report.hpp"

namespace imgpar::cli {
namespace {

void add_border_option(cxxopts::Options& options) {
    options.add_options("Filter")(
        "border", "Samples outside the image: replicate, reflect, reflect101, wrap, constant[:V]",
        cxxopts::value<std::string>()->default_value("replicate"), "RULE");
}

Border read_border(const Invocation& inv) { return parse_border(inv.args["border"].as<std::string>()); }

int run_plan(Invocation& inv, const FilterPlan& plan) {
    ImageOp op;
    op.description = plan.describe();
    op.details = filter_json(plan);
    op.run = [plan](ConstViewU8 in, const BackendChoice& backend, JsonObject&, std::string& kernel) {
        return apply_filter(plan, in, backend, kernel);
    };
    return run_image_op(inv, std::move(op));
}

// ImageMagick geometry "RxS" (radius x sigma), e.g. 0x2: radius 0 means automatic.
void apply_geometry(const std::string& g, int& radius, double& sigma) {
    auto x = g.find('x');
    bool ok = x != std::string::npos && x > 0 && x + 1 < g.size();
    char* end = nullptr;
    long r = ok ? std::strtol(g.c_str(), &end, 10) : -1;
    ok = ok && end == g.c_str() + x && r >= 0 && r <= 100000;
    double s = ok ? std::strtod(g.c_str() + x + 1, &end) : 0.0;
    ok = ok && *end == '\0' && std::isfinite(s);
    if (!ok) throw usage_error(g, "is not a geometry RADIUSxSIGMA (for example 0x2 or 5x1.5)");
    radius = static_cast<int>(r);
    sigma = s;
}

// --- blur ---------------------------------------------------------------
void blur_options(cxxopts::Options& o) {
    o.add_options("Filter")
        ("sigma", "Standard deviation in pixels, 0 < S <= 50", cxxopts::value<double>()->default_value("2"), "S")
        ("radius", "Kernel radius; 0 = ceil(3 x sigma); at most 150", cxxopts::value<int>()->default_value("0"), "R");
    add_border_option(o);
    add_image_op_options(o);
}
int blur_run(Invocation& inv) {
    double sigma = inv.args["sigma"].as<double>();
    int radius = inv.args["radius"].as<int>();
    if (inv.positionals.size() == 3) {
        if (inv.args.count("sigma") || inv.args.count("radius"))
            throw usage_error(inv.positionals[2], "give either a geometry or --sigma/--radius, not both");
        apply_geometry(inv.positionals[2], radius, sigma);
    }
    return run_plan(inv, make_gaussian(sigma, radius, read_border(inv)));
}

// --- box ----------------------------------------------------------------
void box_options(cxxopts::Options& o) {
    o.add_options("Filter")("radius", "Window radius: the mean of a (2R+1)x(2R+1) square, 1 <= R <= 1000",
                            cxxopts::value<int>()->default_value("1"), "R");
    add_border_option(o);
    add_image_op_options(o);
}
int box_run(Invocation& inv) { return run_plan(inv, make_box(inv.args["radius"].as<int>(), read_border(inv))); }

// --- sharpen ------------------------------------------------------------
void sharpen_options(cxxopts::Options& o) {
    o.add_options("Filter")
        ("sigma", "Blur sigma of the unsharp mask, 0 < S <= 50", cxxopts::value<double>()->default_value("1"), "S")
        ("radius", "Blur radius; 0 = ceil(3 x sigma)", cxxopts::value<int>()->default_value("0"), "R")
        ("amount", "How much of the difference to add back, 0 to 20", cxxopts::value<double>()->default_value("1"), "A")
        ("threshold", "Leave samples alone where |image - blur| is below this fraction of full scale, 0 to 1",
         cxxopts::value<double>()->default_value("0.05"), "T");
    add_border_option(o);
    add_image_op_options(o);
}
int sharpen_run(Invocation& inv) {
    return run_plan(inv, make_unsharp(inv.args["sigma"].as<double>(), inv.args["radius"].as<int>(),
                                      inv.args["amount"].as<double>(), inv.args["threshold"].as<double>(),
                                      read_border(inv)));
}

// --- edges --------------------------------------------------------------
void edges_options(cxxopts::Options& o) {
    o.add_options("Filter")
        ("op", "Operator: sobel, scharr or laplacian", cxxopts::value<std::string>()->default_value("sobel"), "OP")
        ("gray", "Compute on luma (Rec. 601) and write a gray image (alpha kept)");
    add_border_option(o);
    add_image_op_options(o);
}
int edges_run(Invocation& inv) {
    return run_plan(inv, make_edges(parse_edge_operator(inv.args["op"].as<std::string>()), inv.args.count("gray") > 0,
                                    read_border(inv)));
}

// --- convolve -----------------------------------------------------------
void convolve_options(cxxopts::Options& o) {
    o.add_options("Filter")
        ("kernel", "Kernel rows separated by ';', values by spaces: \"1 2 1; 2 4 2; 1 2 1\"",
         cxxopts::value<std::string>(), "TEXT")
        ("kernel-file", "Kernel in libvips matrix format: a line 'width height [scale [offset]]', then the rows",
         cxxopts::value<std::string>(), "FILE")
        ("normalize", "Divide by the sum of the coefficients (so a smoothing kernel keeps brightness)")
        ("scale", "Divide the weighted sum by S (default 1, or the file's scale)", cxxopts::value<double>(), "S")
        ("offset", "Add O after scaling (default 0, or the file's offset)",
         cxxopts::value<double>(), "O")
        ("flip", "Rotate the kernel 180 degrees: true convolution instead of correlation");
    add_border_option(o);
    add_image_op_options(o);
}
int convolve_run(Invocation& inv) {
    bool text = inv.args.count("kernel") > 0;
    bool file = inv.args.count("kernel-file") > 0;
    if (text == file) throw usage_error("--kernel", "give exactly one of --kernel or --kernel-file");
    CustomKernelOptions opt;
    opt.normalize = inv.args.count("normalize") > 0;
    if (inv.args.count("scale")) opt.scale = inv.args["scale"].as<double>();
    if (inv.args.count("offset")) opt.offset = inv.args["offset"].as<double>();
    opt.flip = inv.args.count("flip") > 0;
    Border border = read_border(inv);
    KernelMatrix k = text ? parse_kernel_text(inv.args["kernel"].as<std::string>())
                          : parse_kernel_file(inv.args["kernel-file"].as<std::string>());
    return run_plan(inv, make_custom(k, opt, border));
}

}  // namespace

Command blur_command() {
    return {"blur", "Gaussian blur", "IN OUT [RxS]",
            "Blurs IN with a Gaussian of standard deviation --sigma (radius ceil(3 sigma) unless --radius) and\n"
            "writes OUT. The optional third argument is ImageMagick's geometry RADIUSxSIGMA, e.g. 0x2.\n"
            "The kernel is separable, in 12-bit fixed point summing exactly to one; the result is identical on\n"
            "the CPU and the GPU. Images with alpha are filtered premultiplied, so transparent areas do not\n"
            "bleed dark halos into opaque ones.",
            2, 3, blur_options, blur_run};
}
Command box_command() {
    return {"box", "Box (mean) filter", "IN OUT",
            "Replaces each sample by the mean of the (2R+1)x(2R+1) square around it (rounded to nearest).\n"
            "Running sums make the cost independent of the radius. Alpha is handled as for blur.",
            2, 2, box_options, box_run};
}
Command sharpen_command() {
    return {"sharpen", "Unsharp mask", "IN OUT",
            "Sharpens by adding back --amount times the difference between the image and its Gaussian blur,\n"
            "where that difference is at least --threshold (ImageMagick's -unsharp defaults: 0x1+1+0.05).\n"
            "Alpha is kept unchanged.",
            2, 2, sharpen_options, sharpen_run};
}
Command edges_command() {
    return {"edges", "Edge magnitude (Sobel, Scharr, Laplacian)", "IN OUT",
            "Writes the gradient magnitude per channel, or of luma with --gray:\n"
            "  sobel:     sqrt(gx^2 + gy^2) / 4,  scharr: sqrt(gx^2 + gy^2) / 16,  laplacian: |4-neighbour L|\n"
            "rounded and clipped to 255. Alpha is kept unchanged.",
            2, 2, edges_options, edges_run};
}
Command convolve_command() {
    return {"convolve", "Custom kernel (correlation, or convolution with --flip)", "IN OUT",
            "Filters IN with a custom kernel up to 63x63. This is CORRELATION, like OpenCV's filter2D and\n"
            "ImageMagick's -convolve: coefficient (i, j) weights the sample at offset (i - w/2, j - h/2). Use --flip\n"
            "for true convolution. Result = round(sum / scale + offset), clipped to 0..255. Coefficients may be\n"
            "fractional; they are used in fixed point (exact for integers and multiples of 1/4096).",
            2, 2, convolve_options, convolve_run};
}

}  // namespace imgpar::cli
