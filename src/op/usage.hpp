// A command's examples as the user types them: shown under "Examples:" in
// --help, in the man page and in docs/commands/COMMAND.md, and each one run
// by tests/cli/test_cli_help.cpp, so that none shown is wrong.
//
// They name these files, which that test makes from samples/ in a folder of
// their own (HOME is that folder too) before it runs them with bash:
//   photo.jpg                 a colour photo (JPEG, 640x427)
//   scan.png                  a gray image (512x512)
//   logo.png                  a colour image with alpha (451x300)
//   photos/                   a.jpg and b.jpg, colour photos
//   expected.png, actual.png  two images of one size
//   expected/, actual/        folders of images by the same names
//   ~/.zfunc/, ~/.config/fish/completions/   where shells look for completions
#pragma once

#include <string>

namespace imgpar {

struct Usage {
    // The whole command line, in sh syntax (quotes, globs, redirections):
    // "imgpar blur photo.jpg soft.jpg 0x3".
    std::string line;
    // What it does, one sentence.
    std::string what;
};

// `word` as sh reads it back: unchanged when it holds only characters no
// shell treats specially, else in single quotes ('#336699', '800x600>').
std::string shell_quoted(const std::string& word);

}  // namespace imgpar
