// Every declared operation (src/op/catalog.cpp), every one of its examples,
// on the GPU through a session against the CPU reference: exact bytes for
// images, identical reports, on awkward sizes and every channel layout. An
// operation added to the catalog is covered here without a test of its own.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;

namespace {

ImageU8 input(int w, int h, int c, int kind) {
    switch (kind) {
        case 0: return has_alpha(c) ? test::alpha_image(w, h, c, 11) : test::photo_like_image(w, h, c, 11);
        case 1: return test::random_image(w, h, c, 12);
        default: return test::constant_image(w, h, c, 255);
    }
}

// The message of the usage error `run` throws, or empty when it throws none.
template <typename Run>
std::string usage_error_of(Run&& run) {
    try {
        run();
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::Usage) return e.what();
        throw;
    }
    return {};
}

}  // namespace

TEST_CASE("gpu: every example of every operation gives the CPU's bytes, on every layout and awkward sizes") {
    const BackendChoice cpu, gpu = test::gpu_backend();
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {17, 13}, {131, 67}};
    int runs = 0;
    for (const Operation& op : operations())
        for (const Example& e : op.examples)
            for (int c = 1; c <= 4; ++c)
                for (const auto& [w, h] : sizes)
                    for (int kind = 0; kind < 3; ++kind) {
                        CAPTURE(op.name);
                        CAPTURE(e.label);
                        CAPTURE(c);
                        CAPTURE(w);
                        CAPTURE(h);
                        CAPTURE(kind);
                        const ImageU8 img = input(w, h, c, kind);
                        RunNotes cpu_notes, gpu_notes;
                        if (op.kind == OperationKind::ImageToImage) {
                            const auto job = op.make_image_job(op.values(e.values));
                            // An image an example cannot take (a window larger than it)
                            // is refused on both backends, with the same message.
                            RunNotes probe_notes;
                            const std::string refused =
                                usage_error_of([&] { (void)job->run(cpu, img.view(), probe_notes); });
                            if (!refused.empty()) {
                                CHECK(usage_error_of([&] { (void)job->run(gpu, img.view(), probe_notes); }) == refused);
                                continue;
                            }
                            const ImageU8 want = job->run(cpu, img.view(), cpu_notes);
                            const ImageU8 got = job->run(gpu, img.view(), gpu_notes);
                            IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                            CHECK(cpu_notes.details.str() == gpu_notes.details.str());
                        } else if (op.kind == OperationKind::ImageToArray) {
                            const auto job = op.make_array_job(op.values(e.values));
                            const NpyFile want = job->run(cpu, img.view(), "img", cpu_notes);
                            const NpyFile got = job->run(gpu, img.view(), "img", gpu_notes);
                            REQUIRE(want.size() == got.size());
                            CHECK(std::memcmp(want.bytes(), got.bytes(), want.size()) == 0);
                            CHECK(cpu_notes.details.str() == gpu_notes.details.str());
                        } else {
                            const auto job = op.make_report_job(op.values(e.values));
                            const std::string want =
                                job->run(cpu, {"img", "cpu"}, img.view(), ReportFormat::Json, cpu_notes);
                            const std::string got =
                                job->run(gpu, {"img", "gpu"}, img.view(), ReportFormat::Json, gpu_notes);
                            CHECK(test::without_backend(want) == test::without_backend(got));
                        }
                        CHECK_FALSE(gpu_notes.kernel.empty());
                        ++runs;
                    }
    MESSAGE(runs, " runs compared");
}

TEST_CASE("gpu: a session reuses its device images: a batch of files allocates once") {
    const BackendChoice gpu = test::gpu_backend();
    const Operation& blur = *find_operation("blur");
    const auto job = blur.make_image_job(blur.values());
    RunNotes notes;
    // The largest first: every later file fits the slots it left.
    const ImageU8 big = test::photo_like_image(640, 480, 3, 1);
    (void)job->run(gpu, big.view(), notes);
    const DeviceViewU8 slot = test::session().image<std::uint8_t>(gpu::Session::Slot::Input, 640, 480, 3);
    for (int i = 0; i < 20; ++i) {
        const ImageU8 img = test::photo_like_image(300 + i, 200 + i, 1 + i % 4, static_cast<unsigned>(i));
        const ImageU8 got = job->run(gpu, img.view(), notes);
        RunNotes cpu_notes;
        IMGPAR_CHECK_IMAGES_EQUAL(job->run(BackendChoice{}, img.view(), cpu_notes), got);
    }
    // Same device memory as before the batch: nothing was reallocated.
    CHECK(test::session().image<std::uint8_t>(gpu::Session::Slot::Input, 640, 480, 3).data == slot.data);
}
