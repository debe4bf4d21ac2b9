#include "cli/inputs.hpp"

#include "src/io/file_bytes.hpp"

namespace imgpar::cli {

bool for_each_input(const Invocation& inv, const std::function<void(const std::string&, const std::string&)>& each,
                    const std::function<void(const std::string&, const Error&)>& failed) {
    bool ok = true;
    for (const std::string& path : inv.positionals) {
        const std::string name = display_name(path);
        try {
            each(path, name);
        } catch (const Error& e) {
            // Bad usage and a GPU that is gone end the run; a bad file does not.
            if (e.kind() == ErrorKind::Usage || e.kind() == ErrorKind::Device) throw;
            inv.diag.error(e.what());
            if (failed) failed(name, e);
            ok = false;
        }
    }
    return ok;
}

}  // namespace imgpar::cli
