// What a call throws, for tests that check the message of an error.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "src/error.hpp"

namespace imgpar::test {

// The message of the input error `f` throws ("" and a failed check when it
// throws none, or another kind).
inline std::string input_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Input);
        return e.what();
    }
    FAIL_CHECK("no error");
    return "";
}

}  // namespace imgpar::test
