#include "src/run/report_file.hpp"

#include <filesystem>
#include <system_error>

#include "src/run/input_list.hpp"
#include "src/error.hpp"
#include "src/io/atomic_write.hpp"

namespace imgpar {

ParamSpec json_file_param() {
    return ParamSpec::path("json-file", "TEMPLATE",
                           "Write the --json lines to this file instead of standard output (implies --json); "
                           "{shard} in the name becomes K-of-N, e.g. report-{shard}.jsonl");
}

std::string report_file_name(const std::string& name_template, const Shard& shard) {
    if (name_template.empty()) throw usage_error("--json-file", "the file name is empty");
    std::string count = std::to_string(shard.count);
    std::string index = std::to_string(shard.index);
    index.insert(0, count.size() - std::min(count.size(), index.size()), '0');
    std::string name;
    for (std::size_t i = 0; i < name_template.size(); ++i) {
        const char c = name_template[i];
        if ((c == '{' || c == '}') && i + 1 < name_template.size() && name_template[i + 1] == c) {
            name += c;
            ++i;
        } else if (name_template.compare(i, 7, "{shard}") == 0) {
            name += index + "-of-" + count;
            i += 6;
        } else if (c == '{' || c == '}') {
            throw usage_error("--json-file", "'" + name_template + "': the only placeholder is {shard} ('{{' and '}}' "
                                             "are braces)");
        } else {
            name += c;
        }
    }
    return name;
}

void ReportFile::commit() {
    const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    if (!parent.empty() && path_ != "-") {
        std::error_code ec;
        std::filesystem::create_directories(parent, ec);
        if (ec) throw output_error(path_, "cannot create its folder: " + ec.message());
    }
    const std::string text = text_.str();
    write_file_atomically(path_, text.data(), text.size());
}

std::optional<ReportFile> open_report_file(const ParamValues& values) {
    if (!values.has("json-file") || !values.given("json-file")) return std::nullopt;
    const Shard shard = values.given("shard") ? parse_shard(values.text("shard")) : Shard{};
    return ReportFile(report_file_name(values.text("json-file"), shard));
}

}  // namespace imgpar
