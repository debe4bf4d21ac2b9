// The one list of commands. Adding a command: one cli/cmd_*.cpp file that
// defines its Command, plus one line here.
#include "cli/command.hpp"

namespace imgpar::cli {

Command info_command();
Command convert_command();
Command devices_command();
Command blur_command();
Command box_command();
Command sharpen_command();
Command edges_command();
Command convolve_command();
Command histo_command();
Command equalize_command();
Command threshold_command();

const std::vector<Command>& command_table() {
    static const std::vector<Command> table = {
        blur_command(),
        box_command(),
        sharpen_command(),
        edges_command(),
        convolve_command(),
        histo_command(),
        equalize_command(),
        threshold_command(),
        info_command(),
        convert_command(),
        devices_command(),
    };
    return table;
}

}  // namespace imgpar::cli
