#include "cli/compare_pairs.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "cli/common_options.hpp"
#include "src/run/input_list.hpp"
#include "cli/output_plan.hpp"
#include "src/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/image_format.hpp"
#include "src/io/same_file.hpp"

namespace imgpar::cli {
namespace {

namespace fs = std::filesystem;

bool is_folder(const std::string& path) {
    std::error_code ec;
    return path != "-" && fs::is_directory(fs::path(path), ec);
}

std::string joined(const std::string& dir, const std::string& name) {
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string base_name(const std::string& path) {
    if (path == "-")
        throw usage_error("-", "standard input has no name to look for in a folder; compare it with a file: - B");
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The names of the files in `dir` that a folder comparison takes: regular
// files (links followed) whose names do not start with '.', sorted byte-wise.
std::vector<std::string> listed_files(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    fs::directory_iterator it(fs::path(dir), ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code kind_ec;
        if (name.empty() || name[0] == '.' || !it->is_regular_file(kind_ec)) continue;
        names.push_back(name);
    }
    if (ec) throw input_error(dir, "cannot list the folder: " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
}

// Every name of either folder, in order; one missing on a side fails.
std::vector<ComparePair> folder_pairs(const std::string& dir_a, const std::string& dir_b) {
    const std::vector<std::string> in_a = listed_files(dir_a), in_b = listed_files(dir_b);
    std::vector<ComparePair> pairs;
    std::size_t i = 0, j = 0;
    while (i < in_a.size() || j < in_b.size()) {
        const bool take_a = j == in_b.size() || (i < in_a.size() && in_a[i] <= in_b[j]);
        const bool take_b = i == in_a.size() || (j < in_b.size() && in_b[j] <= in_a[i]);
        const std::string& name = take_a ? in_a[i] : in_b[j];
        ComparePair p{joined(dir_a, name), joined(dir_b, name), {}, {}, {}};
        if (!take_b) p.missing = p.b + ": no such file (" + name + " is in " + dir_a + " only)";
        if (!take_a) p.missing = p.a + ": no such file (" + name + " is in " + dir_b + " only)";
        pairs.push_back(std::move(p));
        i += take_a;
        j += take_b;
    }
    if (pairs.empty())
        throw usage_error(dir_a, "nothing to compare: neither " + dir_a + " nor " + dir_b + " holds a file");
    return pairs;
}

// Pairs number K, K+N, ... (1-based) for --shard K/N.
std::vector<ComparePair> shard_of(std::vector<ComparePair> pairs, const ParamValues& values) {
    if (!values.given("shard")) return pairs;
    const Shard shard = parse_shard(values.text("shard"));
    std::vector<ComparePair> mine;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (static_cast<long long>(i % static_cast<std::size_t>(shard.count)) == shard.index - 1)
            mine.push_back(std::move(pairs[i]));
    if (mine.empty()) throw EmptyShare{values.text("shard"), pairs.size()};
    return mine;
}

std::string expanded(const std::string& option, const std::string& output_template, const std::string& input) {
    try {
        return expand_output_template(output_template, input);
    } catch (const Error& e) {
        throw usage_error(option, e.reason());
    }
}

}  // namespace

std::vector<ComparePair> compare_pairs(const std::vector<std::string>& positionals, const ParamValues& values) {
    check_stdin_used_once(positionals);
    const std::size_t n = positionals.size();
    const bool list = values.given("files-from");
    if (list && (n == 0 || !is_folder(positionals.back())))
        throw usage_error("--files-from", "compares the files it names with those of a folder: give the folder last "
                                          "(imgpar compare --files-from LIST [FILE...] DIR)");
    if (!list && n < 2)
        throw usage_error(n == 0 ? "arguments" : "B",
                          "missing (compare A B, two folders A/ B/, or FILE... DIR)");
    std::vector<ComparePair> pairs;
    if (!list && n == 2 && !is_folder(positionals[1])) {
        if (is_folder(positionals[0]))  // DIR FILE: DIR/name against FILE
            pairs.push_back({joined(positionals[0], base_name(positionals[1])), positionals[1], {}, {}, {}});
        else
            pairs.push_back({positionals[0], positionals[1], {}, {}, {}});
        return pairs;
    }
    if (!list && n == 2 && is_folder(positionals[0])) return shard_of(folder_pairs(positionals[0], positionals[1]), values);
    const std::string& dir = positionals.back();
    if (!is_folder(dir))
        throw usage_error(dir, "unexpected argument: several files are compared with a folder's files of the same "
                               "name (FILE... DIR), and " + dir + " is not a folder");
    const std::vector<std::string> files =
        gather_inputs(std::vector<std::string>(positionals.begin(), positionals.end() - 1), values);  // --shard too
    for (const std::string& f : files) {
        if (is_folder(f))
            throw usage_error(f, "is a folder: compare two folders as A/ B/, or files with a folder as FILE... DIR");
        pairs.push_back({f, joined(dir, base_name(f)), {}, {}, {}});
    }
    if (pairs.empty()) throw usage_error("inputs", "no files to compare with " + dir);
    return pairs;
}

void plan_compare_outputs(std::vector<ComparePair>& pairs, const std::string& diff_template,
                          const std::string& map_template) {
    if (diff_template.empty() && map_template.empty()) return;
    std::map<std::string, std::string> input_by_path;
    std::map<std::pair<dev_t, ino_t>, std::string> input_by_id;
    for (const ComparePair& p : pairs)
        for (const std::string* in : {&p.a, &p.b}) {
            if (*in == "-") continue;
            input_by_path.emplace(normal_path(*in), display_name(*in));
            if (const auto id = file_id(*in)) input_by_id.emplace(*id, display_name(*in));
        }
    std::map<std::string, std::string> written;  // normal path -> the pair writing it
    const auto plan = [&](const ComparePair& p, const std::string& option, const std::string& tmpl) {
        const std::string out = expanded(option, tmpl, p.a);
        if (out == "-")
            throw usage_error(option, "cannot write to standard output, which carries the report: name a file "
                                      "(.png, .jpg or .bmp)");
        if (out.empty() || out.back() == '/') throw usage_error(option, "'" + out + "' is not a file name");
        if (!format_from_extension(out))
            throw usage_error(option, "'" + out + "': the extension names no image format (use .png, .jpg, .jpeg "
                                      "or .bmp; .png keeps every value exactly)");
        const std::string key = normal_path(out);
        std::string hit;
        if (const auto it = input_by_path.find(key); it != input_by_path.end()) hit = it->second;
        if (hit.empty())
            if (const auto id = file_id(out))
                if (const auto it = input_by_id.find(*id); it != input_by_id.end()) hit = it->second;
        if (!hit.empty())
            throw usage_error(option, "'" + out + "' is the input " + hit +
                                          ": compare never replaces its inputs; choose another name");
        const std::string who = display_name(p.a) + " vs " + display_name(p.b);
        const auto [it, fresh] = written.emplace(key, who);
        if (!fresh)
            throw usage_error(option, "'" + out + "' would be written twice: for " + it->second + " and for " + who +
                                          " (name it from each pair with {name}, {stem} or {dir})");
        return out;
    };
    for (ComparePair& p : pairs) {
        if (!diff_template.empty()) p.diff = plan(p, "--diff", diff_template);
        if (!map_template.empty()) p.ssim_map = plan(p, "--ssim-map", map_template);
    }
    if (pairs.size() > 1)
        for (const ComparePair& p : pairs) {
            if (!p.diff.empty()) make_output_folder(p.diff);
            if (!p.ssim_map.empty()) make_output_folder(p.ssim_map);
        }
}

}  // namespace imgpar::cli
