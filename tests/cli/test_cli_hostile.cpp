// End to end: hostile and broken inputs as a user meets them. A crafted file
// is an error naming it (exit 1) among files that are still described; bombs
// are refused before decoding; reads stop at their bounds; running out of
// memory names the file. The files are built byte by byte
// (tests/support/hostile_files.hpp).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>

#include "tests/support/cli_runner.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::Bytes;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

void write(const std::string& path, const Bytes& b) { test::write_bytes(path, std::string(b.begin(), b.end())); }

// Runs imgpar and says how long it took, in seconds.
test::RunResult timed(const std::vector<std::string>& args, double& seconds, const std::string& cwd = "",
                      const std::string& stdin_file = "") {
    const auto t0 = std::chrono::steady_clock::now();
    test::RunResult r = run_imgpar(args, cwd, stdin_file);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

// A hostile JPEG and two good files beside it.
struct Files {
    TempDir dir;
    std::string good = test::sample_path("camera.png");
    std::string hostile = dir.file("hostile.jpg");
    Files() { write(hostile, test::oversized_huffman_jpeg()); }
};

}  // namespace

TEST_CASE("cli hostile: info good.png hostile.jpg good.png reports the hostile file and still the good ones") {
    Files f;
    auto r = run_imgpar({"info", f.good, f.hostile, f.good});
    CHECK(r.exit_code == 1);
    const std::vector<std::string> out = test::lines(r.out);
    REQUIRE(out.size() == 2);
    CHECK(has(out[0], "camera.png: png 512x512"));
    CHECK(has(out[1], "camera.png: png 512x512"));
    CHECK(has(r.err, "hostile.jpg: "));
    CHECK(has(r.err, "info: 2 described, 1 failed"));

    r = run_imgpar({"info", "--json", "--jobs", "1", f.good, f.hostile, f.good});
    CHECK(r.exit_code == 1);
    const std::vector<std::string> records = test::lines(r.out);
    REQUIRE(records.size() == 3);
    CHECK(has(records[0], "\"ok\":true"));
    CHECK(has(records[1], "\"ok\":false"));
    CHECK(has(records[1], "hostile.jpg"));
    CHECK(has(records[2], "\"ok\":true"));
}

TEST_CASE("cli hostile: every decoding command refuses a crafted JPEG, naming it, leaving no output") {
    Files f;
    write(f.dir.file("stale.jpg"), test::undefined_table_jpeg());
    for (const std::string& file : {f.hostile, f.dir.file("stale.jpg")}) {
        const std::vector<std::vector<std::string>> runs = {{"convert", file, f.dir.file("out.png")},
                                                            {"blur", file, f.dir.file("out.png"), "--device", "cpu"},
                                                            {"histo", file, "--device", "cpu"},
                                                            {"info", "--verify", file}};
        for (const auto& args : runs) {
            const auto r = run_imgpar(args);
            INFO(args[0], " ", file, ": ", r.err);
            CHECK(r.exit_code == 1);
            CHECK(has(r.err, file + ": "));
            CHECK_FALSE(test::file_exists(f.dir.file("out.png")));
        }
    }
}

TEST_CASE("cli hostile: a 328-byte JPEG claiming 16384x16384 is described, never decoded") {
    TempDir dir;
    const std::string bomb = dir.file("bomb.jpg");
    write(bomb, test::jpeg_bomb(16384));
    double s = 0;
    auto r = timed({"info", bomb}, s);
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "16384x16384"));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"info", "--verify", bomb}, {"blur", bomb, dir.file("o.png"), "--device", "cpu"}}) {
        r = timed(args, s);
        INFO(args[0], ": ", r.err);
        CHECK(r.exit_code == 1);
        CHECK(s < 5.0);  // a walk over 328 bytes (it was a 256 MiB decode and more)
        CHECK(has(r.err, "bomb.jpg: JPEG data is truncated"));
        CHECK(has(r.err, "--allow-partial"));
    }
    // Asked for, the partial image still meets the memory budget.
    r = run_imgpar({"blur", bomb, dir.file("o.png"), "--allow-partial", "--max-memory", "64M", "--device", "cpu"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "more than the limit of 64.0 MiB (raise it with --max-memory)"));
    CHECK_FALSE(test::file_exists(dir.file("o.png")));
}

TEST_CASE("cli hostile: a PNG claiming 16384x16384 RGBA is refused for blur by the default budget") {
    TempDir dir;
    const std::string bomb = dir.file("bomb.png");
    write(bomb, test::png_file(16384, 16384, 8, 6, {}));  // the header is all the check reads
    double s = 0;
    auto r = timed({"blur", bomb, dir.file("o.png"), "--device", "cpu"}, s);
    CHECK(r.exit_code == 1);
    CHECK(s < 5.0);
    CHECK(has(r.err, "bomb.png: 16384x16384 RGBA needs about "));
    CHECK(has(r.err, "of memory to decode and process, more than the limit of "));
    CHECK(has(r.err, "(raise it with --max-memory)"));
    r = run_imgpar({"info", bomb});
    CHECK(r.exit_code == 0);
}

TEST_CASE("cli --max-memory: per command's buffers, strict values, in the help") {
    const std::string camera = test::sample_path("camera.png");  // 512x512 gray
    TempDir dir;
    auto r = run_imgpar({"blur", camera, dir.file("o.png"), "--max-memory", "1M", "--device", "cpu"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png: 512x512 gray needs about "));
    CHECK(has(r.err, "more than the limit of 1.0 MiB (raise it with --max-memory)"));
    // One image-sized buffer fits where blur's five do not.
    r = run_imgpar({"histo", camera, "--max-memory", "1536K", "--device", "cpu"});
    CHECK(r.exit_code == 0);
    r = run_imgpar({"blur", camera, dir.file("o.png"), "--max-memory", "0.5G", "--device", "cpu"});
    CHECK(r.exit_code == 0);
    // Per mode: a threshold at Otsu's level holds two buffers, --adaptive its
    // intensity plane and two 64-bit tables besides (19).
    r = run_imgpar({"threshold", camera, dir.file("t.png"), "--otsu", "--max-memory", "2M", "--device", "cpu"});
    CHECK(r.exit_code == 0);
    r = run_imgpar({"threshold", camera, dir.file("a.png"), "--adaptive", "mean", "--window", "15", "--max-memory", "2M",
                    "--device", "cpu"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "more than the limit of 2.0 MiB (raise it with --max-memory)"));
    for (const char* bad : {"0", "4GB", "lots", "-5", "1.5", "2000T"}) {
        r = run_imgpar({"info", camera, "--max-memory", bad});
        INFO(bad, ": ", r.err);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "--max-memory"));
    }
    r = run_imgpar({"blur", "--help"});
    CHECK(has(r.out, "--max-memory"));
    CHECK(has(r.out, "1K = 1024"));
    CHECK(has(r.out, "--allow-partial"));
}

TEST_CASE("cli hostile: /dev/zero, standard input and --kernel-file are read within bounds, naming the file") {
    TempDir dir;
    double s = 0;
    // A list of files too: refused at its bound, not read until memory runs out.
    auto list = timed({"info", "--files-from", "/dev/zero"}, s);
    CHECK(list.exit_code == 1);
    CHECK(s < 10.0);
    CHECK(has(list.err, "--files-from /dev/zero: "));
    CHECK(has(list.err, "more than 256 MiB, the most imgpar reads as a list of files"));
    auto r = timed({"info", "/dev/zero"}, s);
    CHECK(r.exit_code == 1);
    CHECK(s < 5.0);
    CHECK(has(r.err, "/dev/zero: not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image"));
    r = timed({"blur", "-", dir.file("o.png")}, s, "", "/dev/zero");
    CHECK(r.exit_code == 1);
    CHECK(s < 5.0);
    CHECK(has(r.err, "<stdin>: not a PNG, JPEG, BMP, WebP, AVIF, GIF or TIFF image"));
    r = timed({"convolve", test::sample_path("camera.png"), dir.file("o.png"), "--kernel-file", "/dev/zero"}, s);
    CHECK(r.exit_code == 1);
    CHECK(s < 5.0);
    CHECK(has(r.err, "/dev/zero: more than 1048576 bytes (1.0 MiB) come from it, more than 1 MiB, the most a kernel"));
    // A file larger than the budget is refused from its size.
    const std::string big = dir.file("big.png");
    const int fd = ::open(big.c_str(), O_CREAT | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, "\x89PNG\r\n\x1a\n", 8) == 8);
    REQUIRE(::ftruncate(fd, off_t{3} << 30) == 0);  // sparse: 3 GiB of nothing
    ::close(fd);
    r = timed({"info", big}, s);
    CHECK(r.exit_code == 1);
    CHECK(s < 5.0);
    CHECK(has(r.err, "big.png: the file is 3221225472 bytes (3.0 GiB), more than "));
}

TEST_CASE("cli hostile: running out of memory names the file") {
    TempDir dir;
    const std::string big = dir.file("big.png");
    const int fd = ::open(big.c_str(), O_CREAT | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, "\x89PNG\r\n\x1a\n", 8) == 8);
    REQUIRE(::ftruncate(fd, off_t{1} << 30) == 0);  // within every budget, beyond the limit below
    ::close(fd);
    // 400 MB of address space: enough to start, not to hold a 1 GiB file.
    const auto r = test::run_imgpar_with_memory_limit(400000, {"blur", big, dir.file("o.png"), "--max-memory", "8G"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "big.png: out of memory"));
}

TEST_CASE("cli hostile: a cut JPEG fails unless --allow-partial") {
    TempDir dir;
    const std::string jpeg = test::read_bytes(test::sample_path("rocket.jpg"));
    const std::string cut = dir.file("cut.jpg");
    test::write_bytes(cut, jpeg.substr(0, jpeg.size() / 2));
    auto r = run_imgpar({"convert", cut, dir.file("o.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "cut.jpg: JPEG data is truncated"));
    CHECK(has(r.err, "--allow-partial"));
    CHECK_FALSE(test::file_exists(dir.file("o.png")));
    r = run_imgpar({"info", cut});  // headers only
    CHECK(r.exit_code == 0);
    r = run_imgpar({"convert", cut, dir.file("o.png"), "--allow-partial"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "warning: " + cut + ": JPEG data is truncated"));
    CHECK(test::file_exists(dir.file("o.png")));
}

TEST_CASE("cli hostile: each failure's reason is its own file's") {
    TempDir dir;
    const Bytes png = test::png_file(8, 8, 8, 0, std::vector<Bytes>(8, Bytes(8, 1)));
    write(dir.file("cut.png"), Bytes(png.begin(), png.end() - 20));
    write(dir.file("stale.jpg"), test::undefined_table_jpeg());
    write(dir.file("stale.bmp"), test::bmp_8bit(4, 1, 1, {{0, 3, 0, 0}}));
    const auto r = run_imgpar({"info", "--verify", "--jobs", "1", dir.file("stale.jpg"), dir.file("cut.png"),
                               dir.file("stale.bmp"), dir.file("cut.png")});
    CHECK(r.exit_code == 1);
    for (const std::string& line : test::lines(r.err)) {
        INFO(line);
        if (has(line, "cut.png: ")) {
            CHECK(has(line, "PNG data is truncated"));
            CHECK_FALSE(has(line, "JPEG"));
            CHECK_FALSE(has(line, "chunk type"));
        }
        if (has(line, "stale.bmp: ")) {
            CHECK(has(line, "palette"));
            CHECK_FALSE(has(line, "JPEG"));
            CHECK_FALSE(has(line, "PNG"));
        }
    }
}
