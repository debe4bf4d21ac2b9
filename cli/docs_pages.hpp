// The reference pages: docs/commands/COMMAND.md for every command and
// docs/commands/README.md as their index, in Markdown, written from the
// command table as --help and the man page are (`imgpar manpage --markdown
// DIR`). They state nothing that depends on the machine that writes them,
// so a test can regenerate them and compare them with the committed ones.
#pragma once

#include <string>

namespace imgpar::cli {

// Writes the pages into `dir` (created if missing). Throws imgpar::Error
// (output) naming a file that cannot be written.
void write_reference_pages(const std::string& dir);

}  // namespace imgpar::cli
