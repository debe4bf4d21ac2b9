// Commands made from the declared operations (src/op/catalog.cpp): each
// parameter becomes an option with its help, range and default; the values
// go to the operation's maker, which validates them before any file is
// touched; then the engine runs the job as a one-stage chain (an image
// operation) or as the sink of an empty one (a report or array operation).
#include "cli/op_commands.hpp"

#include <memory>

#include "cli/batch_settings.hpp"
#include "cli/common_options.hpp"
#include "cli/positional_errors.hpp"
#include "cli/run_commands.hpp"
#include "src/error.hpp"
#include "src/run/chain.hpp"
#include "src/run/input_list.hpp"

namespace imgpar::cli {
namespace {

// The operation's values: the command's, with an extra positional argument
// of the IN OUT form (blur's IN OUT RADIUSxSIGMA) applied as the parameters
// it stands for. With --out-dir or --output every argument is an input.
// More arguments than the form takes are a usage error that says what they
// look like (cli/positional_errors.hpp).
ParamValues read_params(const Operation& op, const Invocation& inv) {
    ParamValues values = inv.values;
    const std::vector<std::string>& args = inv.positionals;
    const bool single_form = !inv.values.has("out-dir") || (!inv.values.given("out-dir") && !inv.values.given("output"));
    if (op.kind == OperationKind::ImagesToReport) return values;
    if (!single_form) {
        const std::string mistake = parameter_among_inputs(op, args);
        if (!mistake.empty()) throw usage_error("", mistake);
        return values;
    }
    if (args.size() <= 2) return values;
    // A file name is not the extra argument, even where that would take it
    // (extract-channel's N, a text).
    if (args.size() == 3 && op.kind == OperationKind::ImageToImage && !op.extra.name.empty() &&
        !written_as_a_file(args[2])) {
        try {
            op.extra.apply(args[2], values);
            return values;
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Usage) throw;
            const std::string mistake = too_many_positionals(op, args);
            if (mistake.empty()) throw;
            throw usage_error("", mistake);
        }
    }
    throw usage_error("", too_many_positionals(op, args));
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
