#include "src/ops/adaptive_ops.hpp"

#include "src/error.hpp"
#include "src/ops/threshold.hpp"
#include "src/parallel.hpp"

namespace imgpar {
namespace {

class AdaptiveThresholdJob final : public ImageJob {
public:
    explicit AdaptiveThresholdJob(AdaptiveSpec spec) : spec_(spec) {}
    std::string describe() const override {
        std::string d = std::string("adaptive threshold, ") + adaptive_method_name(spec_.method) + ", window " +
                        std::to_string(spec_.window);
        if (spec_.method == AdaptiveMethod::Mean) return d + ", offset " + json_number(spec_.offset);
        return d + ", k " + json_number(spec_.k);
    }
    JsonObject details() const override {
        JsonObject o;
        o.add("method", "adaptive").add("adaptive", adaptive_method_name(spec_.method)).add("window", spec_.window);
        if (spec_.method == AdaptiveMethod::Mean)
            o.add("offset", spec_.offset);
        else
            o.add("k", spec_.k).add("r", spec_.r);
        return o;
    }
    // u16 in, u16 out (0 / 65535).
    ImageShape output_shape(const ImageShape& in) const override {
        return {in.width, in.height, threshold_output_channels(in.channels), in.type};
    }
    // A window wider or taller than the image fails that file only.
    void check_input(const ImageShape& in, const std::string& file) const override {
        try {
            check_adaptive_window(spec_, in.width, in.height);
            check_adaptive_depth(spec_, in.type);
        } catch (const Error& e) {
            throw input_error(file, e.what());
        }
    }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override {
        notes.kernel = cpu::adaptive_threshold_kernel_name();
        ImageU8 out(src.width, src.height, threshold_output_channels(src.channels));
        cpu::adaptive_threshold(src, out.view(), spec_);
        return out;
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override {
        gpu::adaptive_threshold(session, src, dst, spec_, &notes.kernel);
    }
    // 16-bit images (src/ops/adaptive_threshold.hpp, 16-BIT CONTRACT).
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override {
        notes.kernel = cpu::adaptive_threshold16_kernel_name();
        ImageU16 out(src.width, src.height, threshold_output_channels(src.channels));
        cpu::adaptive_threshold(src, out.view(), spec_);
        return out;
    }
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override {
        gpu::adaptive_threshold(session, src, dst, spec_, &notes.kernel);
    }

private:
    AdaptiveSpec spec_;
};

}  // namespace

std::vector<ParamSpec> adaptive_threshold_params() {
    return {ParamSpec::choice("adaptive", "METHOD",
                              "Threshold each pixel against its own window: mean (the window's mean minus C, as "
                              "OpenCV), sauvola or niblack (as scikit-image)",
                              {"mean", "sauvola", "niblack"}),
            ParamSpec::integer("window", "W", "Adaptive window: W x W pixels centred on each pixel", 1, kMaxAdaptiveWindow)
                .noting("W odd, at most the image's width and height")
                .only_with({"adaptive"}),
            ParamSpec::real("k", "K", "sauvola and niblack: how much the window's standard deviation moves the level",
                            -10, 10)
                .defaults("0.2")
                .abbreviated("k")  // one letter: also -k, the form --help shows it in
                .only_with({"adaptive"}),
            ParamSpec::real("offset", "C",
                            "mean: the level is the window's mean minus C, in the image's own scale (-255 to 255 for "
                            "8-bit images, -65535 to 65535 for 16-bit ones)",
                            -65535, 65535)
                .defaults("0")
                .only_with({"adaptive"})};
}

AdaptiveSpec read_adaptive_spec(const ParamValues& v) {
    AdaptiveSpec s;
    s.method = parse_adaptive_method(v.text("adaptive"));
    if (!v.given("window")) throw usage_error("--window", "is needed with --adaptive: an odd W, the window's side");
    s.window = v.int_value("window");
    s.k = v.real("k");
    s.offset = v.real("offset");
    check_adaptive_spec(s);
    return s;
}

std::unique_ptr<ImageJob> adaptive_threshold_job(const AdaptiveSpec& spec) {
    return std::make_unique<AdaptiveThresholdJob>(spec);
}

}  // namespace imgpar
