// What the 8- and 16-bit CPU statistics (stats.cpp, stats16.cpp) share: the
// mask's check, and the rows summed in parallel chunks whose parts are then
// added exactly.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <type_traits>

#include "src/error.hpp"
#include "src/image.hpp"
#include "src/ops/stats.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu::stats_detail {

using ChunkSums = std::array<ChannelSums, kMaxChannels>;

// Throws imgpar::Error (usage) unless the mask, where there is one, is one
// channel of the image's size.
inline void check_mask(int width, int height, const ConstViewU8* mask) {
    if (mask && (mask->width != width || mask->height != height || mask->channels != 1))
        throw usage_error("stats", "the mask is " + std::to_string(mask->width) + "x" + std::to_string(mask->height) +
                                       " with " + std::to_string(mask->channels) + " channels; the image is " +
                                       std::to_string(width) + "x" + std::to_string(height) +
                                       " and a mask has one channel");
}

// The statistics of an image: chunks of rows in parallel, each summed on its
// own by add_rows(std::integral_constant<int, C>{}, y0, y1, sums) (C the
// channel count), the parts then added once, exactly and in any order
// (ChannelSums::add).
template <typename View, typename AddRows>
ImageStats sum_row_chunks(const View& image, const ConstViewU8* mask, const AddRows& add_rows) {
    ImageStats st;
    st.width = image.width;
    st.height = image.height;
    st.channels = image.channels;
    st.masked = mask != nullptr;
    std::mutex merge;
    const int grain = std::max(1, (1 << 16) / std::max(1, image.width));
    parallel_for(image.height, grain, [&](int y0, int y1) {
        ChunkSums local{};
        switch (image.channels) {
            case 1: add_rows(std::integral_constant<int, 1>{}, y0, y1, local); break;
            case 2: add_rows(std::integral_constant<int, 2>{}, y0, y1, local); break;
            case 3: add_rows(std::integral_constant<int, 3>{}, y0, y1, local); break;
            default: add_rows(std::integral_constant<int, 4>{}, y0, y1, local); break;
        }
        std::lock_guard<std::mutex> lock(merge);
        for (int c = 0; c < image.channels; ++c) st.channel[static_cast<std::size_t>(c)].add(local[static_cast<std::size_t>(c)]);
    });
    st.selected = st.channel[0].count;
    return st;
}

}  // namespace imgpar::cpu::stats_detail
