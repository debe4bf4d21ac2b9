// What an output name refers to, and so how it must be written: a new or
// existing regular file (replaced atomically), a regular file with several
// hard links (written in place, so the links stay one file), a special file
// (device, FIFO: opened and written, never replaced), or one of this
// process's open descriptors (/dev/stdout, /dev/fd/N: written to directly).
// Symbolic links are followed to the file they name, as ImageMagick and
// libvips write through them; a dangling one leads to the file it names,
// which is created.
#pragma once

#include <sys/stat.h>

#include <string>

namespace imgpar {

struct OutputTarget {
    enum class Kind {
        NewFile,        // nothing there yet: created
        RegularFile,    // replaced by a rename (one link) or in place (several)
        SpecialFile,    // device, FIFO, a /proc link: opened and written
        OpenDescriptor  // "-", /dev/stdout, /dev/fd/N: written to `fd`
    };
    Kind kind = Kind::NewFile;
    std::string path;  // where it is, links followed (NewFile, RegularFile, SpecialFile)
    struct stat st{};  // RegularFile: what is there now
    int fd = -1;       // OpenDescriptor
};

// Resolves `path` as a write would. Throws imgpar::Error (output) naming it
// (and the file a link leads to) for a directory, a socket, a missing
// folder, a link loop, an unreachable name or a closed descriptor.
OutputTarget resolve_output_target(const std::string& path);

// The folder a path's last name is in: "." for a bare name, "/" at the root.
std::string parent_dir(const std::string& path);

}  // namespace imgpar
