#include "src/report/histogram_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/error.hpp"

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

// A 3x5 pixel font for tick labels: five rows, three bits each (4 = left).
const unsigned char* glyph(char ch) {
    static const unsigned char digits[10][5] = {
        {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
        {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
    static const unsigned char dot[5] = {0, 0, 0, 0, 2};
    static const unsigned char k[5] = {4, 5, 6, 5, 5};
    static const unsigned char m[5] = {5, 7, 7, 5, 5};
    static const unsigned char g[5] = {7, 4, 5, 5, 7};
    if (ch >= '0' && ch <= '9') return digits[ch - '0'];
    if (ch == '.') return dot;
    if (ch == 'k') return k;
    if (ch == 'M') return m;
    if (ch == 'G') return g;
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

// 1234, 12.3k, 123k, 1.2M, ...: at most five characters.
std::string short_count(double n) {
    char buf[32];
    const char* suffix[] = {"", "k", "M", "G"};
    int i = 0;
    while (n >= 10000 && i < 3) {
        n /= 1000;
        ++i;
    }
    if (i == 0 || n >= 100)
        std::snprintf(buf, sizeof buf, "%.0f%s", std::floor(n + 0.5), suffix[i]);
    else
        std::snprintf(buf, sizeof buf, "%.1f%s", n, suffix[i]);
    return buf;
}

}  // namespace

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
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X'))
        throw usage_error("--plot-size", "'" + text + "' is not WIDTHxHEIGHT (e.g. 512x300)");
    HistogramPlotOptions t = opt;
    t.width = w;
    t.height = h;
    check_plot_options(t);
    opt.width = w;
    opt.height = h;
}

ImageU8 plot_histogram(const Histogram& h, const HistogramPlotOptions& opt) {
    check_plot_options(opt);
    std::vector<int> planes = opt.planes.empty() ? select_histogram_planes(h, "all") : opt.planes;
    for (int p : planes) h.plane(p);  // range check

    const int W = opt.width, H = opt.height;
    const int s = (W >= 640 && H >= 400) ? 2 : 1;  // font scale
    const int left = 6 * 4 * s + 8, right = 8 + 6 * s, top = 8 + 3 * s, bottom = 5 * s + 12;
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
    auto bar_height = [&](std::uint64_t c) -> int {
        if (c == 0 || peak == 0) return 0;
        double f = opt.log_scale ? std::log1p(static_cast<double>(c)) / std::log1p(static_cast<double>(peak))
                                 : static_cast<double>(c) / static_cast<double>(peak);
        return std::clamp(static_cast<int>(std::lround(f * ph)), 1, ph);
    };

    // Grid lines and count ticks (0, 1/4, 1/2, 3/4, top).
    for (int k = 0; k <= 4; ++k) {
        const int y = y1 - static_cast<int>(std::lround(k * (ph - 1) / 4.0));
        if (k > 0) hline(img, x0, x1, y, kGrid);
        hline(img, x0 - 5, x0 - 2, y, kAxis);
        double value = opt.log_scale ? std::expm1(k / 4.0 * std::log1p(static_cast<double>(peak)))
                                     : static_cast<double>(peak) * k / 4.0;
        const std::string label = short_count(value);
        draw_text(img, x0 - 7 - text_width(label, s), y - (5 * s) / 2, label, s, kAxis);
    }

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
        const std::string label = std::to_string(v);
        draw_text(img, x - text_width(label, s) / 2, y1 + 8, label, s, kAxis);
    }
    return img;
}

}  // namespace imgpar
