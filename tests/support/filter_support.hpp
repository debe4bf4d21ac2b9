// Helpers shared by the filter test suites (CPU and GPU).
#pragma once

#include <utility>
#include <vector>

#include "src/image.hpp"
#include "src/ops/filter.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// A w x h kernel with the given row-major values and no file header.
inline KernelMatrix matrix(int w, int h, std::vector<double> values) {
    KernelMatrix k;
    k.width = w;
    k.height = h;
    k.values = std::move(values);
    return k;
}

// Random colour for 1 and 3 channels; random colour with transparent, opaque
// and partial alpha regions for 2 and 4.
inline ImageU8 test_image(int w, int h, int c, unsigned seed) {
    return has_alpha(c) ? alpha_image(w, h, c, seed) : random_image(w, h, c, seed);
}

}  // namespace imgpar::test
