#include "src/run/compare_sink.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "src/io/encode_memory.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/sample_depth.hpp"
#include "src/io/save.hpp"
#include "src/ops/ssim_math.hpp"
#include "src/parallel.hpp"
#include "src/report/compare_report.hpp"
#include "src/run/source.hpp"
#include "src/run/timing.hpp"

namespace imgpar {

namespace {

// What a pair keeps between the sink's steps: B's file, then B decoded,
// then the comparison.
struct PairState {
    std::optional<SourceFile> source;
    ImageU8 b;
    ImageU16 b16;  // B, when it loaded at 16 bits
    double read_ms = 0;
    Comparison result;  // its diff empty for a 16-bit pair, whose difference image is diff16
    ImageU16 diff16;
    std::string kernel;
};

PairState& state_of(FileRun& file) { return *std::static_pointer_cast<PairState>(file.extra); }

}  // namespace

CompareSink::CompareSink(std::vector<ComparePair> pairs, CompareSettings settings, const Diagnostics& diag)
    : pairs_(std::move(pairs)), settings_(std::move(settings)), diag_(diag) {
    settings_.load.keep_16_bits = true;  // B as A: 16-bit files at 16 bits
}


std::vector<BatchItem> CompareSink::items() const {
    std::vector<BatchItem> items;
    for (const ComparePair& p : pairs_) items.push_back({p.a, display_name(p.a), {}});
    return items;
}

double CompareSink::peak_images(const CompareOptions& o) {
    // Measured with /usr/bin/time -v on 4096x4096 RGB pairs; auto counted as
    // its smallest shrink, 2.
    const double f = o.ssim_downsample == kSsimAutoDownsample ? 2.0 : o.ssim_downsample;
    const double shrunk = o.ssim && o.ssim_downsample != 1 ? 8.0 / (f * f) : 0.0;
    return 1.25 + shrunk + (o.diff ? 0.75 : 0) + (o.ssim_map ? 0.75 : 0);
}

std::string CompareSink::pair_name(std::size_t index) const {
    const ComparePair& p = pairs_[index];
    return display_name(p.a) + " vs " + display_name(p.b);
}

std::string CompareSink::ssim_absence(int width, int height) const {
    if (!settings_.options.ssim) return "not computed (--no-ssim)";
    const SsimPlan plan = ssim_plan(settings_.options, width, height);
    return plan.fits ? std::string() : "the image " + plan.shortfall();
}

void CompareSink::probe_cpu(ConstViewU8 sample, const ImageShape& real) const {
    // With the factor the first pair will use (auto resolved on its size),
    // and no map where that factor shrinks the sample below the window.
    CompareOptions o = settings_.options;
    o.ssim_downsample = ssim_downsample_factor(o.ssim_downsample, real.width, real.height);
    o.ssim_map = o.ssim_map && ssim_plan(o, sample.width, sample.height).fits;
    (void)cpu::compare(sample, sample, o);
}

void CompareSink::check(std::size_t index, const BatchItem& item) const {
    (void)item;
    if (!pairs_[index].missing.empty()) throw input_error("", pairs_[index].missing);
}

std::uint64_t CompareSink::read_extra(FileRun& file) const {
    const ComparePair& p = pairs_[file.index];
    const std::string a = display_name(p.a), b = display_name(p.b);
    auto state = std::make_shared<PairState>();
    const auto t0 = std::chrono::steady_clock::now();
    // B's header is checked as a decode of its own; the pair's buffers are
    // checked with A's (peak_bytes).
    LoadOptions load = settings_.load;
    load.images = 1;
    state->source = read_source({p.b, b, {}}, load);
    const ImageHeader& hb = state->source->header;
    const ImageShape& sa = file.shapes.front();
    // The shapes first, before either image is decoded.
    check_comparable(ConstViewU8{nullptr, sa.width, sa.height, sa.channels, 0},
                     ConstViewU8{nullptr, hb.width, hb.height, hb.channels, 0}, a, b);
    if (settings_.options.ssim_map && !ssim_plan(settings_.options, sa.width, sa.height).fits)
        throw input_error(a + ", " + b, "--ssim-map: " + ssim_absence(sa.width, sa.height));
    // The difference image and the map in formats that can hold them (a JPEG
    // at most 65,500 pixels a side), before either image is decoded.
    if (settings_.options.diff) check_output_size(p.diff, output_format(p.diff, std::nullopt), sa.width, sa.height);
    if (settings_.options.ssim_map) {
        const SsimPlan plan = ssim_plan(settings_.options, sa.width, sa.height);
        check_output_size(p.ssim_map, output_format(p.ssim_map, std::nullopt), plan.width, plan.height);
    }
    state->read_ms = ms_since(t0);
    file.extra = state;
    return static_cast<std::uint64_t>(hb.file_bytes) + hb.decoder_bytes + metadata_memory(hb);
}

void CompareSink::prepare(FileRun& file, WorkerContext& ctx) const {
    (void)ctx;
    PairState& state = state_of(file);
    const std::string b = display_name(pairs_[file.index].b);
    const auto t0 = std::chrono::steady_clock::now();
    HostDecoded decoded = decode_on_host(*state.source, b, settings_.load, 0);
    state.source.reset();  // B's file goes before A is decoded
    for (const std::string& w : decoded.warnings) diag_.warning(b + ": " + w);
    state.b = std::move(decoded.image);
    state.b16 = std::move(decoded.image16);
    state.read_ms += ms_since(t0);
}

double CompareSink::peak_bytes(const FileRun& file) const {
    const ImageShape& s = file.output_shape();
    const double image = static_cast<double>(s.bytes());
    const CompareOptions& o = settings_.options;
    double bytes = 2 * image;  // A and B
    double encoding = 0;       // of the diff or the map, written one after the other
    const auto encoded = [](const std::string& path, const ImageShape& shape) {
        return static_cast<double>(encode_memory(output_format(path, std::nullopt), shape, SaveOptions{}, 0));
    };
    const ComparePair& p = pairs_[file.index];
    if (o.diff) {
        bytes += image;
        encoding = std::max(encoding, encoded(p.diff, s));
    }
    const SsimPlan plan = ssim_plan(o, s.width, s.height);
    if ((o.ssim || o.ssim_map) && plan.fits) {
        const ImageShape shrunk{plan.width, plan.height, s.channels, SampleType::U8};
        const double row = static_cast<double>(plan.width) * s.channels;  // samples of a (shrunk) row
        const int threads = cpu_thread_count();
        if (o.ssim_map) {
            bytes += static_cast<double>(shrunk.bytes());
            encoding = std::max(encoding, encoded(p.ssim_map, shrunk));
        }
        // Both images shrunk to doubles, and each thread's row of sums.
        if (plan.downsample > 1) bytes += 2 * 8 * static_cast<double>(shrunk.samples()) + threads * 4 * row;
        // Each band of at least 32 rows holds a ring of kSsimWindow rows of
        // five moments and one row of them (src/ops/ssim.cpp), in doubles.
        const double bands = std::min<double>(threads, (plan.height + 31) / 32);
        bytes += bands * (kSsimWindow + 1) * 5 * 8 * row;
    }
    return bytes + encoding;
}

void CompareSink::take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const {
    PairState& state = state_of(file);
    if (state.b16.empty()) {
        state.result = compare_images(backend, image.view(), state.b.view(), settings_.options, &state.kernel);
        return;
    }
    warn_mixed_depths(file);  // B is 16-bit: A is compared widened
    compare_16(file, widen_to_16_bits(image.view()), backend);
}

void CompareSink::take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const {
    PairState& state = state_of(file);
    if (state.b16.empty()) {  // an 8-bit B beside a 16-bit A
        warn_mixed_depths(file);
        state.b16 = widen_to_16_bits(state.b.view());
        state.b = ImageU8();
    }
    compare_16(file, std::move(image), backend);
}

void CompareSink::warn_mixed_depths(const FileRun& file) const {
    diag_.warning(pair_name(file.index) +
                  ": one image is 8-bit and the other 16-bit: the 8-bit one is compared widened (v x 257)");
}

void CompareSink::compare_16(FileRun& file, ImageU16 a, const BackendChoice& backend) const {
    PairState& state = state_of(file);
    Comparison16 c = compare_images(backend, a.view(), state.b16.view(), settings_.options, &state.kernel);
    state.result.sums = c.sums;
    state.result.ssim = c.ssim;
    state.result.ssim_map = std::move(c.ssim_map);
    state.diff16 = std::move(c.diff);
}

std::string CompareSink::complete(FileRun& file) const {
    const ComparePair& p = pairs_[file.index];
    PairState& state = state_of(file);
    CompareSource src;
    src.a = display_name(p.a);
    src.b = display_name(p.b);
    src.width = file.shapes.front().width;
    src.height = file.shapes.front().height;
    src.backend = backend_name(file.used.backend);
    if (file.used.backend == Backend::Gpu) src.device = file.used.gpu_name;
    src.kernel = state.kernel;
    src.elapsed_ms = file.compute_ms;
    src.decode_ms = file.read_ms + file.decode_ms + state.read_ms;
    src.ssim_asked = settings_.options.ssim;
    src.no_ssim = ssim_absence(src.width, src.height);

    const auto t_write = std::chrono::steady_clock::now();
    for (const auto& [path, image] : {std::pair<const std::string&, const ImageU8&>{p.diff, state.result.diff},
                                      std::pair<const std::string&, const ImageU8&>{p.ssim_map, state.result.ssim_map}}) {
        if (path.empty()) continue;
        std::vector<std::string> warnings;
        if (&path == &p.diff && !state.diff16.empty())
            save_image(path, state.diff16.view(), SaveOptions{}, warnings);
        else
            save_image(path, image.view(), SaveOptions{}, warnings);
        for (const std::string& w : warnings) diag_.warning(path + ": " + w);
    }
    src.diff = p.diff;
    src.ssim_map = p.ssim_map;
    src.limits = !settings_.limits.empty();
    src.violations = compare_violations(state.result, settings_.limits, src.no_ssim);
    const std::string name = pair_name(file.index);
    if (!src.violations.empty()) {
        ++violated_;
        std::string line = name + ": ";
        for (std::size_t i = 0; i < src.violations.size(); ++i) line += (i ? "; " : "") + src.violations[i];
        diag_.error(line);
    }
    diag_.info(settings_.command + ": " + name + " (" + std::to_string(src.width) + "x" + std::to_string(src.height) +
               " " + channel_layout_name(file.shapes.front().channels) + "): backend " + src.backend +
               (src.device.empty() ? "" : " (" + src.device + ")") + "; kernel " + src.kernel +
               "; stages: read+decode " + ms_text(src.decode_ms) + ", compute " + ms_text(src.elapsed_ms) +
               ", write " + ms_text(ms_since(t_write)));
    switch (settings_.format) {
        case ReportFormat::Text: return compare_text(src, state.result) + (pairs_.size() > 1 ? "\n" : "");
        case ReportFormat::Csv: return compare_csv_rows(src, state.result);
        case ReportFormat::Json: return compare_json(src, state.result);
    }
    return std::string();
}

std::string CompareSink::failed(std::size_t index, const BatchItem& item, const Error& error) const {
    (void)item;
    if (settings_.format != ReportFormat::Json) return std::string();
    const ComparePair& p = pairs_[index];
    return compare_json_failure(display_name(p.a), display_name(p.b), error.what());
}

std::string CompareSink::checks_text() const {
    return violated_ ? "; " + std::to_string(violated_.load()) + " outside --fail-above/--fail-below" : std::string();
}

}  // namespace imgpar
