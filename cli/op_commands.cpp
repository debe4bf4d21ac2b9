// Commands made from the declared operations (src/op/catalog.cpp): each
// parameter becomes an option with its help, range and default; the values
// go to the operation's maker, which validates them before any file is
// touched; then the engine runs the job as a one-stage chain (an image
// operation) or as the sink of an empty one (a report or array operation).
#include "cli/op_commands.hpp"

#include <filesystem>
#include <memory>
#include <system_error>

#include "cli/batch_settings.hpp"
#include "cli/common_options.hpp"
#include "cli/run_commands.hpp"
#include "src/error.hpp"
#include "src/run/chain.hpp"
#include "src/run/input_list.hpp"

namespace imgpar::cli {
namespace {

// The operation's values: the command's, with an extra positional argument
// of the IN OUT form (blur's IN OUT RxS) applied as the parameters it stands
// for. With --out-dir or --output every argument is an input.
ParamValues read_params(const Operation& op, const Invocation& inv) {
    ParamValues values = inv.values;
    const bool single_form = !inv.values.has("out-dir") || (!inv.values.given("out-dir") && !inv.values.given("output"));
    if (!single_form || inv.positionals.size() <= 2 || op.kind != OperationKind::ImageToImage || op.extra.name.empty())
        return values;
    const std::string& extra = inv.positionals[2];
    try {
        op.extra.apply(extra, values);
    } catch (const Error& e) {
        std::error_code ec;
        if (e.kind() == ErrorKind::Usage && std::filesystem::exists(extra, ec))
            throw usage_error(extra, "is a file, not " + op.extra.name + ": several inputs need --out-dir DIR or --output TEMPLATE");
        throw;
    }
    return values;
}

int run_operation(const Operation& op, Invocation& inv) {
    switch (op.kind) {
        case OperationKind::ImageToImage: {
            const Chain chain = Chain::of(op, op.make_image_job(read_params(op, inv)), op.name);
            return run_image_command(inv, chain, op.extra.name.empty() ? 2 : 3, "", op.defaults);
        }
        case OperationKind::ImageToArray: {
            const std::unique_ptr<ArrayJob> job = op.make_array_job(read_params(op, inv));
            return run_array_command(inv, Chain(), *job, 2);
        }
        case OperationKind::ImagesToReport: break;
    }
    const std::unique_ptr<ReportJob> job = op.make_report_job(read_params(op, inv));
    const std::vector<std::string> inputs = gather_inputs(inv.positionals, inv.values);
    return run_report_command(inv, Chain(), *job, op.peak_images, inputs);
}

}  // namespace

Command operation_command(const Operation& op) {
    Command c;
    c.name = op.name;
    c.summary = op.summary;
    c.synopsis = op.synopsis();
    c.description = op.description;
    c.examples = op.usage;
    const bool image = op.kind == OperationKind::ImageToImage;
    const bool array = op.kind == OperationKind::ImageToArray;
    c.min_positionals = 0;  // the drivers check: --files-from can name every input
    c.max_positionals = -1;
    const std::string json = "Print a JSON object per file: the operation and its parameters, backend, device, kernel, "
                             "times; failures too";
    c.options = {{op.group, op.params},
                 image ? image_output_options(json)
                 : array ? OptionGroup{"Output", {ParamSpec::flag("json", json)}}
                         : report_options(true),
                 many_files_options(image || array)};
    c.run = [&op](Invocation& inv) { return run_operation(op, inv); };
    return c;
}

}  // namespace imgpar::cli
