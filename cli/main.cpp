// imgpar's entry point: finds the command, parses its options with cxxopts,
// runs it, and turns errors into messages and exit codes (0 ok, 1 a file
// failed, 2 usage). Nothing below main exits the process.
#include <cxxopts.hpp>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/common_options.hpp"
#include "src/error.hpp"
#include "src/gpu_runtime.hpp"
#include "src/io/jpeg_codec.hpp"

using namespace imgpar;
using namespace imgpar::cli;

namespace {

void print_overview(std::ostream& os) {
    os << "imgpar " IMGPAR_VERSION " - image processing on the GPU\n\n"
          "usage: imgpar COMMAND [OPTIONS] ARGS...\n"
          "       imgpar COMMAND --help     options of one command\n"
          "       imgpar --version\n\n"
          "commands:\n";
    for (const auto& c : command_table()) {
        std::string name = c.name;
        os << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ') << c.summary << "\n";
    }
    os << "\nEvery command takes --device auto|cpu|gpu[:N], -q/--quiet, -v/--verbose and --max-pixels N.\n"
          "'-' as a file name reads standard input or writes standard output.\n"
          "Exit codes: 0 success, 1 an input or output failed, 2 usage error.\n";
}

void print_version(std::ostream& os) {
    const GpuStatus& s = gpu_status();
    os << "imgpar " IMGPAR_VERSION "\n";
    if (s.built_with_cuda)
        os << "CUDA backend: built with CUDA runtime " << cuda_version_string(s.runtime_version) << "; "
           << (s.driver_version > 0 ? "the driver supports CUDA " + cuda_version_string(s.driver_version)
                                    : std::string("no NVIDIA driver found"))
           << "\n";
    else
        os << "CUDA backend: not built (CPU only)\n";
    os << "JPEG: " << jpeg_codec_name() << "; PNG: " << png_codec_name() << "; BMP: stb_image\n";
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
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
        std::size_t d = edit_distance(name, c.name);
        if (d < best) {
            best = d;
            hint = c.name;
        }
    }
    std::cerr << "imgpar: error: unknown command '" << name << "'";
    if (!hint.empty()) std::cerr << "; did you mean '" << hint << "'?";
    std::cerr << "\nRun 'imgpar --help' to list the commands.\n";
    return kExitUsage;
}

// The command's option groups, then the common ones.
std::vector<OptionGroup> option_groups(const Command& cmd) {
    std::vector<OptionGroup> groups = cmd.options;
    groups.push_back(common_options());
    return groups;
}

// Every option is a declared parameter: flags stay flags, every value is
// taken as text and parsed strictly when read (src/op/param.hpp).
cxxopts::Options make_options(const Command& cmd, const std::vector<OptionGroup>& groups) {
    cxxopts::Options options("imgpar " + cmd.name, cmd.summary + "\n\n" + cmd.description + "\n");
    options.positional_help(cmd.positional_help).show_positional_help();
    options.set_width(100);
    for (const OptionGroup& g : groups) {
        auto adder = options.add_options(g.name);
        for (const ParamSpec& p : g.params) {
            const std::string names = p.short_name.empty() ? p.name : p.short_name + "," + p.name;
            if (p.kind == ParamKind::Flag) {
                adder(names, p.help_text());
                continue;
            }
            auto value = cxxopts::value<std::string>();
            if (p.default_value) value->default_value(*p.default_value);
            adder(names, p.help_text(), value, p.value_name);
        }
    }
    // No positional option: cxxopts would split its values at commas. The
    // arguments it does not match are the file names, byte for byte.
    return options;
}

std::vector<std::string> help_groups(const cxxopts::Options& options) {
    std::vector<std::string> groups;
    for (const auto& g : options.groups())
        if (g != "Common") groups.push_back(g);
    groups.push_back("Common");
    return groups;
}

int usage_error_exit(const Command& cmd, const std::string& message) {
    std::cerr << "imgpar " << cmd.name << ": error: " << message << "\n"
              << "usage: imgpar " << cmd.name << " [OPTIONS] " << cmd.positional_help << "\n"
              << "Run 'imgpar " << cmd.name << " --help' for the options.\n";
    return kExitUsage;
}

int run_command(const Command& cmd, int argc, char** argv) {
    const std::vector<OptionGroup> groups = option_groups(cmd);
    cxxopts::Options options = make_options(cmd, groups);
    std::vector<ParamSpec> specs;  // outlives the values, which refer to them
    for (const OptionGroup& g : groups) specs.insert(specs.end(), g.params.begin(), g.params.end());
    std::vector<std::string> positionals;
    try {
        auto args = options.parse(argc, argv);
        if (args.count("help")) {
            std::cout << options.help(help_groups(options));
            return kExitOk;
        }
        positionals = args.unmatched();
        int n = static_cast<int>(positionals.size());
        if (n < cmd.min_positionals)
            return usage_error_exit(cmd, n == 0 ? "missing arguments" : "too few arguments");
        if (cmd.max_positionals >= 0 && n > cmd.max_positionals)
            return usage_error_exit(cmd, "unexpected argument '" + positionals[cmd.max_positionals] + "'");

        std::vector<std::pair<std::string, std::string>> given;
        for (const ParamSpec& p : specs)
            if (args.count(p.name))
                given.emplace_back(p.name, p.kind == ParamKind::Flag ? std::string() : args[p.name].as<std::string>());
        const ParamValues values(specs, given);
        GlobalOptions global = read_global_options(values);
        Diagnostics diag(std::cerr, global.quiet, global.verbose);
        Invocation inv{cmd.name, values, positionals, global, diag, std::cout};
        int code = cmd.run(inv);
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "imgpar: error: <stdout>: write failed\n";
            return kExitFileFailed;
        }
        return code;
    } catch (const cxxopts::exceptions::exception& e) {
        return usage_error_exit(cmd, e.what());
    } catch (const Error& e) {
        if (e.kind() == ErrorKind::Usage) return usage_error_exit(cmd, e.what());
        std::cerr << "imgpar: error: " << e.what() << "\n";
        return e.kind() == ErrorKind::Device ? kExitGpuUnavailable : kExitFileFailed;
    } catch (const std::bad_alloc&) {
        std::cerr << "imgpar: error: out of memory\n";
        return kExitFileFailed;
    } catch (const std::exception& e) {
        std::cerr << "imgpar: error: " << e.what() << "\n";
        return kExitFileFailed;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_overview(std::cerr);
        return kExitUsage;
    }
    std::string first = argv[1];
    if (first == "-h" || first == "--help") {
        print_overview(std::cout);
        return kExitOk;
    }
    if (first == "--version" || first == "-V") {
        print_version(std::cout);
        return kExitOk;
    }
    if (first == "help") {
        if (argc < 3) {
            print_overview(std::cout);
            return kExitOk;
        }
        const Command* cmd = find_command(argv[2]);
        if (!cmd) return unknown_command(argv[2]);
        char help_flag[] = "--help";
        char* help_argv[] = {argv[0], help_flag};
        return run_command(*cmd, 2, help_argv);
    }
    if (!first.empty() && first[0] == '-') {
        std::cerr << "imgpar: error: expected a command before '" << first << "'\nRun 'imgpar --help' to list the commands.\n";
        return kExitUsage;
    }
    const Command* cmd = find_command(first);
    if (!cmd) return unknown_command(first);
    // argv[0] for cxxopts is the command; options and arguments follow.
    return run_command(*cmd, argc - 1, argv + 1);
}
