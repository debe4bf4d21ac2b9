#include "src/report/compare_report.hpp"

#include <cmath>
#include <cstdio>

#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {
namespace {

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string pad_left(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string pad_right(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

// A metric for CSV: round-trip digits as JSON prints them, "inf" for an
// infinite PSNR.
std::string csv_number(double v) { return std::isinf(v) ? std::string("inf") : json_number(v); }

bool has_ssim(const Comparison& c) { return c.ssim.defined; }

// channel -1: all channels.
double ssim_of(const Comparison& c, int channel) { return channel < 0 ? c.ssim.mean : c.ssim.channel[channel]; }

JsonObject metrics_json(const Comparison& c, int channel) {
    const DifferenceMetrics m = difference_metrics(c.sums, channel);
    JsonObject o;
    o.add("samples", static_cast<unsigned long long>(m.samples))
        .add("max_abs", m.max_abs)
        .add("differ", static_cast<unsigned long long>(m.differ))
        .add("differ_share", m.differ_share)
        .add("mae", m.mae)
        .add("mse", m.mse)
        .add("rmse", m.rmse);
    // Identical images' PSNR is +inf, which JSON cannot write: the largest
    // double stands for it, a number every JSON reader takes and that
    // compares above any bound (jq -e '.all.psnr >= 40' holds).
    o.add("psnr", std::isinf(m.psnr) ? kJsonInfinitePsnr : m.psnr);
    if (has_ssim(c))
        o.add("ssim", ssim_of(c, channel));
    else
        o.add_null("ssim");
    return o;
}

std::string text_row(const std::string& name, const Comparison& c, int channel) {
    const DifferenceMetrics m = difference_metrics(c.sums, channel);
    return "  " + pad_right(name, 8) + pad_left(std::to_string(m.max_abs), 8) + pad_left(std::to_string(m.differ), 14) +
           pad_left(format("%.3f%%", 100.0 * m.differ_share), 10) + pad_left(format("%.4f", m.mae), 12) +
           pad_left(format("%.4f", m.mse), 12) + pad_left(format("%.4f", m.rmse), 12) +
           pad_left(std::isinf(m.psnr) ? std::string("inf") : format("%.2f", m.psnr), 9) +
           pad_left(has_ssim(c) ? format("%.6f", ssim_of(c, channel)) : std::string("-"), 10) + "\n";
}

}  // namespace

std::string compare_channel_name(int channels, int c) {
    static const char* const gray[] = {"gray", "alpha"};
    static const char* const colour[] = {"red", "green", "blue", "alpha"};
    return channels <= 2 ? gray[c] : colour[c];
}

std::string compare_text(const CompareSource& src, const Comparison& c) {
    const DifferenceSums& s = c.sums;
    const DifferenceMetrics all = difference_metrics(s, -1);
    std::string out = escape_control(src.a) + " vs " + escape_control(src.b) + ": " + std::to_string(src.width) + "x" + std::to_string(src.height) + " " +
                      channel_layout_name(s.channels);
    if (all.differ == 0)
        out += ", identical";
    else
        out += ", " + std::to_string(all.differ) + " of " + std::to_string(all.samples) + " samples differ (" +
               format("%.3f%%", 100.0 * all.differ_share) + ") in " + std::to_string(s.pixels_differ) + " of " +
               std::to_string(s.pixels) + " pixels";
    out += "\n  " + pad_right("channel", 8) + pad_left("max_abs", 8) + pad_left("differ", 14) + pad_left("share", 10) +
           pad_left("MAE", 12) + pad_left("MSE", 12) + pad_left("RMSE", 12) + pad_left("PSNR dB", 9) +
           pad_left("SSIM", 10) + "\n";
    for (int ch = 0; ch < s.channels; ++ch) out += text_row(compare_channel_name(s.channels, ch), c, ch);
    if (s.channels > 1) out += text_row("all", c, -1);
    if (!has_ssim(c) && src.ssim_asked && !src.no_ssim.empty()) out += "  SSIM: none, " + src.no_ssim + "\n";
    if (has_ssim(c) && c.ssim.downsample > 1)
        out += "  SSIM of the images shrunk " + std::to_string(c.ssim.downsample) + "x (--ssim-downsample)\n";
    return out;
}

std::string compare_csv_header() { return "a,b,channel,max_abs,differ,differ_share,mae,mse,rmse,psnr,ssim\n"; }

std::string compare_csv_rows(const CompareSource& src, const Comparison& c) {
    std::string out;
    for (int ch = 0; ch <= c.sums.channels; ++ch) {
        const int channel = ch == c.sums.channels ? -1 : ch;  // the channels, then all of them
        const DifferenceMetrics m = difference_metrics(c.sums, channel);
        out += csv_row({src.a, src.b, channel < 0 ? std::string("all") : compare_channel_name(c.sums.channels, channel),
                        std::to_string(m.max_abs), std::to_string(m.differ), csv_number(m.differ_share),
                        csv_number(m.mae), csv_number(m.mse), csv_number(m.rmse), csv_number(m.psnr),
                        has_ssim(c) ? csv_number(ssim_of(c, channel)) : std::string()}) +
               "\n";
    }
    return out;
}

std::string compare_json(const CompareSource& src, const Comparison& c) {
    const DifferenceSums& s = c.sums;
    JsonObject o;
    o.add("schema", kCompareJsonSchema).add("a", src.a).add("b", src.b).add("ok", true);
    o.add("width", src.width).add("height", src.height).add("channels", s.channels);
    o.add("layout", channel_layout_name(s.channels));
    o.add("identical", difference_metrics(s, -1).differ == 0);
    o.add("pixels", static_cast<unsigned long long>(s.pixels));
    o.add("pixels_differ", static_cast<unsigned long long>(s.pixels_differ));
    o.add("all", metrics_json(c, -1));
    JsonArray per_channel;
    for (int ch = 0; ch < s.channels; ++ch) {
        JsonObject m;
        m.add("name", compare_channel_name(s.channels, ch)).merge(metrics_json(c, ch));
        per_channel.push(m);
    }
    o.add("per_channel", per_channel);
    JsonObject ssim;
    if (has_ssim(c)) {
        ssim.add("window", kSsimWindow).add("sigma", kSsimSigma).add("k1", kSsimK1).add("k2", kSsimK2);
        ssim.add("data_range", kSsimDataRange).add("downsample", c.ssim.downsample);
        ssim.add("pixels", static_cast<unsigned long long>(c.ssim.pixels));
    } else {
        ssim.add("skipped", src.no_ssim);
    }
    o.add("ssim", ssim);
    o.add_text_or_null("diff", src.diff);
    o.add_text_or_null("ssim_map", src.ssim_map);
    if (src.limits) {
        JsonArray violations;
        for (const std::string& v : src.violations) violations.push(v);
        JsonObject limits;
        limits.add("passed", src.violations.empty()).add("violations", violations);
        o.add("limits", limits);
    }
    o.add("backend", src.backend);
    o.add_text_or_null("device", src.device);
    o.add("kernel", src.kernel).add("elapsed_ms", src.elapsed_ms).add("decode_ms", src.decode_ms);
    return o.str() + "\n";
}

std::string compare_json_failure(const std::string& a, const std::string& b, const std::string& error) {
    JsonObject o;
    o.add("schema", kCompareJsonSchema).add("a", a).add("b", b).add("ok", false).add("error", error);
    return o.str() + "\n";
}

}  // namespace imgpar
