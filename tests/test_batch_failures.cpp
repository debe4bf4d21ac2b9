// run_batch's rule for what a file's run throws: a refusal of that file (an
// input or output error, and a usage error raised while the file runs: a
// GPU kernel's limit on the image, a parameter the image cannot take) fails
// the file alone and the batch goes on; a device error (the GPU asked for is
// gone) ends the batch, to be retried elsewhere.
#include <doctest/doctest.h>

#include <sstream>

#include "src/backend_pool.hpp"
#include "src/error.hpp"
#include "src/run/batch.hpp"
#include "src/run/diagnostics.hpp"

using namespace imgpar;

namespace {

struct Run {
    BatchSummary summary;
    std::string out, err;
};

Run run_three(const std::function<void(const BatchItem&)>& body, int jobs) {
    BackendPool backend([] { return BackendChoice{}; }, 1);
    MemoryBudget memory(std::size_t{1} << 30);
    std::ostringstream out, err;
    const Diagnostics diag(err, false, false);
    BatchSettings settings;
    settings.jobs = jobs;
    const ProcessItem process = [&](std::size_t, const BatchItem& item, WorkerContext&) {
        body(item);
        return ItemResult{false, item.name + " ok\n"};
    };
    const ItemFailure failure = [](std::size_t, const BatchItem& item, const Error& e) {
        return item.name + " failed (" + std::to_string(static_cast<int>(e.kind())) + "): " + e.what() + "\n";
    };
    Run r;
    r.summary = run_batch(batch_items({"a.png", "b.png", "c.png"}), settings, backend, memory, diag, out, process, failure);
    r.out = out.str();
    r.err = err.str();
    return r;
}

}  // namespace

TEST_CASE("batch: a usage error raised while a file runs fails that file alone, as an input error naming it") {
    for (const int jobs : {1, 3}) {
        CAPTURE(jobs);
        const Run r = run_three(
            [](const BatchItem& item) {
                if (item.name == "b.png") throw usage_error("custom filter", "the image is too tall for this GPU kernel");
            },
            jobs);
        CHECK(r.summary.done == 2);
        CHECK(r.summary.failed == 1);
        CHECK(r.out.find("a.png ok") != std::string::npos);
        CHECK(r.out.find("c.png ok") != std::string::npos);
        const std::string input = std::to_string(static_cast<int>(ErrorKind::Input));
        CHECK(r.out.find("b.png failed (" + input + "): b.png: custom filter: the image is too tall for this GPU kernel") !=
              std::string::npos);
        CHECK(r.err.find("b.png: custom filter: the image is too tall") != std::string::npos);
    }
}

TEST_CASE("batch: a device error ends the batch (the run is retried elsewhere)") {
    CHECK_THROWS_AS(run_three(
                        [](const BatchItem& item) {
                            if (item.name == "b.png") throw device_error("--device gpu", "the GPU failed");
                        },
                        1),
                    Error);
}
