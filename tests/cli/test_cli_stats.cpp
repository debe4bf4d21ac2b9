// End-to-end: stats as a user runs it: text, CSV and JSON for many files, a
// bad file among them, masks (and the errors they can cause), channel
// selections, and a cross-check against numpy where python3 has it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"
#include "tests/support/json_check.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::lines;
using test::run_imgpar;
using test::TempDir;

namespace {

// Writes images with numpy (generated cases, a JPEG sample decoded by imgpar
// itself into a PNG) beside the PNG samples, runs `imgpar stats --json` on
// each, unmasked and with a random mask, and compares every field with numpy:
// integers and the mean exactly (sum / count is one correctly rounded
// division in both), the deviation within 2 units in the last place of the
// exact value (from exact integers and 50-digit decimals) and within 1e-12
// of numpy's std(). Prints one line per file and mask: "ok ..." or "bad ...".
constexpr const char* kNumpyCheck = R"(import glob, json, subprocess, sys
from decimal import Decimal, getcontext
import numpy as np, cv2
getcontext().prec = 50
imgpar, folder, samples = sys.argv[1], sys.argv[2], sys.argv[3]
subprocess.run([imgpar, "convert", samples + "/rocket.jpg", folder + "/rocket.png"], check=True)
rng = np.random.default_rng(7)
generated = {"one.png": np.full((1, 1), 77, np.uint8), "black.png": np.zeros((31, 17, 3), np.uint8),
             "white.png": np.full((4000, 5000, 3), 255, np.uint8), "row.png": rng.integers(0, 256, (1, 999), dtype=np.uint8),
             "column.png": rng.integers(0, 256, (999, 1, 3), dtype=np.uint8),
             "rgba.png": rng.integers(0, 256, (131, 67, 4), dtype=np.uint8)}
for name, a in generated.items():
    cv2.imwrite(folder + "/" + name, a if a.ndim == 2 or a.shape[2] == 1 else a[..., [2, 1, 0, 3][:a.shape[2]]])
files = sorted(glob.glob(samples + "/*.png")) + [folder + "/rocket.png"] + [folder + "/" + n for n in generated]
def pixels(path):
    a = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if a.ndim == 2: return a[..., None]
    return a[..., [2, 1, 0, 3][:a.shape[2]]]
def ulps(x, y): return abs(x - y) / max(np.spacing(abs(y)), np.spacing(1.0) * 1e-300)
for path in files:
    a = pixels(path)
    h, w, c = a.shape
    for masked in (False, True):
        sel = rng.random((h, w)) < 0.3 if masked else np.ones((h, w), bool)
        args = [imgpar, "stats", "--json", "--device", "cpu", path]
        if masked:
            cv2.imwrite(folder + "/mask.png", (sel * 255).astype(np.uint8))
            args += ["--mask", folder + "/mask.png"]
        record = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
        bad = []
        if record["selected_pixels"] != int(sel.sum()): bad.append("selected_pixels")
        for k, row in enumerate(record["stats"]):
            planes = list(range(c)) if row["channel"] == "all" else [k]
            v = a[..., planes].astype(np.int64)[sel]
            n = v.size
            expect = {"count": n, "sum": int(v.sum()), "sum_squares": int((v * v).sum()), "nonzero": int(np.count_nonzero(v))}
            if n:
                flat = a[..., planes].reshape(h * w, len(planes)).astype(np.int64)
                s = sel.reshape(-1)
                mn, mx = int(v.min()), int(v.max())
                first_min = int(np.flatnonzero(s & (flat == mn).any(axis=1))[0])
                first_max = int(np.flatnonzero(s & (flat == mx).any(axis=1))[0])
                expect.update({"min": mn, "min_x": first_min % w, "min_y": first_min // w, "max": mx,
                               "max_x": first_max % w, "max_y": first_max // w, "mean": expect["sum"] / n})
                exact = float((Decimal(n * expect["sum_squares"] - expect["sum"] ** 2).sqrt()) / n)
                if ulps(row["stddev_population"], exact) > 2: bad.append(row["channel"] + " stddev vs exact %r %r" % (row["stddev_population"], exact))
                if abs(row["stddev_population"] - float(v.std())) > 1e-12 * max(1.0, float(v.std())):
                    bad.append(row["channel"] + " stddev vs numpy %r %r" % (row["stddev_population"], float(v.std())))
            else:
                expect.update({key: None for key in ("min", "min_x", "min_y", "max", "max_x", "max_y", "mean", "stddev_population")})
            for key, value in expect.items():
                if row[key] != value: bad.append("%s %s: %r vs numpy %r" % (row["channel"], key, row[key], value))
        print(("bad " if bad else "ok ") + path.split("/")[-1] + (" masked " if masked else " ") + "; ".join(bad))
)";

}  // namespace

TEST_CASE("cli stats: a text table per file, every channel then 'all'") {
    auto r = run_imgpar({"stats", test::sample_path("chelsea.png"), test::sample_path("camera.png"), "--device", "cpu"});
    REQUIRE(r.exit_code == 0);
    for (const char* word : {"red", "green", "blue", "all", "gray", "count", "min", "max", "sum of squares", "mean",
                             "stddev(pop)", "non-zero", "451x300 RGB", "512x512 gray"})
        CHECK_MESSAGE(has(r.out, word), word);
    CHECK(lines(r.out).size() == 2 + 4 + 2 + 2);  // header line, column line, rows; per file
    r = run_imgpar({"stats", "--help"});
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "POPULATION"));
    CHECK(has(r.out, "--mask"));
}

TEST_CASE("cli stats: CSV has one header and a row per file and channel, 'all' included") {
    const auto r = run_imgpar({"stats", "--csv", test::sample_path("chelsea_alpha.png"), test::sample_path("camera.png"),
                               test::sample_path("rocket.jpg")});
    REQUIRE(r.exit_code == 0);
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 1 + 5 + 2 + 4);
    CHECK(rows[0] == "file,channel,count,min,min_x,min_y,max,max_x,max_y,sum,sum_squares,mean,stddev_population,nonzero");
    CHECK(has(rows[4], ",alpha,"));
    CHECK(has(rows[5], ",all,"));
    CHECK(has(rows[6], "camera.png,gray,262144,"));
    CHECK(has(rows[11], "rocket.jpg,all,"));
}

TEST_CASE("cli stats --json: JSON Lines; a bad file has its record in its place and the others go on (exit 1)") {
    TempDir dir;
    test::write_bytes(dir.file("bad.png"), "not an image");
    const auto r = run_imgpar({"stats", "--json", test::sample_path("camera.png"), dir.file("bad.png"),
                               test::sample_path("chelsea.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "bad.png"));
    const auto rows = lines(r.out);
    REQUIRE(rows.size() == 3);
    for (const auto& line : rows) {
        std::string why;
        CHECK_MESSAGE(test::is_valid_json(line, &why), why);
        CHECK(test::json_members(line)["schema"] == "\"imgpar.stats/1\"");
    }
    CHECK(test::json_members(rows[0])["ok"] == "true");
    CHECK(test::json_members(rows[1])["ok"] == "false");
    CHECK(has(test::json_members(rows[1])["error"], "bad.png"));
    auto chelsea = test::json_members(rows[2]);
    CHECK(chelsea["width"] == "451");
    CHECK(chelsea["stddev"] == "\"population\"");
    CHECK(test::json_array_objects(chelsea["stats"]).size() == 4);
}

TEST_CASE("cli stats --channel: the listed channels and their 'all'; a channel a file lacks fails that file only") {
    auto r = run_imgpar({"stats", "--csv", "--channel", "blue,r", test::sample_path("chelsea.png")});
    REQUIRE(r.exit_code == 0);
    auto rows = lines(r.out);
    REQUIRE(rows.size() == 4);
    CHECK(has(rows[1], ",blue,"));
    CHECK(has(rows[2], ",red,"));
    CHECK(has(rows[3], ",all,"));

    r = run_imgpar({"stats", "--csv", "--channel", "red", test::sample_path("camera.png"), test::sample_path("chelsea.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "camera.png"));
    CHECK(has(r.err, "red"));
    rows = lines(r.out);
    REQUIRE(rows.size() == 3);  // the header, chelsea's red and all
    CHECK(has(rows[1], "chelsea.png,red,"));

    for (const char* bad : {"luma", "", "4", "purple"}) {
        r = run_imgpar({"stats", "--channel", bad, test::sample_path("chelsea.png")});
        CHECK_MESSAGE(r.exit_code == 2, bad);
        CHECK(has(r.err, "--channel"));
        CHECK(r.out.empty());
    }
}

TEST_CASE("cli stats --mask: counts the selected pixels; a mask of another size fails that file, naming both") {
    TempDir dir;
    // The camera image as its own mask: its one black pixel is left out.
    auto r = run_imgpar({"stats", "--json", "--mask", test::sample_path("camera.png"), test::sample_path("camera.png")});
    REQUIRE(r.exit_code == 0);
    auto j = test::json_members(lines(r.out).at(0));
    CHECK(j["selected_pixels"] == "262143");
    CHECK(has(j["mask"], "camera.png"));
    auto gray = test::json_members(test::json_array_objects(j["stats"]).at(0));
    CHECK(gray["count"] == "262143");
    CHECK(gray["min"] != "0");
    CHECK(gray["nonzero"] == "262143");

    // Another size: that file fails with both names; the others are reported.
    r = run_imgpar({"stats", "--csv", "--mask", test::sample_path("camera.png"), test::sample_path("chelsea.png"),
                    test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "chelsea.png"));
    CHECK(has(r.err, "451x300"));
    CHECK(has(r.err, "camera.png is 512x512"));
    CHECK(lines(r.out).size() == 1 + 2);

    // A mask that cannot be read: an input error before any file, nothing printed.
    r = run_imgpar({"stats", "--json", "--mask", dir.file("missing.png"), test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "missing.png"));
    CHECK(r.out.empty());
    test::write_bytes(dir.file("junk.png"), "junk");
    r = run_imgpar({"stats", "--mask", dir.file("junk.png"), test::sample_path("camera.png")});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "junk.png"));

    // Standard input for both: a usage error.
    r = run_imgpar({"stats", "--mask", "-", "-"}, "", test::sample_path("camera.png"));
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "--mask"));
    // The mask from standard input, the image by name.
    r = run_imgpar({"stats", "--json", "--mask", "-", test::sample_path("camera.png")}, "", test::sample_path("camera.png"));
    CHECK(r.exit_code == 0);
    CHECK(test::json_members(lines(r.out).at(0))["mask"] == "\"<stdin>\"");
}

TEST_CASE("cli stats --mask: a 16-bit mask selects every non-zero sample, small ones too") {
    TempDir dir;
    // Samples 1..128 of a 16-bit mask round to 0 in 8 bits: they must still select.
    ImageU16 mask(16, 8, 1);
    int selected = 0;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 16; ++x) {
            const bool on = (x + 3 * y) % 5 == 0;
            mask.view().row(y)[x] = static_cast<std::uint16_t>(on ? 1 + (x * 7 + y) % 128 : 0);
            selected += on ? 1 : 0;
        }
    test::save_image_file(dir.file("mask16.png"), mask);
    test::save_image_file(dir.file("gray.png"), ImageU8(16, 8, 1));
    const auto r = run_imgpar({"stats", "--json", "--mask", dir.file("mask16.png"), dir.file("gray.png")});
    REQUIRE(r.exit_code == 0);
    CHECK(test::json_members(lines(r.out).at(0))["selected_pixels"] == std::to_string(selected));
}

TEST_CASE("cli stats --mask: an empty selection prints absent values (null, '-', empty), never NaN") {
    TempDir dir;
    // A black image as the mask: no pixel is selected.
    REQUIRE(run_imgpar({"threshold", test::sample_path("camera.png"), dir.file("black.png"), "--value", "255"}).exit_code == 0);
    auto r = run_imgpar({"stats", "--json", "--mask", dir.file("black.png"), test::sample_path("camera.png")});
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "nan"));
    auto j = test::json_members(lines(r.out).at(0));
    CHECK(j["selected_pixels"] == "0");
    for (const std::string& row : test::json_array_objects(j["stats"])) {
        auto m = test::json_members(row);
        CHECK(m["count"] == "0");
        CHECK(m["mean"] == "null");
        CHECK(m["stddev_population"] == "null");
        CHECK(m["min"] == "null");
    }
    r = run_imgpar({"stats", "--mask", dir.file("black.png"), test::sample_path("camera.png")});
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(has(r.out, "nan"));
    CHECK(has(r.out, "0 of 262144 pixels"));
    r = run_imgpar({"stats", "--csv", "--mask", dir.file("black.png"), test::sample_path("camera.png")});
    CHECK(has(lines(r.out).at(1), ",gray,0,,,,,,,0,0,,,0"));
}

TEST_CASE("cli stats: every field equals numpy's on real photos, generated edge cases and masks") {
    const std::string python = test::python_with("import numpy, cv2");
    if (python.empty()) {
        MESSAGE("python3 with numpy and cv2 not installed: this check needs python3-numpy and python3-opencv");
        return;
    }
    TempDir dir;
    test::write_bytes(dir.file("check.py"), kNumpyCheck);
    const std::string samples = test::sample_path("");
    const std::string cmd = python + " '" + dir.file("check.py") + "' '" + IMGPAR_BINARY + "' '" + dir.path() + "' '" +
                            samples.substr(0, samples.size() - 1) + "' > '" + dir.file("said.txt") + "' 2> '" + dir.file("err.txt") + "'";
    const int rc = std::system(cmd.c_str());
    const std::vector<std::string> said = lines(test::read_bytes(dir.file("said.txt")));
    REQUIRE_MESSAGE(rc == 0, test::read_bytes(dir.file("err.txt")));
    CHECK(said.size() == 2 * (3 + 1 + 6));  // 3 PNG samples, the JPEG one, 6 generated; each with and without a mask
    for (const std::string& line : said) {
        CAPTURE(line);
        CHECK(line.rfind("ok ", 0) == 0);
    }
}
