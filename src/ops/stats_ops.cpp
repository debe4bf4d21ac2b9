// The declaration of stats (a report). No pixel arithmetic here: that is
// src/ops/stats.cpp and cuda/stats.cu; the reports are src/report/stats_report.cpp.
#include "src/ops/stats_ops.hpp"

#include <memory>
#include <optional>
#include <string>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/io/load.hpp"
#include "src/ops/stats.hpp"
#include "src/report/stats_report.hpp"

namespace imgpar {
namespace {

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

class StatsJob final : public ReportJob {
public:
    explicit StatsJob(const ParamValues& v) : channel_spec_(v.text("channel")) {
        check_stats_channels(channel_spec_);
        if (v.given("mask")) {
            mask_path_ = v.text("mask");
            if (mask_path_->empty()) throw usage_error("--mask", "is empty: name an image file");
        }
    }

    void check_inputs(const std::vector<std::string>& inputs) const override {
        if (!mask_path_ || *mask_path_ != "-") return;
        for (const std::string& in : inputs)
            if (in == "-")
                throw usage_error("--mask", "and an input cannot both be standard input (-): name one of them by file");
    }

    void read_option_files(const LoadOptions& load) override {
        if (!mask_path_) return;
        LoadOptions one = load;
        one.images = 2;  // the mask image and the plane made of it
        one.keep_16_bits = true;
        LoadedImage m = load_image(*mask_path_, one);
        mask_ = m.sixteen() ? mask_plane(m.image16.cview()) : mask_plane(m.image.cview());
    }

    std::string csv_header() const override { return stats_csv_header(); }
    std::string json_schema() const override { return kStatsJsonSchema; }

    // Unmasked: the mask is a real file's, of a real file's size.
    void probe_cpu(ConstViewU8 image) const override { (void)cpu::stats(image, nullptr); }

    std::string run_cpu(const ReportSource& source, ConstViewU8 image, ReportFormat format,
                        RunNotes& notes) const override {
        return report_cpu(source, image, format, notes);
    }
    std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU8 image,
                        ReportFormat format, RunNotes& notes) const override {
        return report_gpu(session, source, image, format, notes);
    }

    // 16-bit images: the same report, of values 0..65535.
    bool takes_u16() const override { return true; }
    std::string run_cpu(const ReportSource& source, ConstViewU16 image, ReportFormat format,
                        RunNotes& notes) const override {
        return report_cpu(source, image, format, notes);
    }
    std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU16 image,
                        ReportFormat format, RunNotes& notes) const override {
        return report_gpu(session, source, image, format, notes);
    }

private:
    // The report of an 8- or 16-bit image (the mask is 8-bit either way).
    template <typename View>
    std::string report_cpu(const ReportSource& source, View image, ReportFormat format, RunNotes& notes) const {
        const std::optional<ConstViewU8> mask = mask_for(source.file, image.width, image.height);
        const std::vector<int> channels = channels_of(source.file, image.channels);
        notes.kernel = cpu::stats_kernel_name();
        return render(source, cpu::stats(image, mask ? &*mask : nullptr), channels, format, notes);
    }
    template <typename DeviceView>
    std::string report_gpu(gpu::Session& session, const ReportSource& source, DeviceView image, ReportFormat format,
                           RunNotes& notes) const {
        const std::optional<ConstViewU8> mask = mask_for(source.file, image.width, image.height);
        const std::vector<int> channels = channels_of(source.file, image.channels);
        if (!mask) return render(source, gpu::stats(session, image, nullptr, &notes.kernel), channels, format, notes);
        // The image may be in the Input or the Output slot (a chain's result): the mask goes to Aux.
        const DeviceViewU8 m = session.image<std::uint8_t>(gpu::Session::Slot::Aux, mask->width, mask->height, 1);
        session.upload(*mask, m);
        const ConstDeviceViewU8 cm = m;
        return render(source, gpu::stats(session, image, &cm, &notes.kernel), channels, format, notes);
    }

    std::string mask_name() const { return *mask_path_ == "-" ? std::string("<stdin>") : *mask_path_; }

    // The --channel channels of this file. A name valid for some images but
    // not this one ("red" of a gray file) fails this file only, as a file
    // that cannot be decoded does: the others are still reported.
    std::vector<int> channels_of(const std::string& file, int image_channels) const {
        try {
            return select_stats_channels(image_channels, channel_spec_);
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Usage) throw;
            throw input_error(file, "--channel: " + e.reason());
        }
    }

    // The mask's plane for an image of this size; a mask of another size
    // fails this file.
    std::optional<ConstViewU8> mask_for(const std::string& file, int width, int height) const {
        if (!mask_path_) return std::nullopt;
        if (!mask_) throw usage_error("--mask", "the mask was not read (read_option_files comes first)");
        const ConstViewU8 m = mask_->view();
        if (m.width != width || m.height != height)
            throw input_error(file, "is " + size_text(width, height) + " but the mask " + mask_name() + " is " +
                                        size_text(m.width, m.height) + ": a mask must have the image's width and height");
        return m;
    }

    std::string render(const ReportSource& source, const ImageStats& st, const std::vector<int>& channels,
                       ReportFormat format, const RunNotes& notes) const {
        StatsSource src{source.file, mask_path_ ? mask_name() : std::string(), source.backend, notes.kernel};
        src.extra = source.extra;
        switch (format) {
            case ReportFormat::Csv: return stats_csv_rows(src, st, channels);
            case ReportFormat::Json: return stats_json(src, st, channels);
            case ReportFormat::Text: break;
        }
        return stats_text(src, st, channels);
    }

    std::string channel_spec_;
    std::optional<std::string> mask_path_;
    std::optional<ImageU8> mask_;  // the mask's plane: 1 where it selects, 0 elsewhere
};

}  // namespace

Operation stats_operation() {
    Operation op;
    op.name = "stats";
    op.peak_images = 1;  // the decoded image; a mask is read once, for every file
    op.summary = "Statistics per channel: count, min, max and where, sum, sum of squares, mean, deviation";
    op.description =
        "Reduces every channel of the image in one pass: the number of samples, min and max with the (x, y) of\n"
        "the first of each in row-major order, sum, sum of squares, mean, POPULATION standard deviation (divides\n"
        "by the count) and the number of non-zero samples, per channel and for all of them together (the row\n"
        "'all'). Sums are exact 64-bit integers, and the mean and deviation are derived from them the same way\n"
        "on the CPU and the GPU, so both print the same digits. --mask M counts only the pixels where the mask\n"
        "image (of the same size) is non-zero in any of its channels. Text output is a table; --csv prints one\n"
        "row per file and channel; --json one object per input (JSON Lines for several inputs). A file that\n"
        "fails is reported on stderr and the others are still processed; the exit code is then 1.";
    op.group = "Statistics";
    op.kind = OperationKind::ImagesToReport;
    op.params = {
        ParamSpec::text("channel", "LIST", "Channels to report; the row 'all' combines them",
                        "all, or a comma-separated list of gray, red, green, blue, alpha (or r, g, b, a, or channel "
                        "indices)")
            .defaults("all")
            .suggesting({"all", "gray", "red", "green", "blue", "alpha"}),
        ParamSpec::path("mask", "M", "Count only the pixels where this image (the input's size) is non-zero in any "
                                     "channel")};
    op.examples = {{"all channels", {}}, {"channel 0", {{"channel", "0"}}, false}};
    op.usage = {{"imgpar stats photo.jpg", "A table: each channel and all together"},
                {"imgpar stats --channel red,alpha logo.png", "Two channels and their row 'all'"},
                {"imgpar stats --csv photos/*.jpg > stats.csv", "One CSV row per file and channel"}};
    op.make_report_job = [](const ParamValues& v) -> std::unique_ptr<ReportJob> { return std::make_unique<StatsJob>(v); };
    return op;
}

}  // namespace imgpar
