// Every declared operation that takes 16-bit images, every one of its
// examples, on the GPU against the CPU reference with u16 inputs: exact
// samples, identical reports and arrays, on awkward sizes and every channel
// layout. An operation that starts taking u16 is covered here at once; the
// ones that do not yet are listed in the run's messages.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/op/operation.hpp"
#include "tests/support/gpu_session.hpp"
#include "tests/support/operation_support.hpp"
#include "tests/support/u16_images.hpp"

using namespace imgpar;

namespace {

ImageU16 input16(int w, int h, int c, int kind) {
    switch (kind) {
        case 0: return test::photo_like_image16(w, h, c, 21);
        case 1: return test::random_image16(w, h, c, 22);
        default: return test::constant_image16(w, h, c, 65535);
    }
}

std::string usage_error_of16(const ImageJob& job, const BackendChoice& backend, const ImageU16& img) {
    try {
        RunNotes notes;
        (void)job.run(backend, img.view(), notes);
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::Usage) return e.what();
        throw;
    }
    return {};
}

}  // namespace

TEST_CASE("gpu: every example of every operation that takes u16 gives the CPU's samples") {
    const BackendChoice cpu, gpu = test::gpu_backend();
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {17, 13}, {131, 67}};
    int runs = 0;
    std::string not_taking;
    for (const Operation& op : operations()) {
        bool takes = false;
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
                        const ImageU16 img = input16(w, h, c, kind);
                        RunNotes cpu_notes, gpu_notes;
                        if (op.kind == OperationKind::ImageToImage) {
                            const auto job = op.make_image_job(op.values(e.values));
                            if (!job->takes_u16()) continue;
                            takes = true;
                            const ImageShape shape = job->output_shape({w, h, c, SampleType::U16});
                            CHECK(shape.type == SampleType::U16);
                            const std::string refused = usage_error_of16(*job, cpu, img);
                            if (!refused.empty()) {
                                CHECK(usage_error_of16(*job, gpu, img) == refused);
                                continue;
                            }
                            const ImageU16 want = job->run(cpu, img.view(), cpu_notes);
                            const ImageU16 got = job->run(gpu, img.view(), gpu_notes);
                            CHECK(want.width() == shape.width);
                            CHECK(want.height() == shape.height);
                            CHECK(want.channels() == shape.channels);
                            IMGPAR_CHECK_IMAGES_EQUAL(want, got);
                            CHECK(cpu_notes.details.str() == gpu_notes.details.str());
                        } else if (op.kind == OperationKind::ImageToArray) {
                            const auto job = op.make_array_job(op.values(e.values));
                            if (!job->takes_u16()) continue;
                            takes = true;
                            const NpyFile want = job->run(cpu, img.view(), "img", cpu_notes);
                            const NpyFile got = job->run(gpu, img.view(), "img", gpu_notes);
                            REQUIRE(want.size() == got.size());
                            CHECK(std::memcmp(want.bytes(), got.bytes(), want.size()) == 0);
                        } else {
                            const auto job = op.make_report_job(op.values(e.values));
                            if (!job->takes_u16()) continue;
                            takes = true;
                            const std::string want =
                                job->run(cpu, {"img", "cpu"}, img.view(), ReportFormat::Json, cpu_notes);
                            const std::string got =
                                job->run(gpu, {"img", "gpu"}, img.view(), ReportFormat::Json, gpu_notes);
                            CHECK(test::without_backend(want) == test::without_backend(got));
                        }
                        CHECK_FALSE(gpu_notes.kernel.empty());
                        ++runs;
                    }
        if (!takes) not_taking += (not_taking.empty() ? "" : ", ") + op.name;
    }
    MESSAGE(runs, " u16 runs compared; operations not taking u16: ", not_taking.empty() ? "none" : not_taking);
}
