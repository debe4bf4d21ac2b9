// Names and option values are any bytes, and shown to a person they must not
// act on the terminal: a newline in a file name could fake an "imgpar:"
// line, an escape sequence colour or retitle the terminal. Everything
// imgpar prints for people (stderr's messages, text reports) shows such
// bytes visibly instead; JSON has its own escaping (json.hpp), CSV quotes.
#pragma once

#include <cstddef>
#include <string>

namespace imgpar {

// Length of the well-formed UTF-8 sequence at s[i] (1-4), or 0 when the
// bytes there are not one (stray continuation, overlong form, surrogate,
// beyond U+10FFFF, cut short).
std::size_t utf8_sequence_length(const std::string& s, std::size_t i);

// `s` with its control characters escaped: \n, \r and \t by name, the
// other C0 controls and DEL as \x1b..., C1 controls (U+0080-U+009F) as
// \u0085..., and each byte that is not part of valid UTF-8 as \xff.
// Printable text, UTF-8 included, and backslashes are kept as they are.
std::string escape_control(const std::string& s);

}  // namespace imgpar
