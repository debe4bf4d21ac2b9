// Fuzz target: custom kernels, which users write by hand. The input is read
// both as --kernel's text (parse_kernel_text) and as a --kernel-file in
// libvips' matrix format (parse_kernel_file, through a scratch file), and a
// kernel either accepts becomes a plan (make_custom: plain, normalised,
// flipped) that filters a small RGBA image on the CPU, so the numbers reach
// the fixed-point conversion and the arithmetic whose ranges the plan
// promises.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/image.hpp"
#include "src/ops/filter.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

std::string scratch_path;

void remove_scratch_file() {
    if (!scratch_path.empty()) std::remove(scratch_path.c_str());
}

// The file parse_kernel_file reads: made once per process (in TMPDIR), so
// parallel fuzzing processes do not share it.
void make_scratch_file() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/imgpar-fuzz-kernel-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
        std::perror("fuzz_kernel: mkstemp");
        std::abort();
    }
    ::close(fd);
    scratch_path = pattern;
    std::atexit(remove_scratch_file);
}

void write_scratch_file(const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(scratch_path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
        std::perror("fuzz_kernel: writing the scratch file");
        std::abort();
    }
}

// A 6x5 RGBA image with every alpha from 0 to 255 and varied colour.
const imgpar::ImageU8& test_image() {
    static const imgpar::ImageU8 image = [] {
        imgpar::ImageU8 im(6, 5, 4);
        for (std::size_t i = 0; i < im.sample_count(); ++i) im.data()[i] = static_cast<std::uint8_t>(i * 73 + 11);
        im.data()[3] = 0;
        im.data()[7] = 255;
        return im;
    }();
    return image;
}

void plan_and_filter(const imgpar::KernelMatrix& kernel, std::size_t variant) {
    FUZZ_CHECK(kernel.width >= 1 && kernel.width <= imgpar::kMaxKernelSide);
    FUZZ_CHECK(kernel.height >= 1 && kernel.height <= imgpar::kMaxKernelSide);
    FUZZ_CHECK(kernel.values.size() == static_cast<std::size_t>(kernel.width) * kernel.height);
    // The border rule does not depend on the kernel's numbers: one per input.
    const imgpar::Border borders[] = {{imgpar::BorderMode::Replicate, 0}, {imgpar::BorderMode::Reflect, 0},
                                      {imgpar::BorderMode::Reflect101, 0}, {imgpar::BorderMode::Wrap, 0},
                                      {imgpar::BorderMode::Constant, 200}};
    const imgpar::Border border = borders[variant % 5];
    for (int form = 0; form < 3; ++form) {
        imgpar::CustomKernelOptions options;
        options.normalize = form == 1;
        options.flip = form == 2;
        imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Usage}, [&] {
            const imgpar::FilterPlan plan = imgpar::make_custom(kernel, options, border);
            imgpar::check_plan(plan);
            const imgpar::ImageU8 out = imgpar::cpu::apply_filter(plan, test_image().cview());
            FUZZ_CHECK(out.width() == test_image().width() && out.height() == test_image().height());
        });
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    make_scratch_file();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Usage}, [&] {
        plan_and_filter(imgpar::parse_kernel_text(text), size);
    });

    write_scratch_file(data, size);
    imgpar::fuzz::expect_errors_of({imgpar::ErrorKind::Input}, [&] {
        plan_and_filter(imgpar::parse_kernel_file(scratch_path), size);
    });
    return 0;
}
