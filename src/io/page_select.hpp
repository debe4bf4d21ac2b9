// `scan.tif[2]`: a page of a multi-page file, named as libvips and
// ImageMagick name it (0-based). A file whose name really ends in "[2]"
// is still that file: the suffix is a page only when no such file exists.
#pragma once

#include <string>

namespace imgpar {

struct PagedPath {
    std::string path;  // the file to read
    int page = -1;     // the page asked for, or -1 when none was
};

// `path` split into the file and the page its "[N]" suffix asks for (N a
// whole number below 2^30), when `path` itself does not exist and the file
// before the suffix does; otherwise `path` whole, no page. "-" has none.
PagedPath split_page_suffix(const std::string& path);

}  // namespace imgpar
