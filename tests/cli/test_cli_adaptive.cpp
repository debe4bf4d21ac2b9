// End-to-end: threshold --adaptive against its peers on real scanned text
// (scikit-image's page and text images) and a photo, where python3 has
// numpy, cv2 and skimage: mean equals OpenCV's adaptiveThreshold (mean - C)
// on every pixel; Sauvola and Niblack equal scikit-image's except where the
// level equals the intensity exactly (a flat window), which imgpar decides
// from exact integer sums and scikit-image from floating-point window sums
// that land a rounding error to either side. Usage errors for bad windows.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/io/save.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/python_peer.hpp"
#include "tests/support/test_images.hpp"

using namespace imgpar;
using test::has;
using test::run_imgpar;
using test::TempDir;

namespace {

// Writes the image, runs imgpar (argv[1]) on it, and prints, per case, the
// pixels that differ from the peer and how many of those are not ties.
constexpr const char* kPeerCheck = R"(import subprocess, sys
import numpy as np, cv2
from skimage import data, filters
imgpar, folder = sys.argv[1], sys.argv[2]
for name in ("page", "text", "camera"):
    img = getattr(data, name)()
    png = folder + "/" + name + ".png"
    cv2.imwrite(png, img)
    for w in (3, 15, 31, 51):
        for method, k, c in (("mean", 0, 5), ("mean", 0, -2.5), ("sauvola", 0.2, 0), ("niblack", 0.2, 0), ("niblack", -0.2, 0)):
            out = folder + "/out.png"
            subprocess.run([imgpar, "threshold", png, out, "--adaptive", method, "--window", str(w), "--k", str(k),
                            "--offset", str(c), "--device", "cpu"], check=True)
            ours = cv2.imread(out, cv2.IMREAD_UNCHANGED)
            if method == "mean":
                ref = cv2.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, w, c)
                level = None
            else:
                f = filters.threshold_sauvola if method == "sauvola" else filters.threshold_niblack
                level = f(img, window_size=w, k=k, r=128) if method == "sauvola" else f(img, window_size=w, k=k)
                ref = np.where(img > level, 255, 0)
            differ = ours != ref
            not_ties = int(differ.sum()) if level is None else int((differ & (np.abs(level - img) > 1e-9)).sum())
            print(name, method, w, k, c, "differ", int(differ.sum()), "not_ties", not_ties)
)";

}  // namespace

TEST_CASE("cli threshold --adaptive: OpenCV's mean - C exactly; scikit-image's Sauvola and Niblack but for ties") {
    const std::string python = test::python_with("import numpy, cv2, skimage");
    if (python.empty()) {
        MESSAGE("python3 with numpy, cv2 and skimage not installed: this check needs python3-opencv and python3-skimage");
        return;
    }
    TempDir dir;
    test::write_bytes(dir.file("peer.py"), kPeerCheck);
    const std::string cmd = python + " '" + dir.file("peer.py") + "' '" + IMGPAR_BINARY + "' '" + dir.path() + "' > '" +
                            dir.file("said.txt") + "' 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::vector<std::string> said = test::lines(test::read_bytes(dir.file("said.txt")));
    CHECK(said.size() == 60);
    for (const std::string& line : said) {
        CAPTURE(line);
        CHECK(has(line, "not_ties 0"));
    }
}

TEST_CASE("cli threshold --adaptive: zero and even windows are usage errors, one larger than the image fails the file; "
          "neither writes anything") {
    TempDir dir;
    const std::string in = test::sample_path("camera.png");  // 512x512
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--window", "0"}, {"--window", "16"}, {"--window", "513"}, {}}) {
        std::vector<std::string> args = {"threshold", in, "out.png", "--adaptive", "mean", "--device", "cpu"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = run_imgpar(args, dir.path());
        // 513 is a valid window that this image is too small for: its file's failure (exit 1).
        CHECK(r.exit_code == (extra.size() == 2 && extra[1] == "513" ? 1 : 2));
        CHECK(has(r.err, "--window"));
        CHECK(dir.entries().empty());
    }
    CHECK(has(run_imgpar({"threshold", in, "out.png", "--adaptive", "mean", "--window", "513"}, dir.path()).err,
              "allowed: an odd W up to 512"));
    CHECK(run_imgpar({"threshold", in, "out.png", "--adaptive", "sauvola", "--window", "511", "--device", "cpu"}, dir.path())
              .exit_code == 0);
}

TEST_CASE("cli threshold --adaptive: in a batch, an image smaller than the window fails alone; the others are written") {
    TempDir dir;
    const ImageU8 small = test::photo_like_image(20, 12, 1, 7);
    std::vector<std::string> warnings;
    save_image(dir.file("small.png"), small.view(), SaveOptions{}, warnings);
    const auto r = run_imgpar({"threshold", test::sample_path("camera.png"), dir.file("small.png"),
                               test::sample_path("chelsea.png"), "--out-dir", dir.file("out"), "--adaptive", "mean",
                               "--window", "31", "--json", "--device", "cpu"});
    CHECK(r.exit_code == 1);
    CHECK(has(r.err, "small.png: --window: 31 is larger than the 20x12 image"));
    CHECK(has(r.err, "threshold: 2 written, 1 failed; 3 files in"));
    CHECK(has(r.out, "\"ok\":false"));
    CHECK(test::file_exists(dir.file("out/camera.png")));
    CHECK(test::file_exists(dir.file("out/chelsea.png")));
    CHECK_FALSE(test::file_exists(dir.file("out/small.png")));
}
