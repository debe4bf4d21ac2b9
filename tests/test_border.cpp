#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/ops/border.hpp"

using namespace imgpar;

namespace {

// The border rules written the slow, obvious way: fold or shift one period
// at a time until the index lands inside the image.
int folded_index(int i, int n, BorderMode mode) {
    if (mode == BorderMode::Constant) return (i >= 0 && i < n) ? i : -1;
    if (mode == BorderMode::Replicate) return i < 0 ? 0 : (i >= n ? n - 1 : i);
    if (mode == BorderMode::Reflect101 && n == 1) return 0;
    while (i < 0 || i >= n) {
        switch (mode) {
            case BorderMode::Reflect: i = i < 0 ? -1 - i : 2 * n - 1 - i; break;
            case BorderMode::Reflect101: i = i < 0 ? -i : 2 * n - 2 - i; break;
            case BorderMode::Wrap: i = i < 0 ? i + n : i - n; break;
            default: break;
        }
    }
    return i;
}

const BorderMode kModes[] = {BorderMode::Replicate, BorderMode::Reflect, BorderMode::Reflect101, BorderMode::Wrap,
                             BorderMode::Constant};

// Reads positions -6 .. n+5 of "abcdefgh" (n = 8) as letters, '.' for constant.
std::string strip(BorderMode mode) {
    const std::string src = "abcdefgh";
    std::string out;
    for (int i = -6; i < 14; ++i) {
        int m = border_index(i, 8, mode);
        out += m < 0 ? '.' : src[static_cast<std::size_t>(m)];
        if (i == -1 || i == 7) out += '|';
    }
    return out;
}

}  // namespace

TEST_CASE("border_index: the pictures in border.hpp") {
    CHECK(strip(BorderMode::Replicate) == "aaaaaa|abcdefgh|hhhhhh");
    CHECK(strip(BorderMode::Reflect) == "fedcba|abcdefgh|hgfedc");
    CHECK(strip(BorderMode::Reflect101) == "gfedcb|abcdefgh|gfedcb");
    CHECK(strip(BorderMode::Wrap) == "cdefgh|abcdefgh|abcdef");
    CHECK(strip(BorderMode::Constant) == "......|abcdefgh|......");
}

TEST_CASE("border_index: every mode agrees with step-by-step folding, n = 1 .. 9, offsets to +-300") {
    for (BorderMode mode : kModes)
        for (int n = 1; n <= 9; ++n)
            for (int i = -300; i <= 300; ++i) {
                INFO("mode ", static_cast<int>(mode), " n ", n, " i ", i);
                REQUIRE(border_index(i, n, mode) == folded_index(i, n, mode));
            }
}

TEST_CASE("border_index: n = 1 and n = 2 explicitly") {
    for (BorderMode mode : kModes) {
        for (int i : {-1000, -3, -2, -1, 1, 2, 3, 1000})
            CHECK(border_index(i, 1, mode) == (mode == BorderMode::Constant ? -1 : 0));
        CHECK(border_index(0, 1, mode) == 0);
    }
    // n = 2, positions -4 .. 5
    const std::vector<int> replicate = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    const std::vector<int> reflect = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
    const std::vector<int> reflect101 = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    const std::vector<int> wrap = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    for (int i = -4; i <= 5; ++i) {
        const std::size_t k = static_cast<std::size_t>(i + 4);
        CHECK(border_index(i, 2, BorderMode::Replicate) == replicate[k]);
        CHECK(border_index(i, 2, BorderMode::Reflect) == reflect[k]);
        CHECK(border_index(i, 2, BorderMode::Reflect101) == reflect101[k]);
        CHECK(border_index(i, 2, BorderMode::Wrap) == wrap[k]);
        CHECK(border_index(i, 2, BorderMode::Constant) == (i == 0 || i == 1 ? i : -1));
    }
}

TEST_CASE("border_index: offsets far outside the image are periodic") {
    for (int n : {1, 2, 3, 7, 64, 1000}) {
        const int reflect_period = 2 * n;
        const int r101_period = n == 1 ? 1 : 2 * (n - 1);
        for (int i = -2 * n; i <= 3 * n; ++i) {
            for (int k : {1000, 100000, -100000}) {
                long long far_reflect = static_cast<long long>(i) + static_cast<long long>(k) * reflect_period;
                long long far_r101 = static_cast<long long>(i) + static_cast<long long>(k) * r101_period;
                long long far_wrap = static_cast<long long>(i) + static_cast<long long>(k) * n;
                if (far_reflect > 1 << 30 || far_reflect < -(1 << 30)) continue;
                REQUIRE(border_index(static_cast<int>(far_reflect), n, BorderMode::Reflect) ==
                        folded_index(i, n, BorderMode::Reflect));
                REQUIRE(border_index(static_cast<int>(far_r101), n, BorderMode::Reflect101) ==
                        folded_index(i, n, BorderMode::Reflect101));
                REQUIRE(border_index(static_cast<int>(far_wrap), n, BorderMode::Wrap) ==
                        folded_index(i, n, BorderMode::Wrap));
            }
        }
        CHECK(border_index(-(1 << 30), n, BorderMode::Replicate) == 0);
        CHECK(border_index(1 << 30, n, BorderMode::Replicate) == n - 1);
        CHECK(border_index(-(1 << 30), n, BorderMode::Constant) == -1);
        for (BorderMode mode : kModes) {
            int m = border_index(-(1 << 30) + 7, n, mode);
            CHECK(m >= (mode == BorderMode::Constant ? -1 : 0));
            CHECK(m < n);
        }
    }
}

TEST_CASE("parse_border and border_name") {
    CHECK(parse_border("replicate").mode == BorderMode::Replicate);
    CHECK(parse_border("reflect").mode == BorderMode::Reflect);
    CHECK(parse_border("reflect101").mode == BorderMode::Reflect101);
    CHECK(parse_border("wrap").mode == BorderMode::Wrap);
    Border c = parse_border("constant");
    CHECK(c.mode == BorderMode::Constant);
    CHECK(c.value == 0);
    c = parse_border("constant:255");
    CHECK(c.value == 255);
    CHECK(parse_border("constant:7").value == 7);
    for (const char* text : {"replicate", "reflect", "reflect101", "wrap", "constant:0", "constant:128"})
        CHECK(border_name(parse_border(text)) == text);

    for (const char* bad : {"", "Replicate", "mirror", "constant:", "constant:256", "constant:-1", "constant:abc",
                            "constant:1000", "constant:1.5", "constant 3"}) {
        INFO("text '", bad, "'");
        try {
            parse_border(bad);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Usage);
            CHECK(e.subject() == "--border");
        }
    }
    try {
        parse_border("mirror");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("reflect101") != std::string::npos);  // lists what is allowed
    }
}
