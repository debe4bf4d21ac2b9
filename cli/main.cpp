// imgpar's entry point: reads the global options that may come before the
// command, finds the command, reads its options against their declarations
// (src/op/command_line.hpp; cli/help_text.hpp writes --help), runs it, and
// turns errors into messages and exit codes (0 ok, 1 a file failed, 2 usage,
// 3 GPU, 4 a failed check). Nothing below main exits the process.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "cli/help_text.hpp"
#include "src/error.hpp"
#include "src/gpu_runtime.hpp"
#include "src/op/command_line.hpp"
#include "src/parallel.hpp"
#include "src/report/text_escape.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/avif_codec.hpp"
#include "src/io/gif_codec.hpp"
#include "src/io/png_codec.hpp"
#include "src/io/tiff_codec.hpp"
#include "src/io/webp_codec.hpp"
#include "src/run/input_list.hpp"
#include "src/run/report_file.hpp"

using namespace imgpar;
using namespace imgpar::cli;

namespace {

// glibc hands a freed block of more than 128 KiB back to the kernel (the
// bound rises as such blocks are freed, but not for every size a batch
// sees), and the next file's block of that size is faulted in afresh, page
// by page, which virtual machines and sandboxes make dear: 0.3-1.5 GB/s on a
// core. Every file of a run needs much the same buffers (its bytes, the
// decoder's arrays, the pixels), so freed memory stays in the heap for the
// next file instead: 60 photos blurred on a 2-core VM took 2.0 s instead of
// 2.9-3.6 s (system time 0.5 s instead of 1.3-1.6 s), and a 520-photo batch
// on a 16-core GPU machine spent a quarter less system time. The peak is
// what the files worked on at once need, as before; only its pages stay
// mapped until the process ends.
void keep_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);   // blocks up to 32 MiB (glibc's largest) from the heap
    mallopt(M_TRIM_THRESHOLD, 1 << 30);    // and the heap's free top kept up to 1 GiB
#endif
}

void print_overview(std::ostream& os) {
    os << "imgpar " IMGPAR_VERSION " - image processing on the GPU\n\n"
          "usage: imgpar [GLOBAL OPTIONS] COMMAND [OPTIONS] ARGS...\n"
          "       imgpar COMMAND --help     options of one command (also: imgpar help COMMAND)\n"
          "       imgpar -V, --version      version, backends and codecs\n\n"
          "commands:\n";
    std::size_t width = 0;
    for (const auto& c : command_table()) width = std::max(width, c.name.size());
    for (const auto& c : command_table())
        os << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n";
    os << "\nEvery command takes the global options --device auto|cpu|gpu[:N], -q/--quiet, -v/--verbose,\n"
          "--max-pixels N, --max-memory SIZE, --threads N and --allow-partial, before or after its name.\n"
          "'-' as a file name reads standard input or writes standard output.\n"
          "Exit codes: 0 success, 1 an input or output failed, 2 usage error, 3 the requested GPU is\n"
          "unavailable or failed (retry elsewhere), 4 a compare check (--fail-above/--fail-below) failed.\n";
}

void print_version(std::ostream& os) {
    const GpuStatus s = gpu_versions();  // CUDA is not initialised for this
    os << "imgpar " IMGPAR_VERSION "\n";
    if (s.built_with_cuda)
        os << "CUDA backend: built with CUDA runtime " << cuda_version_string(s.runtime_version) << "; "
           << (s.driver_version > 0 ? "the driver supports CUDA " + cuda_version_string(s.driver_version)
                                    : std::string("no NVIDIA driver found"))
           << "\n";
    else
        os << "CUDA backend: not built (CPU only)\n";
    os << "JPEG: " << jpeg_codec_name() << "; PNG: " << png_codec_name() << "; BMP: stb_image\n";
    const auto or_none = [](const std::string& name) { return name.empty() ? std::string("not built") : name; };
    os << "WebP: " << or_none(webp_codec_name()) << "; AVIF: " << or_none(avif_codec_name())
       << "; GIF (read): " << or_none(gif_codec_name()) << "; TIFF: " << or_none(tiff_codec_name()) << "\n";
}

const Command* find_command(const std::string& name) {
    for (const auto& c : command_table())
        if (name == c.name) return &c;
    return nullptr;
}

int unknown_command(const std::string& name) {
    std::string hint;
    std::size_t best = 3;
    for (const auto& c : command_table()) {
        std::size_t d = imgpar::edit_distance(name, c.name);
        if (d < best) {
            best = d;
            hint = c.name;
        }
    }
    std::cerr << "imgpar: error: unknown command '" << escape_control(name) << "'";
    if (!hint.empty()) std::cerr << "; did you mean '" << hint << "'?";
    std::cerr << "\nRun 'imgpar --help' to list the commands.\n";
    return kExitUsage;
}

int usage_error_exit(const Command& cmd, const std::string& message) {
    std::cerr << "imgpar " << cmd.name << ": error: " << escape_control(message) << "\n";
    print_usage_hint(std::cerr, cmd);
    return kExitUsage;
}

int run_command(const Command& cmd, const std::vector<std::string>& args) {
    const std::vector<OptionGroup> groups = option_groups(cmd);
    std::vector<ParamSpec> specs;  // outlives the values, which refer to them
    for (const OptionGroup& g : groups) specs.insert(specs.end(), g.params.begin(), g.params.end());
    try {
        const CommandLine line = parse_command_line(specs, args, cmd.name);
        if (line.help) {
            print_help(std::cout, cmd);
            return kExitOk;
        }
        const std::vector<std::string>& positionals = line.positionals;
        int n = static_cast<int>(positionals.size());
        if (n < cmd.min_positionals)
            return usage_error_exit(cmd, n == 0 ? "missing arguments" : "too few arguments");
        if (cmd.max_positionals >= 0 && n > cmd.max_positionals)
            return usage_error_exit(cmd, "unexpected argument '" + positionals[cmd.max_positionals] + "'");

        const ParamValues values(specs, line.given);
        GlobalOptions global = read_global_options(values);
        set_cpu_thread_count(global.threads);
        Diagnostics diag(std::cerr, global.quiet(), global.verbose());
        for (const std::string& unused : values.unused_options()) diag.warning(cmd.name + ": " + unused);
        std::optional<ReportFile> report = open_report_file(values);  // --json-file
        Invocation inv{cmd.name, values, positionals, global, diag, report ? report->stream() : std::cout};
        int code = kExitOk;
        try {
            code = cmd.run(inv);
        } catch (const EmptyShare& empty) {
            const std::string inputs = empty.inputs == 1 ? std::string("the only input is in another share")
                                                         : "none of the " + std::to_string(empty.inputs) + " inputs is in this share";
            diag.notice(cmd.name + ": --shard " + empty.shard + ": " + inputs + ": nothing to do");
        }
        if (report) report->commit();
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "imgpar: error: <stdout>: write failed\n";
            return kExitFileFailed;
        }
        return code;
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::Usage) return usage_error_exit(cmd, e.what());
        std::cerr << "imgpar: error: " << escape_control(e.what()) << "\n";
        return e.kind() == ErrorKind::Device ? kExitGpuUnavailable : kExitFileFailed;
    } catch (const std::bad_alloc&) {
        std::cerr << "imgpar: error: out of memory\n";
        return kExitFileFailed;
    } catch (const std::exception& e) {
        std::cerr << "imgpar: error: " << escape_control(e.what()) << "\n";
        return kExitFileFailed;
    }
}

// What may come before the command: the options every command takes, help
// and version.
std::vector<ParamSpec> leading_options() {
    std::vector<ParamSpec> specs = common_options().params;
    specs.push_back(ParamSpec::flag("version", "Print the version").abbreviated("V"));
    return specs;
}

}  // namespace

int main(int argc, char** argv) {
    keep_freed_memory();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        print_overview(std::cerr);
        return kExitUsage;
    }
    // Global options may precede the command ("imgpar -v blur a.png b.png"):
    // they are handed to it as if written after its name.
    const std::vector<ParamSpec> leading_specs = leading_options();
    CommandLine leading;
    try {
        leading = parse_command_line(leading_specs, args, "", true);
    } catch (const Error& e) {
        std::cerr << "imgpar: error: " << escape_control(e.what()) << "\nRun 'imgpar --help' to list the commands.\n";
        return kExitUsage;
    }
    std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(leading.stopped_at), args.end());
    const Command* cmd = rest.empty() ? nullptr : find_command(rest[0]);
    if (leading.help) {
        if (cmd) return run_command(*cmd, {"--help"});
        print_overview(std::cout);
        return kExitOk;
    }
    std::vector<std::string> command_args;
    for (const auto& [name, value] : leading.given) {
        if (name == "version") {
            print_version(std::cout);
            return kExitOk;
        }
        const bool flag = value.empty() && std::any_of(leading_specs.begin(), leading_specs.end(), [&](const ParamSpec& p) {
                              return p.name == name && p.kind == ParamKind::Flag;
                          });
        command_args.push_back("--" + name + (flag ? "" : "=" + value));
    }
    if (rest.empty()) {
        std::cerr << "imgpar: error: missing the command after the options\nRun 'imgpar --help' to list the commands.\n";
        return kExitUsage;
    }
    if (rest[0] == "help") {
        if (rest.size() < 2) {
            print_overview(std::cout);
            return kExitOk;
        }
        const Command* topic = find_command(rest[1]);
        if (!topic) return unknown_command(rest[1]);
        return run_command(*topic, {"--help"});
    }
    if (!cmd) return unknown_command(rest[0]);
    command_args.insert(command_args.end(), rest.begin() + 1, rest.end());
    const int code = run_command(*cmd, command_args);
    // Every output is written and closed by now. A process that started CUDA
    // leaves without static destructors: a JPEG batch's hardware decoder may
    // still be starting on a thread (nvJPEG's set-up cannot be cut short,
    // and a batch may end first), which the runtime's teardown must not race.
    if (cuda_started()) {
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        std::_Exit(code);
    }
    return code;
}
