// The declarations of the histogram commands: histo (a report), equalize and
// threshold (images). No counting or pixel arithmetic here: that is
// src/ops/histogram.cpp, equalize.cpp, threshold.cpp and cuda/histogram*.cu.
#include "src/ops/histogram_ops.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/io/same_file.hpp"
#include "src/io/save.hpp"
#include "src/ops/adaptive_ops.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"
#include "src/report/histogram_plot.hpp"
#include "src/report/histogram_report.hpp"
#include "src/report/text_charset.hpp"

namespace imgpar {
namespace {

std::string threads_text() {
    return std::to_string(cpu_thread_count()) + " thread" + (cpu_thread_count() == 1 ? "" : "s");
}

// --- histo ---------------------------------------------------------------------

class HistoJob final : public ReportJob {
public:
    explicit HistoJob(const ParamValues& v) : channel_spec_(v.text("channel")) {
        report_.bins = v.int_value("bins");
        // A power of two up to 65536 here; an 8-bit image also needs it to
        // divide 256 (checked per file: the depth is the file's).
        check_histogram_bins16(report_.bins);
        // An empty list is a mistake (a variable that was not set), not "all".
        if (channel_spec_.find_first_not_of(" \t") == std::string::npos)
            throw usage_error("--channel", "is empty (give all, or a comma-separated list of channels)");
        check_histogram_channels(channel_spec_);
        report_.list_bins = v.flag("list") || v.given("bins");
        report_.ascii = v.flag("ascii") || !environment_is_utf8();
        parse_plot_size(v.text("plot-size"), plot_);
        plot_.bins = std::min(report_.bins, kHistogramValues);
        plot_.log_scale = v.flag("log");
        check_plot_options(plot_);
        if (v.given("plot")) {
            plot_path_ = v.text("plot");
            if (*plot_path_ == "-")
                throw usage_error("--plot", "cannot write to standard output, which carries the report: name a file "
                                            "(.png, .jpg or .bmp)");
            output_format(*plot_path_, std::nullopt);
        }
    }

    void check_inputs(const std::vector<std::string>& inputs) const override {
        if (!plot_path_) return;
        if (inputs.size() != 1) throw usage_error("--plot", "draws one histogram: give exactly one input");
        // histo only reads its inputs: a plot written onto one would replace the photo.
        if (inputs[0] != "-" && same_file(*plot_path_, inputs[0]))  // (--plot - is refused above)
            throw usage_error("--plot", "'" + *plot_path_ + "' is the input " + inputs[0] +
                                            ": histo never replaces its inputs; choose another file for the plot");
    }

    std::string csv_header() const override { return histogram_csv_header(); }
    std::string json_schema() const override { return kHistogramJsonSchema; }

    // The count alone: the planes --channel names are a real file's to have.
    void probe_cpu(ConstViewU8 image) const override { (void)cpu::histogram(image, true); }

    std::string run_cpu(const ReportSource& source, ConstViewU8 image, ReportFormat format,
                        RunNotes& notes) const override {
        check_bins_u8(source.file);
        notes.kernel = cpu::histogram_kernel_name();
        return render(source, cpu::histogram(image, true), image.width, image.height, format, notes);
    }
    std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU8 image,
                        ReportFormat format, RunNotes& notes) const override {
        check_bins_u8(source.file);
        const Histogram h = gpu::histogram(session, image, true, &notes.kernel);
        return render(source, h, image.width, image.height, format, notes);
    }

    // 16-bit images: exact 65,536-value counts, reported in report_.bins bins.
    bool takes_u16() const override { return true; }
    std::string run_cpu(const ReportSource& source, ConstViewU16 image, ReportFormat format,
                        RunNotes& notes) const override {
        notes.kernel = cpu::histogram_kernel_name() + ", 65536 values";
        return render(source, cpu::histogram(image, true), image.width, image.height, format, notes);
    }
    std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU16 image,
                        ReportFormat format, RunNotes& notes) const override {
        const Histogram16 h = gpu::histogram(session, image, true, &notes.kernel);
        return render(source, h, image.width, image.height, format, notes);
    }

private:
    void check_bins_u8(const std::string& file) const {
        if (kHistogramValues % report_.bins != 0)
            throw input_error(file, "--bins " + std::to_string(report_.bins) +
                                        ": an 8-bit image has 256 values; use a power of two up to 256");
    }

    // The plot is of 256 values: a 16-bit histogram is drawn by its top 8
    // bits (bins of 256 values), its value axis labelled in 16-bit values.
    static Histogram plot_counts(const Histogram& h) { return h; }
    static Histogram plot_counts(const Histogram16& h) {
        Histogram out = h.layout();
        for (int p = 0; p < h.planes(); ++p) {
            const std::uint64_t* c = h.plane(p);
            for (int v = 0; v < kHistogramValues16; ++v) out.counts[static_cast<std::size_t>(p)][static_cast<std::size_t>(v >> 8)] += c[v];
        }
        return out;
    }

    template <typename H>
    std::string render(const ReportSource& source, const H& h, int width, int height, ReportFormat format,
                       RunNotes& notes) const {
        HistogramReportOptions report = report_;
        report.planes = planes_of(source.file, layout_of(h));
        HistogramSource src{source.file, width, height, source.backend, notes.kernel};
        src.extra = source.extra;
        if (plot_path_) {
            HistogramPlotOptions plot = plot_;
            plot.planes = report.planes;
            plot.value_bits = std::is_same_v<H, Histogram16> ? 16 : 8;
            const ImageU8 picture = plot_histogram(plot_counts(h), plot);
            std::vector<std::string> warnings;
            save_image(*plot_path_, picture.view(), {}, warnings);
            for (const std::string& w : warnings) notes.warnings.push_back(*plot_path_ + ": " + w);
        }
        switch (format) {
            case ReportFormat::Csv: return histogram_csv_rows(src, h, report);
            case ReportFormat::Json: return histogram_json(src, h, report);
            case ReportFormat::Text: break;
        }
        return histogram_text(src, h, report);
    }

    // The --channel planes of this file. A name valid for some images but
    // not this one ("red" of a gray file) fails this file only, as a file
    // that cannot be decoded does: the others are still counted.
    std::vector<int> planes_of(const std::string& file, const Histogram& h) const {
        try {
            return select_histogram_planes(h, channel_spec_);
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Usage) throw;
            throw input_error(file, "--channel: " + e.reason());
        }
    }

    static const Histogram& layout_of(const Histogram& h) { return h; }
    static Histogram layout_of(const Histogram16& h) { return h.layout(); }

    std::string channel_spec_;
    HistogramReportOptions report_;
    std::optional<std::string> plot_path_;
    HistogramPlotOptions plot_;
};

// --- equalize ------------------------------------------------------------------

class EqualizeJob final : public ImageJob {
public:
    explicit EqualizeJob(EqualizeMode mode) : mode_(mode) {}
    std::string describe() const override {
        return std::string("histogram equalization, mode ") + equalize_mode_name(mode_);
    }
    JsonObject details() const override {
        JsonObject o;
        o.add("mode", equalize_mode_name(mode_));
        return o;
    }
    // u16 in, u16 out.
    ImageShape output_shape(const ImageShape& in) const override { return {in.width, in.height, in.channels, in.type}; }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override {
        notes.kernel = "histogram, lookup table and apply pass, " + threads_text();
        return cpu::equalize(src, mode_);
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override {
        gpu::equalize(session, src, dst, mode_, &notes.kernel);
    }
    // 16-bit images: 65,536 levels (src/ops/equalize.hpp, 16-BIT CONTRACT).
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override {
        notes.kernel = "16-bit histogram, 65536-entry lookup table and apply pass, " + threads_text();
        return cpu::equalize(src, mode_);
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override {
        gpu::equalize(session, src, dst, mode_, &notes.kernel);
    }

private:
    EqualizeMode mode_;
};

// --- threshold -----------------------------------------------------------------

class ThresholdJob final : public ImageJob {
public:
    explicit ThresholdJob(ThresholdSpec spec) : spec_(spec) {}
    std::string describe() const override {
        return spec_.otsu ? "threshold, Otsu's level" : "threshold at " + std::to_string(spec_.value);
    }
    JsonObject details() const override {
        JsonObject o;
        o.add("method", spec_.otsu ? "otsu" : "value");
        return o;
    }
    // u16 in, u16 out (0 / 65535).
    ImageShape output_shape(const ImageShape& in) const override {
        return {in.width, in.height, threshold_output_channels(in.channels), in.type};
    }
    // Measured: gray 2.0, RGB 1.9, RGBA 1.5 (the operation declares --adaptive's).
    std::optional<double> peak_images() const override { return 2.0; }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override {
        notes.kernel = std::string(spec_.otsu ? "intensity histogram, Otsu's level, apply pass, " : "apply pass, ") +
                       threads_text();
        ThresholdResult r = cpu::threshold(src, spec_);
        record(r.threshold, notes);
        return std::move(r.image);
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override {
        record(gpu::threshold(session, src, dst, spec_, &notes.kernel), notes);
    }
    // 16-bit images: the level in 0..65535, Otsu over 65,536 values
    // (src/ops/threshold.hpp, 16-BIT CONTRACT).
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override {
        notes.kernel = std::string(spec_.otsu ? "16-bit intensity histogram, Otsu's level, apply pass, " : "apply pass, ") +
                       threads_text();
        ImageU16 out(src.width, src.height, threshold_output_channels(src.channels));
        record(cpu::threshold(src, out.view(), spec_), notes);
        return out;
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override {
        record(gpu::threshold(session, src, dst, spec_, &notes.kernel), notes);
    }

private:
    static void record(int level, RunNotes& notes) {
        notes.details.add("threshold", level);
        notes.info.push_back("threshold level " + std::to_string(level));
    }
    ThresholdSpec spec_;
};

}  // namespace

Operation histo_operation() {
    Operation op;
    op.name = "histo";
    op.peak_images = 1;  // measured: 1.0 (the decoded image)
    op.summary = "Histograms: per channel and luma, as text, CSV, JSON or a plot";
    op.description =
        "Counts every channel's 256 values (and luma, Rec. 601: (77 R + 150 G + 29 B + 128) >> 8, for colour\n"
        "images). Text output summarises each plane: count, min, max, mean, standard deviation, median (lower),\n"
        "mode (smallest on ties) and a bar rendering; --csv prints one row per bin; --json one object per\n"
        "input (JSON Lines for several inputs). --plot draws the histogram as an image. A file that fails is\n"
        "reported on stderr and the others are still processed; the exit code is then 1.";
    op.group = "Histogram";
    op.kind = OperationKind::ImagesToReport;
    op.params = {
        ParamSpec::integer("bins", "N", "Number of equal bins over the image's values (0..255, or 0..65535)", 1,
                           kHistogramValues16)
            .defaults("256")
            .noting("N must divide 256 for 8-bit images; a power of two up to 65536 for 16-bit ones (65536: every "
                    "value)"),
        ParamSpec::text("channel", "LIST", "Planes to report",
                        "all, or a comma-separated list of gray, red, green, blue, alpha, luma (or r, g, b, a, l, or "
                        "plane indices)")
            .defaults("all")
            .suggesting({"all", "gray", "red", "green", "blue", "alpha", "luma"}),
        ParamSpec::flag("list", "Text output: also list every bin's count (implied by --bins)")
            .unused_beside({"json", "csv"}),
        ParamSpec::flag("ascii", "Text output: draw bars with ASCII, not Unicode blocks (the default where the "
                                 "locale's character set is not UTF-8)")
            .unused_beside({"json", "csv"}),
        ParamSpec::path("plot", "OUT", "Also draw the histogram into this image (PNG/JPEG/BMP); one input only"),
        ParamSpec::text("plot-size", "WxH", "Plot size", "width 160 to 8192 x height 100 to 8192")
            .defaults("512x300")
            .only_with({"plot"}),
        ParamSpec::flag("log", "Plot counts on a logarithmic scale").only_with({"plot"})};
    op.examples = {{"256 bins", {}}, {"16 bins, listed", {{"bins", "16"}, {"list", ""}}, false}};
    op.usage = {{"imgpar histo photo.jpg", "Each channel's and luma's summary, with bars"},
                op.shown("16 bins, listed", "scan.png", "16 bins of 16 values, every count listed"),
                {"imgpar histo --plot histogram.png --log photo.jpg", "Also drawn as an image, counts on a log scale"}};
    op.make_report_job = [](const ParamValues& v) -> std::unique_ptr<ReportJob> { return std::make_unique<HistoJob>(v); };
    return op;
}

Operation equalize_operation() {
    Operation op;
    op.name = "equalize";
    op.peak_images = 2;  // measured: 2.0
    op.summary = "Histogram equalization";
    op.description =
        "Spreads the intensities over the full range: histogram -> cumulative distribution -> lookup table.\n"
        "Gray images are equalized directly. Colour images (default --mode luma) have their luma equalized and\n"
        "each of R, G, B shifted by the same amount, which keeps hue; --mode channels equalizes each colour\n"
        "channel on its own. Alpha is never changed.";
    op.group = "Equalize";
    op.params = {ParamSpec::choice("mode", "MODE", "luma: equalize luma and keep colour; channels: each colour "
                                                   "channel on its own",
                                   {"luma", "channels"})
                     .defaults("luma")};
    op.examples = {{"luma", {}}, {"channels", {{"mode", "channels"}}}};
    op.usage = {{"imgpar equalize scan.png equalized.png", "A gray image's histogram spread over 0 to 255"},
                op.shown("channels", "photo.jpg equalized.jpg", "Each colour channel on its own (hue may shift)"),
                {"imgpar equalize --out-dir equalized photos/*.jpg", "Luma of each JPEG of photos/, into equalized/"}};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        return std::make_unique<EqualizeJob>(parse_equalize_mode(v.text("mode")));
    };
    return op;
}

Operation threshold_operation() {
    Operation op;
    op.name = "threshold";
    // --adaptive: the image, its intensity plane and the two u64 tables (16
    // bytes a pixel) of a gray image: 19. A fixed or Otsu's level needs 2
    // (ThresholdJob::peak_images).
    op.peak_images = 19;
    op.summary = "Binary threshold (fixed, Otsu or adaptive)";
    op.description =
        "Writes a binary image: 255 where the intensity is above the level, 0 elsewhere. The intensity is the\n"
        "gray channel, or luma (Rec. 601) for colour images. --otsu picks the level that best separates the\n"
        "histogram into two classes (Otsu's method) and reports it with -v and --json. --adaptive compares\n"
        "each pixel with a level from its W x W window (--window, odd, at most the image's sides), from\n"
        "summed-area tables: mean: round(mean) - ceil(C), C = --offset (OpenCV's adaptiveThreshold, mean - C;\n"
        "the window reads the edge sample beyond the image); niblack: m - k s; sauvola: m (1 + k (s / 128 - 1))\n"
        "(scikit-image's, m and s the window's mean and standard deviation, the image mirrored beyond its\n"
        "edge: dcb|abcd). Output is gray, or gray+alpha when the input has alpha (alpha copied).";
    op.group = "Threshold";
    op.params = {ParamSpec::flag("otsu", "Choose the level with Otsu's method"),
                 ParamSpec::integer("value", "T",
                                    "Fixed level: samples above T become white (255, or 65535 for 16-bit images), the "
                                    "rest 0; T is in the image's own scale: 0..255, or 0..65535 for 16-bit images",
                                    0, 65535)};
    for (ParamSpec& p : adaptive_threshold_params()) op.params.push_back(std::move(p));
    op.examples = {{"otsu", {{"otsu", ""}}},
                   {"value=97", {{"value", "97"}}, false},
                   {"adaptive mean 15, C=5", {{"adaptive", "mean"}, {"window", "15"}, {"offset", "5"}}},
                   {"sauvola 15", {{"adaptive", "sauvola"}, {"window", "15"}, {"k", "0.2"}}},
                   {"niblack 9", {{"adaptive", "niblack"}, {"window", "9"}, {"k", "-0.2"}}, false}};
    op.usage = {op.shown("otsu", "scan.png binary.png", "The level by Otsu's method (-v tells it)"),
                {"imgpar threshold --value 128 photo.jpg binary.png", "White where luma is above 128"},
                op.shown("adaptive mean 15, C=5", "scan.png binary.png",
                         "Each pixel against the mean of its 15x15 window, less 5")};
    op.make_image_job = [](const ParamValues& v) -> std::unique_ptr<ImageJob> {
        const bool otsu = v.flag("otsu"), value = v.given("value"), adaptive = v.given("adaptive");
        if (otsu + value + adaptive != 1)
            throw usage_error("--otsu", "give exactly one of --otsu, --value T or --adaptive METHOD");
        if (adaptive) return adaptive_threshold_job(read_adaptive_spec(v));
        return std::make_unique<ThresholdJob>(otsu ? threshold_otsu() : threshold_at_any_depth(v.int_value("value")));
    };
    return op;
}

}  // namespace imgpar
