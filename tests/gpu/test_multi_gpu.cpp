// A batch over several GPUs (--device gpu:all, gpu:0,1): every file's bytes
// are the CPU's whichever GPU computed it, each GPU computes a share when
// there are two or more, and a pool's leases hold sessions of the GPU they
// name. On a machine with one GPU the same paths run with that one.
#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "src/run/engine.hpp"
#include "src/backend_pool.hpp"
#include "src/gpu_runtime.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/save.hpp"
#include "src/op/operation.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::run_imgpar;
using test::TempDir;

namespace {

int usable_gpus() {
    int n = 0;
    for (const auto& d : gpu_status().devices) n += d.usable ? 1 : 0;
    return n;
}

// The GPU indices named by the records' "gpu" members.
std::set<int> gpus_in(const std::vector<std::string>& records) {
    std::set<int> gpus;
    for (const std::string& r : records) {
        const std::size_t at = r.find("\"gpu\":");
        if (at != std::string::npos) gpus.insert(std::stoi(r.substr(at + 6)));
    }
    return gpus;
}

}  // namespace

TEST_CASE("multi-GPU batch: --device gpu:all writes the CPU's bytes for every file, and every GPU computes some") {
    const int gpus = usable_gpus();
    REQUIRE(gpus >= 1);
    TempDir dir;
    std::vector<std::string> all = {"blur", "--sigma", "2", "--device", "gpu:all", "--jobs", "12", "--out-dir", "g", "--json", "-v"};
    std::vector<std::string> cpu = {"blur", "--sigma", "2", "--device", "cpu", "--out-dir", "c"};
    // 48 JPEGs (enough that the hardware decoders start on each GPU) of
    // every chroma layout and some gray, then PNGs of every channel count.
    const ChromaSubsampling chroma[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};
    int files = 0;
    for (int i = 0; i < 48; ++i, ++files) {
        const ImageU8 img = test::photo_like_image(257 + 31 * i, 131 + 13 * i, i % 11 == 5 ? 1 : 3, 300 + i);
        const std::vector<std::uint8_t> bytes = jpeg_encode(img.view(), 90, chroma[i % 3], nullptr);
        const std::string name = "j" + std::to_string(i) + ".jpg";
        test::write_bytes(dir.file(name), std::string(bytes.begin(), bytes.end()));
        all.push_back(name);
        cpu.push_back(name);
    }
    for (int c = 1; c <= 4; ++c, ++files) {
        const std::string name = "p" + std::to_string(c) + ".png";
        std::vector<std::string> warnings;
        save_image(dir.file(name), test::photo_like_image(640 + c, 481 - c, c, 400 + c).view(), SaveOptions{}, warnings);
        all.push_back(name);
        cpu.push_back(name);
    }
    const test::RunResult g = run_imgpar(all, dir.path());
    REQUIRE(g.exit_code == 0);
    const std::vector<std::string> records = test::lines(g.out);
    REQUIRE(records.size() == static_cast<std::size_t>(files));
    for (const std::string& r : records) CHECK(r.find("\"backend\":\"gpu\"") != std::string::npos);
    REQUIRE(run_imgpar(cpu, dir.path()).exit_code == 0);
    for (const std::string& in : std::vector<std::string>(all.begin() + 11, all.end())) {
        CAPTURE(in);
        CHECK(test::read_bytes(dir.file("g/" + in)) == test::read_bytes(dir.file("c/" + in)));
    }
    const std::set<int> used = gpus_in(records);
    MESSAGE("usable GPUs: " << gpus << "; GPUs that computed files: " << used.size());
    if (gpus >= 2) {
        CHECK(used.size() == static_cast<std::size_t>(gpus));
        CHECK(g.err.find("GPUs: files computed on each: gpu 0 ") != std::string::npos);
    } else {
        CHECK(used == std::set<int>{0});
    }

    // A list names the GPUs: only those compute.
    const std::string last = std::to_string(gpus - 1);
    std::vector<std::string> listed = all;
    listed[4] = gpus >= 2 ? "gpu:" + last + ",0" : "gpu:0";
    listed[8] = "l";
    const test::RunResult l = run_imgpar(listed, dir.path());
    REQUIRE(l.exit_code == 0);
    CHECK(gpus_in(test::lines(l.out)) == (gpus >= 2 ? std::set<int>{0, gpus - 1} : std::set<int>{0}));
    for (int i = 0; i < 48; i += 7) {
        const std::string name = "j" + std::to_string(i) + ".jpg";
        CHECK(test::read_bytes(dir.file("l/" + name)) == test::read_bytes(dir.file("c/" + name)));
    }
}

TEST_CASE("multi-GPU batch: a listed GPU that does not exist is the device error (exit 3), a GPU named twice a usage error") {
    TempDir dir;
    std::vector<std::string> warnings;
    save_image(dir.file("a.png"), test::photo_like_image(64, 48, 3, 1).view(), SaveOptions{}, warnings);
    const std::string missing = std::to_string(gpu_status().devices.size());
    test::RunResult r = run_imgpar({"blur", "--device", "gpu:0," + missing, "a.png", "b.png"}, dir.path());
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("there is no GPU " + missing) != std::string::npos);
    r = run_imgpar({"blur", "--device", "gpu:0,0", "a.png", "b.png"}, dir.path());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("GPU 0 is named twice") != std::string::npos);
    // A single file with gpu:all runs on the first GPU.
    r = run_imgpar({"blur", "--device", "gpu:all", "a.png", "b.png", "--json"}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("\"gpu\":0") != std::string::npos);
}

TEST_CASE("multi-GPU pool: each lease holds a session of the GPU it names, sessions stay within the limits, results are the CPU's") {
    const int gpus = usable_gpus();
    const Operation* blur = find_operation("blur");
    REQUIRE(blur);
    const auto job = blur->make_image_job(blur->values({{"sigma", "1.5"}}));
    PoolOptions options;
    options.sessions_per_gpu = 2;
    options.max_sessions = 2 * gpus;
    std::atomic<int> warmed{0};
    options.warm_up = [&](const BackendChoice& c) {
        prepare_session(c, {{300, 200, 3, SampleType::U8}});
        ++warmed;
    };
    BackendPool pool([] { return select_backend(parse_device_request("gpu:all")); }, options);
    REQUIRE(pool.choice().backend == Backend::Gpu);
    CHECK(pool.choice().gpus.size() == static_cast<std::size_t>(gpus));

    std::atomic<int> mismatches{0}, wrong_device{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 3 * gpus + 2; ++t)
        threads.emplace_back([&, t] {
            for (int k = 0; k < 6; ++k) {
                const ImageU8 img = test::photo_like_image(97 + 13 * k, 61 + 7 * t, 1 + (t + k) % 4, 700 + t * 6 + k);
                RunNotes notes;
                const ImageU8 want = job->run_cpu(img.view(), notes);
                const BackendPool::Lease lease = pool.lease();
                if (lease.choice().session->device() != lease.choice().gpu_index) ++wrong_device;
                const ImageU8 got = job->run(lease.choice(), img.view(), notes);
                if (first_mismatch(want.view(), got.view()).found) ++mismatches;
            }
        });
    for (auto& th : threads) th.join();
    CHECK(mismatches == 0);
    CHECK(wrong_device == 0);
    CHECK(pool.sessions_opened() <= 2 * gpus);
    CHECK(warmed == gpus - 1);  // the further GPUs' first sessions (the selection readies none here)
    int leased = 0;
    for (const auto& [gpu, n] : pool.leases_by_gpu()) {
        CAPTURE(gpu);
        CHECK(n > 0);
        leased += n;
    }
    CHECK(leased == (3 * gpus + 2) * 6);
}
