#include "src/report/histogram_plot.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "src/error.hpp"
#include "src/op/param.hpp"

namespace imgpar {
namespace {

struct Rgb {
    int r, g, b;
};

constexpr Rgb kAxis{60, 60, 60};
constexpr Rgb kGrid{228, 228, 228};

Rgb plane_colour(const Histogram& h, int p) {
    const std::string name = h.plane_name(p);
    if (name == "red") return {220, 40, 40};
    if (name == "green") return {40, 160, 40};
    if (name == "blue") return {40, 80, 220};
    if (name == "alpha") return {150, 100, 200};
    if (name == "luma") return {128, 128, 128};
    return {40, 40, 40};  // gray
}

void put(ImageU8& img, int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) return;
    img.at(x, y, 0) = static_cast<std::uint8_t>(c.r);
    img.at(x, y, 1) = static_cast<std::uint8_t>(c.g);
    img.at(x, y, 2) = static_cast<std::uint8_t>(c.b);
}

// One quarter of c over what is there: overlapping planes stay visible.
void blend(ImageU8& img, int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) return;
    const int v[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; ++k) {
        std::uint8_t& s = img.at(x, y, k);
        s = static_cast<std::uint8_t>((3 * s + v[k] + 2) / 4);
    }
}

void hline(ImageU8& img, int x0, int x1, int y, Rgb c) {
    for (int x = x0; x <= x1; ++x) put(img, x, y, c);
}
void vline(ImageU8& img, int x, int y0, int y1, Rgb c) {
    if (y0 > y1) std::swap(y0, y1);
    for (int y = y0; y <= y1; ++y) put(img, x, y, c);
}

// A 3x5 pixel font for tick labels and the legend: five rows, three bits
// each (4 = left). Digits, '.', 'k' (thousands), and the capitals the plane
// names need (GRAY, RED, GREEN, BLUE, ALPHA, LUMA, PLANE).
const unsigned char* glyph(char ch) {
    static const unsigned char digits[10][5] = {
        {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
        {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
    static const unsigned char dot[5] = {0, 0, 0, 0, 2};
    static const unsigned char k[5] = {4, 5, 6, 5, 5};
    struct Letter {
        char ch;
        unsigned char rows[5];
    };
    static const Letter letters[] = {
        {'A', {2, 5, 7, 5, 5}}, {'B', {6, 5, 6, 5, 6}}, {'D', {6, 5, 5, 5, 6}}, {'E', {7, 4, 6, 4, 7}},
        {'G', {7, 4, 5, 5, 7}}, {'H', {5, 5, 7, 5, 5}}, {'L', {4, 4, 4, 4, 7}}, {'M', {5, 7, 7, 5, 5}},
        {'N', {6, 5, 5, 5, 5}}, {'P', {6, 5, 6, 4, 4}}, {'R', {6, 5, 6, 5, 5}}, {'U', {5, 5, 5, 5, 7}},
        {'Y', {5, 5, 2, 2, 2}}};
    if (ch >= '0' && ch <= '9') return digits[ch - '0'];
    if (ch == '.') return dot;
    if (ch == 'k') return k;
    for (const Letter& l : letters)
        if (l.ch == ch) return l.rows;
    return nullptr;
}

int text_width(const std::string& s, int scale) { return s.empty() ? 0 : static_cast<int>(s.size()) * 4 * scale - scale; }

void draw_text(ImageU8& img, int x, int y, const std::string& s, int scale, Rgb c) {
    for (char ch : s) {
        if (const unsigned char* rows = glyph(ch))
            for (int r = 0; r < 5; ++r)
                for (int b = 0; b < 3; ++b)
                    if (rows[r] & (4 >> b))
                        for (int dy = 0; dy < scale; ++dy)
                            for (int dx = 0; dx < scale; ++dx) put(img, x + b * scale + dx, y + r * scale + dy, c);
        x += 4 * scale;
    }
}

// 1234, 15k, 2.5M, ...: at most five characters; whole numbers of
// thousands or millions without a decimal.
std::string short_count(double n) {
    char buf[32];
    const char* suffix[] = {"", "k", "M", "G"};
    int i = 0;
    while (n >= 10000 && i < 3) {
        n /= 1000;
        ++i;
    }
    if (i == 0 || n >= 100 || std::fabs(n - std::round(n)) < 1e-9)
        std::snprintf(buf, sizeof buf, "%.0f%s", std::floor(n + 0.5), suffix[i]);
    else
        std::snprintf(buf, sizeof buf, "%.1f%s", n, suffix[i]);
    return buf;
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The names of the plotted planes in their colours, in one row ending at
// x_end: a swatch, then the name, for each.
void draw_legend(ImageU8& img, const Histogram& h, const std::vector<int>& planes, int x_end, int y, int s) {
    const int swatch = 5 * s, gap = 2 * s, spacing = 6 * s;
    int width = 0;
    for (std::size_t i = 0; i < planes.size(); ++i)
        width += (i ? spacing : 0) + swatch + gap + text_width(upper(h.plane_name(planes[i])), s);
    int x = std::max(0, x_end - width);
    for (int p : planes) {
        const Rgb c = plane_colour(h, p);
        for (int dy = 0; dy < swatch; ++dy) hline(img, x, x + swatch - 1, y + dy, c);
        x += swatch + gap;
        const std::string name = upper(h.plane_name(p));
        draw_text(img, x, y, name, s, kAxis);
        x += text_width(name, s) + spacing;
    }
}

}  // namespace

std::vector<double> plot_count_ticks(std::uint64_t peak, bool log_scale) {
    std::vector<double> ticks{0.0};
    if (log_scale) {
        // 1, 10, 100, ... up to the first power of ten at or above the peak.
        double v = 1.0;
        ticks.push_back(v);
        while (v < static_cast<double>(peak)) ticks.push_back(v *= 10.0);
        return ticks;
    }
    // About five steps of 1, 2 or 5 times a power of ten, never below 1 (the
    // counts are whole); the last tick is the first at or above the peak.
    const double raw = std::max(1.0, static_cast<double>(peak) / 5.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double r = raw / magnitude;
    const double step = (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * magnitude;
    const double top = std::max(step, std::ceil(static_cast<double>(peak) / step) * step);
    for (int k = 1; k * step <= top + step / 2; ++k) ticks.push_back(k * step);
    return ticks;
}

void check_plot_options(const HistogramPlotOptions& opt) {
    if (opt.width < kPlotMinWidth || opt.width > kPlotMaxSide || opt.height < kPlotMinHeight ||
        opt.height > kPlotMaxSide)
        throw usage_error("--plot-size", std::to_string(opt.width) + "x" + std::to_string(opt.height) +
                                             " is out of range; width " + std::to_string(kPlotMinWidth) + ".." +
                                             std::to_string(kPlotMaxSide) + ", height " +
                                             std::to_string(kPlotMinHeight) + ".." + std::to_string(kPlotMaxSide));
    check_histogram_bins(opt.bins);
}

void parse_plot_size(const std::string& text, HistogramPlotOptions& opt) {
    // Digits only on both sides: no sign, space or hex; a width past int
    // (4294967808) is out of range, not wrapped round to a small one.
    const std::size_t x = text.find_first_of("xX");
    const auto side = [](const std::string& digits) -> long long {
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
        bool out_of_range = false;
        const std::optional<long long> v = parse_whole_number(digits, &out_of_range);
        return v ? *v : std::numeric_limits<long long>::max();
    };
    const long long w = x == std::string::npos ? -1 : side(text.substr(0, x));
    const long long h = x == std::string::npos ? -1 : side(text.substr(x + 1));
    if (w < 0 || h < 0) throw usage_error("--plot-size", "'" + text + "' is not WIDTHxHEIGHT (e.g. 512x300)");
    if (w > kPlotMaxSide || h > kPlotMaxSide)
        throw usage_error("--plot-size", text + " is out of range; width " + std::to_string(kPlotMinWidth) + ".." +
                                             std::to_string(kPlotMaxSide) + ", height " +
                                             std::to_string(kPlotMinHeight) + ".." + std::to_string(kPlotMaxSide));
    HistogramPlotOptions t = opt;
    t.width = static_cast<int>(w);
    t.height = static_cast<int>(h);
    check_plot_options(t);
    opt.width = t.width;
    opt.height = t.height;
}

ImageU8 plot_histogram(const Histogram& h, const HistogramPlotOptions& opt) {
    check_plot_options(opt);
    std::vector<int> planes = opt.planes.empty() ? select_histogram_planes(h, "all") : opt.planes;
    for (int p : planes) h.plane(p);  // range check

    const int W = opt.width, H = opt.height;
    const int s = (W >= 640 && H >= 400) ? 2 : 1;  // font scale
    // The legend's row above the plot area; below it, room for half of the
    // top tick's label.
    const int legend_y = 4;
    const int left = 6 * 4 * s + 8, right = 8 + 6 * s, top = legend_y + 5 * s + 6 + (5 * s + 1) / 2,
              bottom = 5 * s + 12;
    const int x0 = left, x1 = W - right - 1, y0 = top, y1 = H - bottom - 1;
    const int pw = x1 - x0 + 1, ph = y1 - y0 + 1;

    ImageU8 img(W, H, 3);
    img.fill(255);  // white background

    std::vector<std::vector<std::uint64_t>> binned;
    std::uint64_t peak = 0;
    for (int p : planes) {
        binned.push_back(rebin(h.plane(p), opt.bins));
        peak = std::max(peak, *std::max_element(binned.back().begin(), binned.back().end()));
    }
    // The count axis runs from 0 to its last tick, a round number at or above the peak.
    const std::vector<double> ticks = plot_count_ticks(peak, opt.log_scale);
    const double axis_top = ticks.back();
    const auto fraction = [&](double c) {
        return opt.log_scale ? std::log1p(c) / std::log1p(axis_top) : c / axis_top;
    };
    auto bar_height = [&](std::uint64_t c) -> int {
        if (c == 0) return 0;
        return std::clamp(static_cast<int>(std::lround(fraction(static_cast<double>(c)) * ph)), 1, ph);
    };

    // Grid lines and count ticks; a tick too close to the one below it for
    // their labels is left out (the first few of a log axis), the top one never.
    const int label_gap = 5 * s + 3;
    std::vector<int> tick_y;
    std::vector<double> shown;
    for (double v : ticks) {
        const int y = y1 - static_cast<int>(std::lround(fraction(v) * (ph - 1)));
        if (!tick_y.empty() && tick_y.back() - y < label_gap) {
            if (v != axis_top || shown.size() == 1) continue;
            tick_y.pop_back();
            shown.pop_back();
        }
        tick_y.push_back(y);
        shown.push_back(v);
    }
    for (std::size_t k = 0; k < shown.size(); ++k) {
        const int y = tick_y[k];
        if (k > 0) hline(img, x0, x1, y, kGrid);
        hline(img, x0 - 5, x0 - 2, y, kAxis);
        const std::string label = short_count(shown[k]);
        draw_text(img, x0 - 7 - text_width(label, s), y - (5 * s) / 2, label, s, kAxis);
    }
    draw_legend(img, h, planes, x1, legend_y, s);

    // Fills, then outlines on top of every fill.
    auto column_bin = [&](int x) { return static_cast<std::size_t>(static_cast<long long>(x - x0) * opt.bins / pw); };
    for (std::size_t i = 0; i < planes.size(); ++i) {
        const Rgb c = plane_colour(h, planes[i]);
        for (int x = x0; x <= x1; ++x) {
            const int hp = bar_height(binned[i][column_bin(x)]);
            for (int y = y1 - hp + 1; y <= y1; ++y) blend(img, x, y, c);
        }
    }
    for (std::size_t i = 0; i < planes.size(); ++i) {
        const Rgb c = plane_colour(h, planes[i]);
        int prev_top = y1 + 1;
        for (int x = x0; x <= x1; ++x) {
            const int hp = bar_height(binned[i][column_bin(x)]);
            const int y_top = y1 - hp + 1;
            if (hp > 0 || prev_top <= y1) vline(img, x, std::min(prev_top, y1), std::min(y_top, y1), c);
            prev_top = y_top;
        }
    }

    // Axes, value ticks and labels.
    vline(img, x0 - 1, y0, y1 + 1, kAxis);
    hline(img, x0 - 1, x1, y1 + 1, kAxis);
    for (int v : {0, 64, 128, 192, 255}) {
        const int x = x0 + ((2 * v + 1) * pw) / 512;
        vline(img, x, y1 + 2, y1 + 5, kAxis);
        // 16-bit: the value at the bin's start (65535 for the last bin, the top).
        const int value = opt.value_bits == 16 ? (v == 255 ? 65535 : v << 8) : v;
        const std::string label = std::to_string(value);
        draw_text(img, x - text_width(label, s) / 2, y1 + 8, label, s, kAxis);
    }
    return img;
}

}  // namespace imgpar
