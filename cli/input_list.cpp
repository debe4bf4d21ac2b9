#include "cli/input_list.hpp"

#include "cli/common_options.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar::cli {

OptionGroup input_list_options() {
    return {"Inputs",
            {ParamSpec::path("files-from", "FILE",
                             "Also read input names from FILE ('-': standard input), one per line or NUL-separated"),
             ParamSpec::text("shard", "K/N", "Process only the K-th of N shares of the inputs (1 <= K <= N)",
                             "K/N, e.g. 3/8: inputs number K, K+N, K+2N... of the list")}};
}

Shard parse_shard(const std::string& text) {
    const auto bad = [&] {
        return usage_error("--shard", "'" + text + "' is not K/N with 1 <= K <= N (e.g. 1/4, 4/4)");
    };
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw bad();
    const auto number = [&](const std::string& s) {
        if (s.size() > 12) throw bad();
        for (char c : s)
            if (c < '0' || c > '9') throw bad();
        return std::stoll(s);
    };
    Shard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) throw bad();
    return shard;
}

std::vector<std::string> split_file_list(const std::string& text) {
    const bool nul = text.find('\0') != std::string::npos;
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(nul ? '\0' : '\n', start);
        if (end == std::string::npos) end = text.size();
        std::string name = text.substr(start, end - start);
        if (!nul && !name.empty() && name.back() == '\r') name.pop_back();
        if (!name.empty()) names.push_back(std::move(name));
        start = end + 1;
    }
    return names;
}

std::vector<std::string> take_shard(const std::vector<std::string>& names, const Shard& shard) {
    std::vector<std::string> mine;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (static_cast<long long>(i % static_cast<std::size_t>(shard.count)) == shard.index - 1) mine.push_back(names[i]);
    return mine;
}

namespace {

// A list of a million file names takes some 100 MB; /dev/zero or a runaway
// pipe is refused at the bound instead of filling memory.
std::string read_list(const std::string& path) {
    const ReadBound bound{std::uint64_t{256} << 20, "256 MiB, the most imgpar reads as a list of files"};
    try {
        const std::vector<std::uint8_t> bytes = read_text_input(path, bound);
        return std::string(bytes.begin(), bytes.end());
    } catch (const Error& e) {
        throw input_error("--files-from " + display_name(path), e.reason());
    }
}

}  // namespace

std::vector<std::string> gather_inputs(const std::vector<std::string>& positionals, const ParamValues& values) {
    std::vector<std::string> names = positionals;
    if (values.given("files-from")) {
        const std::string& list = values.text("files-from");
        if (list == "-")
            for (const std::string& p : positionals)
                if (p == "-") throw usage_error("--files-from -", "standard input cannot be both the list and an input");
        for (std::string& n : split_file_list(read_list(list))) names.push_back(std::move(n));
    }
    check_stdin_used_once(names);
    if (values.given("shard")) names = take_shard(names, parse_shard(values.text("shard")));
    return names;
}

}  // namespace imgpar::cli
