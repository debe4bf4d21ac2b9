// A strict JSON syntax checker for tests: reports are promised to be valid
// JSON, so the tests parse them rather than grep them.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace imgpar::test {

// True if `text` is exactly one valid JSON value (surrounding whitespace allowed).
// On failure `error` says where.
bool is_valid_json(const std::string& text, std::string* error = nullptr);

// The top-level scalar members of a JSON object, as their raw JSON text
// (strings keep their quotes). Nested objects/arrays map to their raw text too.
std::map<std::string, std::string> json_members(const std::string& object_text);

// The objects of a JSON array's raw text ("[{..},{..}]"), each as raw text.
std::vector<std::string> json_array_objects(const std::string& array_text);

}  // namespace imgpar::test
