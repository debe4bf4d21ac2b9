// The one list of commands: every declared operation, then the commands that
// only read or write files.
#include "cli/command.hpp"
#include "cli/op_commands.hpp"

namespace imgpar::cli {

Command chain_command();
Command compare_command();
Command info_command();
Command convert_command();
Command devices_command();
Command completion_command();
Command manpage_command();

const std::vector<Command>& command_table() {
    static const std::vector<Command> table = [] {
        std::vector<Command> t;
        for (const Operation& op : operations()) t.push_back(operation_command(op));
        t.push_back(chain_command());
        t.push_back(compare_command());
        t.push_back(info_command());
        t.push_back(convert_command());
        t.push_back(devices_command());
        t.push_back(completion_command());
        t.push_back(manpage_command());
        return t;
    }();
    return table;
}

}  // namespace imgpar::cli
