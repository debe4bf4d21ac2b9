#include "src/ops/colour.hpp"

#include <algorithm>
#include <cstring>

#include "src/error.hpp"
#include "src/parallel.hpp"

namespace imgpar {

const char* const kChannelForms = "0 to 3, or gray, red, green, blue, alpha";

namespace {

// The index a name or number stands for in an image of `channels`
// channels, -1 where it has none; -2 when `spec` is no channel at all.
int channel_index(const std::string& spec, int channels) {
    if (spec.size() == 1 && spec[0] >= '0' && spec[0] <= '3') {
        const int i = spec[0] - '0';
        return i < channels ? i : -1;
    }
    if (spec == "gray") return channels <= 2 ? 0 : -1;
    if (spec == "red") return channels >= 3 ? 0 : -1;
    if (spec == "green") return channels >= 3 ? 1 : -1;
    if (spec == "blue") return channels >= 3 ? 2 : -1;
    if (spec == "alpha") return has_alpha(channels) ? channels - 1 : -1;
    return -2;
}

template <ColourOp kOp, int C, typename T>
void map_rows(ImageView<const T> src, ImageView<T> dst, const ColourArgs& args) {
    constexpr int CO = colour_output_channels(kOp, C);
    parallel_for(src.height, std::max(1, (1 << 16) / std::max(1, src.width * C)), [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y) {
            const T* s = src.row(y);
            T* d = dst.row(y);
            for (int x = 0; x < src.width; ++x, s += C, d += CO) colour_pixel_map<kOp, C, T>(args, s, d);
        }
    });
}

template <ColourOp kOp, typename T>
void map_image(ImageView<const T> src, ImageView<T> dst, const ColourArgs& args) {
    switch (src.channels) {
        case 1: map_rows<kOp, 1>(src, dst, args); break;
        case 2: map_rows<kOp, 2>(src, dst, args); break;
        case 3: map_rows<kOp, 3>(src, dst, args); break;
        default: map_rows<kOp, 4>(src, dst, args); break;
    }
}

template <typename T>
Image<T> apply_any(ImageView<const T> src, const ColourPlan& plan) {
    check_image_shape(src.width, src.height, src.channels);
    const ColourArgs args = colour_args(plan, src.channels);
    Image<T> out(src.width, src.height, plan.output_channels(src.channels));
    const ImageView<T> d = out.view();
    switch (plan.op) {
        case ColourOp::Grayscale: map_image<ColourOp::Grayscale>(src, d, args); break;
        case ColourOp::ExtractChannel: map_image<ColourOp::ExtractChannel>(src, d, args); break;
        case ColourOp::Flatten: map_image<ColourOp::Flatten>(src, d, args); break;
        case ColourOp::AddAlpha: map_image<ColourOp::AddAlpha>(src, d, args); break;
    }
    return out;
}

}  // namespace

void check_channel_spec(const std::string& spec) {
    if (channel_index(spec, 4) == -2)
        throw usage_error("--channel", "'" + spec + "' is not a channel (allowed: " + kChannelForms + ")");
}

int resolve_channel(const std::string& spec, int channels) {
    check_channel_spec(spec);
    const int i = channel_index(spec, channels);
    if (i < 0)
        throw usage_error("--channel", "a " + std::string(channel_layout_name(channels)) + " image has no channel " +
                                           spec + " (it has " + std::to_string(channels) + ": " +
                                           (channels == 1   ? "0 gray"
                                            : channels == 2 ? "0 gray, 1 alpha"
                                            : channels == 3 ? "0 red, 1 green, 2 blue"
                                                            : "0 red, 1 green, 2 blue, 3 alpha") +
                                           ")");
    return i;
}

void check_colour_plan(const ColourPlan& plan) {
    switch (plan.op) {
        case ColourOp::ExtractChannel: check_channel_spec(plan.channel); break;
        case ColourOp::Flatten:
            if (plan.background.a != 255)
                throw usage_error("--background", colour_text(plan.background) +
                                                      " is not opaque: flatten composites onto an opaque colour (alpha "
                                                      "ff or 255)");
            break;
        case ColourOp::AddAlpha:
            if (plan.alpha < 0 || plan.alpha > 255) throw usage_error("--value", "must be from 0 to 255");
            break;
        case ColourOp::Grayscale: break;
    }
}

int ColourPlan::output_channels(int channels) const { return colour_output_channels(op, channels); }

std::string ColourPlan::describe() const {
    switch (op) {
        case ColourOp::Grayscale:
            return std::string("grayscale, luma ") + (weights == LumaWeights::Rec709 ? "Rec. 709 (54 R + 183 G + 19 B)"
                                                                                       : "Rec. 601 (77 R + 150 G + 29 B)");
        case ColourOp::ExtractChannel: return "extract channel " + channel;
        case ColourOp::Flatten: return "flatten onto " + colour_text(background);
        case ColourOp::AddAlpha: return "add alpha " + std::to_string(alpha);
    }
    return "?";
}

ColourArgs colour_args(const ColourPlan& plan, int channels) {
    check_colour_plan(plan);
    ColourArgs a;
    if (plan.weights == LumaWeights::Rec709) {
        a.wr = 54;
        a.wg = 183;
        a.wb = 19;
    }
    if (plan.op == ColourOp::ExtractChannel) a.channel = resolve_channel(plan.channel, channels);
    const auto bg = colour_pixel(plan.background, channels);
    for (int i = 0; i < 4; ++i) a.background[i] = bg[static_cast<std::size_t>(i)];
    a.alpha = plan.alpha;
    const auto bg16 = colour_pixel16(plan.background, channels);
    for (int i = 0; i < 4; ++i) a.background16[i] = bg16[static_cast<std::size_t>(i)];
    a.alpha16 = plan.alpha * 257;
    return a;
}

namespace cpu {

ImageU8 apply_colour(ConstViewU8 src, const ColourPlan& plan) { return apply_any(src, plan); }
ImageU16 apply_colour(ConstViewU16 src, const ColourPlan& plan) { return apply_any(src, plan); }

}  // namespace cpu
}  // namespace imgpar
