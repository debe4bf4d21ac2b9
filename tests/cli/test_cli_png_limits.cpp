// End to end: PNG headers that claim huge rows. Reading a header costs a few
// kilobytes whatever it claims; decoding counts libpng's own rows in the
// estimate checked against --max-memory, and holds no array of row
// pointers. Peaks are measured (tests/support/peak_rss.hpp) beyond the
// process's own (imgpar --version's).
#include <doctest/doctest.h>

#include <chrono>

#include "tests/support/cli_runner.hpp"
#include "tests/support/hostile_files.hpp"
#include "tests/support/peak_rss.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::TempDir;

namespace {

constexpr std::uint64_t kMiB = 1024;  // in KiB

void write(const std::string& path, const test::Bytes& b) { test::write_bytes(path, std::string(b.begin(), b.end())); }

std::uint64_t process_kib() { return test::run_measured({"--version"}).peak_kib; }

// KiB a run took beyond the process's own.
std::uint64_t beyond(const test::PeakRun& r, std::uint64_t base) { return r.peak_kib > base ? r.peak_kib - base : 0; }

// A valid PNG of 74 bytes or so whose header claims `width` x `height`
// pixels, with no image data.
std::string claiming(const TempDir& dir, const std::string& name, int width, int height, int depth, int colour) {
    const std::string path = dir.file(name);
    write(path, test::png_file(width, height, depth, colour, {}));
    return path;
}

}  // namespace

TEST_CASE("cli memory: a 74-byte PNG claiming 2^28 RGBA16 pixels a row costs info a few MiB, with -j4 too") {
    TempDir dir;
    const std::string wide = claiming(dir, "wide.png", 1 << 28, 1, 16, 6);
    const std::uint64_t base = process_kib();
    const auto t0 = std::chrono::steady_clock::now();
    test::PeakRun r = test::run_measured({"info", wide});
    CHECK(r.exit_code == 0);
    INFO("info took ", beyond(r, base), " KiB beyond the process's own");
    CHECK(beyond(r, base) < 8 * kMiB);  // it was 2.0 GiB: libpng's two rows of 2^28 RGBA16 pixels
    r = test::run_measured({"info", "-j", "4", wide, wide, wide, wide});
    CHECK(r.exit_code == 0);
    CHECK(beyond(r, base) < 8 * kMiB);  // 7.8 GiB
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 10.0);
}

TEST_CASE("cli memory: histo -j4 refuses PNGs whose rows alone exceed --max-memory, naming each, and goes on") {
    TempDir dir;
    const std::string wide = claiming(dir, "wide.png", 1 << 28, 1, 16, 6);
    const std::string camera = test::sample_path("camera.png");
    const std::uint64_t base = process_kib();
    const test::PeakRun r = test::run_measured({"histo", "-j", "4", "--device", "cpu", wide, camera, wide, wide});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    // Two rows of 2^31 bytes (16-bit RGBA) and the image, kept at 16 bits (histo takes them).
    CHECK(has(r.err, "wide.png: 268435456x1 RGBA needs about 6.0 GiB of memory to decode, more than the limit of"));
    CHECK(has(r.err, "histo: 1 done, 3 failed"));
    CHECK(beyond(r, base) < 16 * kMiB);  // 10.8 GiB
}

TEST_CASE("cli memory: libpng's rows are in the estimate: a 2^21 x 1 RGBA16 PNG needs 48 MiB") {
    TempDir dir;
    // Two rows of 16 MiB (16-bit RGBA) and a 16 MiB image (kept at 16 bits: histo takes them).
    const std::string png = claiming(dir, "strip.png", 1 << 21, 1, 16, 6);
    const std::uint64_t base = process_kib();
    test::PeakRun r = test::run_measured({"histo", "--max-memory", "24M", "--device", "cpu", png});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "strip.png: 2097152x1 RGBA needs about 48."));
    CHECK(has(r.err, "more than the limit of 24.0 MiB (raise it with --max-memory)"));
    CHECK(beyond(r, base) < 24 * kMiB);
    // Admitted, its decode stays inside the limit (it then finds no data).
    r = test::run_measured({"histo", "--max-memory", "56M", "--device", "cpu", png});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "strip.png: PNG data is truncated"));
    CHECK(beyond(r, base) <= 56 * kMiB);
}

TEST_CASE("cli memory: a 1 x 2^25 gray PNG decodes inside --max-memory, without an array of row pointers") {
    TempDir dir;
    // A 32 MiB image; its row pointers would take 256 MiB more.
    const std::string tall = claiming(dir, "tall.png", 1, 1 << 25, 8, 0);
    const std::uint64_t base = process_kib();
    const test::PeakRun r = test::run_measured({"histo", "--max-memory", "40M", "--device", "cpu", tall});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "tall.png: PNG data is truncated"));
    CHECK(beyond(r, base) <= 40 * kMiB);
}
