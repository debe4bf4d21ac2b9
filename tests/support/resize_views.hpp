// GPU resizes into a view inside a wider device image, for the tests of the
// tiles' staged stores (8- and 16-bit): the view must hold the CPU's samples
// and the sentinels around it stay untouched.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/resize.hpp"
#include "cuda/session.hpp"
#include "src/ops/resize.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/test_images.hpp"

namespace imgpar::test {

// `img` resized to ow x oh with `filter` into a view `offset` pixels into an
// image 3 pixels wider filled with `sentinel`; returns the kernel's name.
template <typename T>
std::string check_resize_into_view(const Image<T>& img, ResizeFilter filter, int ow, int oh, int offset,
                                   cuda::TilePasses passes, T sentinel) {
    const int iw = img.width(), ih = img.height(), c = img.channels();
    const ResizePlan plan = resize_plan(filter, iw, ih, {ow, oh, 0, 0, ow, oh}, sample_type_of<T>);
    Image<T> want(ow, oh, c);
    cpu::resize(plan, img.view(), want.view());
    const cudaStream_t s = stream();
    cuda::DeviceImage<T> src(iw, ih, c), wide(ow + 3, oh, c);
    src.upload(img.view(), s);
    Image<T> around(ow + 3, oh, c);
    for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow + 3; ++x)
            for (int ch = 0; ch < c; ++ch) around.at(x, y, ch) = sentinel;
    wide.upload(around.view(), s);
    DeviceView<T> dst = wide.view();
    dst.data += static_cast<std::size_t>(offset) * c;
    dst.width = ow;
    std::string kernel;
    if constexpr (sizeof(T) == 1)
        cuda::resize(plan, src.view(), dst, session().impl().resizes, s, &kernel, true, passes);
    else  // 16-bit samples: the CUDA cores' tiles (passes is Cores)
        cuda::resize(plan, src.view(), dst, session().impl().resizes, s, &kernel, true);
    Image<T> got(ow + 3, oh, c);
    wide.download(got.view(), s);
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    Image<T> inner(ow, oh, c);
    int untouched = 0;
    for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow + 3; ++x)
            for (int ch = 0; ch < c; ++ch) {
                if (x >= offset && x < offset + ow) inner.at(x - offset, y, ch) = got.at(x, y, ch);
                else untouched += got.at(x, y, ch) == sentinel;
            }
    CHECK(untouched == 3 * oh * c);
    IMGPAR_CHECK_IMAGES_EQUAL(want, inner);
    return kernel;
}

}  // namespace imgpar::test
