// Many files on the GPU at once: the built tool with --device gpu and several
// workers, each leasing its own session, must write exactly the bytes the CPU
// writes; a session readied for an image (prepare_session) computes what a
// cold one does; a pool hands each session to one worker at a time.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "src/backend_pool.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/io/metadata.hpp"
#include "src/io/save.hpp"
#include "src/op/operation.hpp"
#include "src/run/chain.hpp"
#include "src/run/engine.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::run_imgpar;
using test::TempDir;

namespace {

// Sizes that cross tiles and staging pieces, every channel count.
struct Shape {
    int w, h, c;
};
const Shape kShapes[] = {{1, 1, 1}, {1, 97, 3}, {97, 1, 4}, {257, 131, 2}, {640, 480, 3}, {1023, 769, 4},
                         {1920, 1080, 3}, {2049, 1031, 1}, {3001, 2003, 3}, {129, 4099, 4}, {800, 600, 1}, {1500, 1500, 2}};

}  // namespace

TEST_CASE("gpu batch: --device gpu with 8 workers writes the CPU's bytes for every file") {
    TempDir dir;
    std::vector<std::string> args_gpu = {"blur", "--sigma", "2.5", "--device", "gpu", "--jobs", "8", "--out-dir", "g"};
    std::vector<std::string> args_cpu = {"blur", "--sigma", "2.5", "--device", "cpu", "--out-dir", "c"};
    int i = 0;
    for (const Shape& s : kShapes) {
        const std::string name = "in" + std::to_string(i) + ".png";
        std::vector<std::string> warnings;
        save_image(dir.file(name), test::photo_like_image(s.w, s.h, s.c, 40 + i).view(), SaveOptions{}, warnings);
        args_gpu.push_back(name);
        args_cpu.push_back(name);
        ++i;
    }
    args_gpu.push_back("--json");
    const test::RunResult g = run_imgpar(args_gpu, dir.path());
    REQUIRE(g.exit_code == 0);
    CHECK(test::lines(g.out).size() == std::size(kShapes));
    CHECK(g.out.find("\"backend\":\"cpu\"") == std::string::npos);
    REQUIRE(run_imgpar(args_cpu, dir.path()).exit_code == 0);
    for (int k = 0; k < i; ++k) {
        const std::string name = "in" + std::to_string(k) + ".png";
        CAPTURE(name);
        CHECK(test::read_bytes(dir.file("g/" + name)) == test::read_bytes(dir.file("c/" + name)));
    }
}

TEST_CASE("gpu batch: a run on the GPU with a bad file prints every line, the summary and exit 1") {
    TempDir dir;
    std::vector<std::string> args = {"blur", "--sigma", "1", "--device", "gpu", "--jobs", "3", "--out-dir", "g", "--json"};
    for (int i = 0; i < 5; ++i) {
        const std::string name = "in" + std::to_string(i) + ".png";
        std::vector<std::string> warnings;
        save_image(dir.file(name), test::photo_like_image(64 + i, 48, 3, i).view(), SaveOptions{}, warnings);
        args.push_back(name);
    }
    test::write_bytes(dir.file("bad.png"), std::string("\x89PNG\r\n\x1a\n\0\0", 10));
    args.push_back("bad.png");
    const test::RunResult r = run_imgpar(args, dir.path());
    CHECK(r.exit_code == 1);
    const std::vector<std::string> lines = test::lines(r.out);
    REQUIRE(lines.size() == 6);
    CHECK(test::has(lines[5], "\"ok\":false"));
    CHECK(test::has(r.err, "5 written, 1 failed; 6 files"));
    for (int i = 0; i < 5; ++i) CHECK(std::filesystem::file_size(dir.file("g/in" + std::to_string(i) + ".png")) > 0);

    const test::RunResult one = run_imgpar({"blur", "--sigma", "1", "--device", "gpu", "in0.png", "one.png"}, dir.path());
    CHECK(one.exit_code == 0);
    CHECK(std::filesystem::file_size(dir.file("one.png")) > 0);
    CHECK(run_imgpar({"blur", "--device", "gpu", "missing.png", "x.png"}, dir.path()).exit_code == 1);
}

TEST_CASE("gpu batch: a warmed-up session and pooled sessions on several threads compute the CPU's result") {
    const Operation* blur = find_operation("blur");
    REQUIRE(blur);
    const auto job = blur->make_image_job(blur->values({{"sigma", "1.5"}}));
    BackendPool pool([] { return select_backend(parse_device_request("gpu")); }, 3);
    REQUIRE(pool.choice().backend == Backend::Gpu);
    const Chain chain = Chain::of(*blur, blur->make_image_job(blur->values({{"sigma", "1.5"}})), "blur");
    prepare_session(pool.choice(), chain.shapes({1000, 700, 3, SampleType::U8}, "warm-up"));

    std::atomic<int> mismatches{0}, in_use{0}, most_in_use{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&, t] {
            for (int k = 0; k < 4; ++k) {
                const Shape& s = kShapes[(t * 4 + k) % std::size(kShapes)];
                const ImageU8 img = test::photo_like_image(s.w, s.h, s.c, 100 + t * 4 + k);
                RunNotes notes;
                const ImageU8 want = job->run_cpu(img.view(), notes);
                const BackendPool::Lease lease = pool.lease();
                const int now = ++in_use;
                for (int m = most_in_use; now > m && !most_in_use.compare_exchange_weak(m, now);) {
                }
                const ImageU8 got = job->run(lease.choice(), img.view(), notes);
                --in_use;
                if (first_mismatch(want.view(), got.view()).found) ++mismatches;
            }
        });
    for (auto& th : threads) th.join();
    CHECK(mismatches == 0);
    CHECK(most_in_use <= 3);
    CHECK(pool.sessions_opened() <= 3);
}

TEST_CASE("gpu batch: JPEG results are encoded on the GPU with the CPU path's bytes, metadata kept") {
    TempDir dir;
    std::vector<std::string> args = {"blur",         "--sigma",  "2",           "--device", "gpu", "--jpeg-encoder",
                                     "gpu",          "--output", "g/{stem}.jpg", "--json"};
    std::vector<std::string> args_cpu = {"blur", "--sigma", "2", "--device", "cpu", "--out-dir", "c"};
    ImageMetadata meta;
    meta.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // a TIFF header and an empty IFD
    meta.icc.assign(3000, 7);
    // 36 files (enough for the hardware decoder to start): RGB in every
    // chroma layout, gray, and one with alpha (JPEG drops it, and says so).
    const int kFiles = 36;
    for (int i = 0; i < kFiles; ++i) {
        const int channels = i % 9 == 4 ? 1 : 3;
        const ImageU8 img = test::photo_like_image(300 + 17 * i, 200 + 5 * i, channels, 90 + i);
        const ChromaSubsampling chroma[] = {ChromaSubsampling::S444, ChromaSubsampling::S422, ChromaSubsampling::S420};
        const std::vector<std::uint8_t> bytes = jpeg_encode(img.view(), 92, chroma[i % 3], i % 2 ? &meta : nullptr);
        const std::string name = "p" + std::to_string(i) + ".jpg";
        test::write_bytes(dir.file(name), std::string(bytes.begin(), bytes.end()));
        args.push_back(name);
        args_cpu.push_back(name);
    }
    std::vector<std::string> warnings;
    save_image(dir.file("alpha.png"), test::alpha_image(120, 80, 4, 3).view(), SaveOptions{}, warnings);
    args.push_back("alpha.png");
    const test::RunResult g = run_imgpar(args, dir.path());
    REQUIRE(g.exit_code == 0);
    REQUIRE(run_imgpar(args_cpu, dir.path()).exit_code == 0);
    const std::vector<std::string> records = test::lines(g.out);
    REQUIRE(records.size() == kFiles + 1);
    for (int i = 0; i < kFiles; ++i) {
        CAPTURE(i);
        CHECK(records[static_cast<std::size_t>(i)].find("\"encoded_on\":\"gpu\"") != std::string::npos);
        const std::string name = "p" + std::to_string(i) + ".jpg";
        const std::string out = test::read_bytes(dir.file("g/" + name));
        const ImageMetadata kept =
            read_jpeg_metadata(reinterpret_cast<const std::uint8_t*>(out.data()), out.size());
        CHECK(kept.exif == (i % 2 ? meta.exif : std::vector<std::uint8_t>{}));
        CHECK(kept.icc == (i % 2 ? meta.icc : std::vector<std::uint8_t>{}));
        // The same blur on the CPU, encoded by libjpeg-turbo: the same bytes.
        CHECK(out == test::read_bytes(dir.file("c/" + name)));
    }
    CHECK(records.back().find("\"encoded_on\":\"gpu\"") != std::string::npos);
    CHECK(g.err.find("alpha.jpg") != std::string::npos);  // warnings name the output, as save_image's do
    CHECK(g.err.find("alpha dropped") != std::string::npos);
    // --jpeg-encoder cpu: the cores encode, to the same bytes.
    std::vector<std::string> args_cores = args;
    args_cores[8] = "k/{stem}.jpg";
    args_cores[6] = "cpu";
    const test::RunResult k = run_imgpar(args_cores, dir.path());
    REQUIRE(k.exit_code == 0);
    for (const std::string& line : test::lines(k.out)) CHECK(line.find("\"encoded_on\":\"cpu\"") != std::string::npos);
    for (int i = 0; i < kFiles; ++i) {
        const std::string name = "p" + std::to_string(i) + ".jpg";
        CHECK(test::read_bytes(dir.file("k/" + name)) == test::read_bytes(dir.file("g/" + name)));
    }
}
