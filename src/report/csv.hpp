// CSV fields (RFC 4180 quoting).
#pragma once

#include <initializer_list>
#include <string>

namespace imgpar {

// `s` quoted if it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

// Fields joined by commas, each quoted as needed, no line end.
std::string csv_row(std::initializer_list<std::string> fields);

}  // namespace imgpar
