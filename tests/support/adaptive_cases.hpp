// The cases the adaptive threshold is checked on, shared by the CPU and GPU
// suites: every size, channel count, method, and window that fits.
#pragma once

#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "src/ops/adaptive_threshold.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// Calls check(image, spec) for each case (photo-like images; C and k vary
// from case to case); returns how many.
template <typename Check>
int for_each_adaptive_case(const std::vector<std::pair<int, int>>& sizes, const std::vector<int>& windows, Check&& check) {
    int runs = 0;
    for (const auto& [w, h] : sizes)
        for (int c = 1; c <= 4; ++c)
            for (AdaptiveMethod m : {AdaptiveMethod::Mean, AdaptiveMethod::Sauvola, AdaptiveMethod::Niblack})
                for (int window : windows) {
                    if (window > w || window > h) continue;
                    CAPTURE(w);
                    CAPTURE(h);
                    CAPTURE(c);
                    CAPTURE(adaptive_method_name(m));
                    CAPTURE(window);
                    AdaptiveSpec spec;
                    spec.method = m;
                    spec.window = window;
                    spec.offset = runs % 2 ? 7.5 : -2.5;
                    spec.k = m == AdaptiveMethod::Niblack ? -0.3 : 0.25;
                    check(photo_like_image(w, h, c, static_cast<unsigned>(runs)), spec);
                    ++runs;
                }
    return runs;
}

}  // namespace imgpar::test
