// The progress line fits any terminal width down to 20 columns (a redraw as
// wide as the terminal wraps), giving up fields in a fixed order; the plain
// lines for a log come now and then and once at the end.
#include <doctest/doctest.h>

#include <sstream>
#include <thread>

#include "src/run/progress.hpp"

using namespace imgpar;

TEST_CASE("progress_line: at most columns - 1 wide for every width, the bar shrinking before fields go") {
    const std::string label = "threshold";
    for (int columns = 2; columns <= 200; ++columns) {
        for (std::size_t done : {std::size_t{0}, std::size_t{1234}, std::size_t{123456}}) {
            const std::string line = progress_line(label, done, 123456, 17, 3600.0, columns);
            CAPTURE(columns);
            CAPTURE(line);
            CHECK(static_cast<int>(line.size()) <= columns - 1 + (columns < 2));
            if (columns >= 20) CHECK(line.find(std::to_string(done) + "/123456") != std::string::npos);
            if (columns >= 30) CHECK(line.find("17 failed") != std::string::npos);
            CHECK(line.find('\n') == std::string::npos);
        }
    }
    // Wide: everything, with the 30-character bar.
    const std::string wide = progress_line(label, 1234, 123456, 17, 3600.0, 200);
    CHECK(wide.find("threshold 1234/123456 [") == 0);
    CHECK(wide.find(std::string(30 - 1, ' ') + "]") != std::string::npos);
    CHECK(wide.find("files/s") != std::string::npos);
    CHECK(wide.find("ETA") != std::string::npos);
    // 50 columns: the rate goes first, the ETA stays beside a bar.
    const std::string narrow = progress_line(label, 1234, 123456, 0, 3600.0, 50);
    CHECK(narrow.find("files/s") == std::string::npos);
    CHECK(narrow.find("ETA") != std::string::npos);
    CHECK(narrow.find('[') != std::string::npos);
}

TEST_CASE("progress_log_line: plain text, the ETA while running and the time taken at the end") {
    CHECK(progress_log_line("blur", 0, 500, 0, 0.5, false) == "blur: 0/500 files (0%)");
    CHECK(progress_log_line("blur", 100, 500, 1, 10.0, false) == "blur: 100/500 files (20%), 10.0 files/s, ETA 0:40, 1 failed");
    CHECK(progress_log_line("blur", 500, 500, 0, 50.0, true) == "blur: 500/500 files (100%) in 0:50, 10.0 files/s");
}

TEST_CASE("ProgressBar into a log: a line every interval and one at the end, each its own line") {
    std::ostringstream err;
    const Diagnostics diag(err, true, false);  // --quiet: --progress still shows
    {
        ProgressBar bar(diag, "blur", 3, true, false, std::chrono::milliseconds(20));
        bar.finished_one(false);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        bar.finished_one(true);
    }
    const std::string said = err.str();
    CHECK(said.find('\r') == std::string::npos);
    CHECK(said.find("imgpar: blur: 1/3 files (33%), ") == 0);
    CHECK(said.find("imgpar: blur: 2/3 files (66%) in 0:00, ") != std::string::npos);
    CHECK(said.back() == '\n');
}
