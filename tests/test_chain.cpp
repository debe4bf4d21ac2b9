// The chain's text (src/run/chain.hpp): words, quotes and stages; each stage
// made from its operation's declaration; the shapes and memory of a file
// through the stages.
#include <doctest/doctest.h>

#include <algorithm>

#include "src/error.hpp"
#include "src/run/chain.hpp"

using namespace imgpar;

namespace {

using Words = std::vector<std::vector<std::string>>;

std::string usage_message(const std::string& text) {
    try {
        (void)parse_chain(text);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("chain text: stages split at '|', words at white space; quotes and backslashes keep text together") {
    CHECK(split_chain_words("blur --sigma 2 | sharpen") == Words{{"blur", "--sigma", "2"}, {"sharpen"}});
    CHECK(split_chain_words("  blur|sharpen\t|equalize ") == Words{{"blur"}, {"sharpen"}, {"equalize"}});
    CHECK(split_chain_words("convolve --kernel '1 2 1; 2 4 2' | x") ==
          Words{{"convolve", "--kernel", "1 2 1; 2 4 2"}, {"x"}});
    CHECK(split_chain_words("a \"b | c\" d") == Words{{"a", "b | c", "d"}});
    CHECK(split_chain_words("a \"say \\\"x\\\"\"") == Words{{"a", "say \"x\""}});
    CHECK(split_chain_words("a b\\|c") == Words{{"a", "b|c"}});
    CHECK(split_chain_words("a ''") == Words{{"a", ""}});
    CHECK(split_chain_words("") == Words{{}});
    CHECK(split_chain_words("a |") == Words{{"a"}, {}});
    CHECK_THROWS_AS(split_chain_words("a 'b"), Error);
    CHECK_THROWS_AS(split_chain_words("a \"b"), Error);
}

TEST_CASE("chain text: each stage is its operation's job; a report or array only last") {
    ChainText t = parse_chain("blur 0x3 | sharpen --amount 2 | threshold --otsu");
    REQUIRE(t.chain.size() == 3);
    CHECK(t.chain.stages()[0].op->name == "blur");
    CHECK(t.chain.stages()[0].text == "blur 0x3");
    CHECK(t.chain.text() == "blur 0x3 | sharpen --amount 2 | threshold --otsu");
    CHECK(t.last == nullptr);
    CHECK(t.chain.describe().find("sigma=3") != std::string::npos);

    t = parse_chain("equalize | histo --bins 16");
    CHECK(t.chain.size() == 1);
    REQUIRE(t.last);
    CHECK(t.last->name == "histo");
    CHECK(t.report);
    CHECK_FALSE(t.array);
    t = parse_chain("integral --squared");
    CHECK(t.chain.empty());
    CHECK(t.array);

    CHECK(usage_message("blur | sharpn") == "stage 2: 'sharpn' is not an operation; did you mean 'sharpen'? (imgpar --help lists them)");
    CHECK(usage_message("stats | blur").find("stats writes a report, not an image") != std::string::npos);
    CHECK(usage_message("blur --sigma 0").find("stage 1 (blur): --sigma") == 0);
    CHECK(usage_message("box --radius 2 --radius") .find("stage 1 (box): --radius") == 0);
    CHECK(usage_message("edges --gray --log").find("stage 1 (edges): unknown option --log for edges") == 0);
    CHECK(usage_message("blur|").find("stage 2 is empty") != std::string::npos);
}

TEST_CASE("chain shapes: each stage's output from its input; a stage that cannot take its input fails the file") {
    const ChainText t = parse_chain("blur | edges --gray | threshold --adaptive mean --window 9");
    const std::vector<ImageShape> shapes = t.chain.shapes({40, 30, 4, SampleType::U8}, "a.png");
    REQUIRE(shapes.size() == 4);
    CHECK(shapes[0] == ImageShape{40, 30, 4, SampleType::U8});
    CHECK(shapes[1] == ImageShape{40, 30, 4, SampleType::U8});
    CHECK(shapes[2] == ImageShape{40, 30, 2, SampleType::U8});
    CHECK(shapes[3] == ImageShape{40, 30, 2, SampleType::U8});
    try {
        (void)t.chain.shapes({8, 30, 3, SampleType::U8}, "b.png");
        FAIL("a window wider than the image was taken");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        CHECK(std::string(e.what()).find("b.png: stage 3 (threshold): --window: 9 is larger than the 8x30 image") == 0);
    }
    // Memory: the largest stage's declared buffers times its larger image.
    // blur holds 5 images at its peak, edges 4, an adaptive threshold 19 (its tables).
    const double rgba = 40.0 * 30 * 4, gray_alpha = 40.0 * 30 * 2;
    CHECK(t.chain.peak_bytes(shapes, 2) == doctest::Approx(std::max({5 * rgba, 4 * rgba, 19 * gray_alpha})));
    CHECK(Chain().peak_bytes({{40, 30, 3, SampleType::U8}}, 2) == doctest::Approx(2 * 40 * 30 * 3));
}
