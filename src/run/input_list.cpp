#include "src/run/input_list.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "src/run/slurm_array.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"

namespace imgpar {

Shard parse_shard(const std::string& text) {
    if (text == "slurm") return slurm_array_shard([](const char* name) { return std::getenv(name); });
    const auto bad = [&] {
        return usage_error("--shard", "'" + text + "' is not K/N with 1 <= K <= N (e.g. 1/4, 4/4) or slurm");
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
    // Ranks in the byte-wise sorted list of distinct names: a list's order
    // may differ between the tasks (a glob sorted by each node's locale,
    // find's directory order), its sorted set does not. A name given twice
    // has one rank, so its copies stay together in one task.
    std::vector<std::string_view> sorted(names.begin(), names.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    const auto count = static_cast<std::size_t>(shard.count);
    std::vector<std::string> mine;
    for (const std::string& name : names) {
        const auto rank = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), name) - sorted.begin());
        if (static_cast<long long>(rank % count) == shard.index - 1) mine.push_back(name);
    }
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
    if (names.empty()) throw usage_error("inputs", "no input files (name them, or give --files-from FILE)");
    if (values.given("shard")) {
        const std::size_t all = names.size();
        names = take_shard(names, parse_shard(values.text("shard")));
        if (names.empty()) throw EmptyShare{values.text("shard"), all};
    }
    return names;
}

void check_stdin_used_once(const std::vector<std::string>& inputs) {
    int uses = 0;
    for (const auto& p : inputs) uses += p == "-";
    if (uses > 1) throw usage_error("-", "standard input can be read only once");
}

}  // namespace imgpar
