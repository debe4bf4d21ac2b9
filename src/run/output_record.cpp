#include "src/run/output_record.hpp"

#include <filesystem>
#include <system_error>

#include "src/run/output_names.hpp"

namespace imgpar {

JsonObject output_record(const std::string& command, const BatchItem& item, const std::string& schema) {
    JsonObject o;
    o.add("schema", schema).add("command", command).add("input", item.name).add("output", output_name(item.output));
    return o;
}

std::string output_skipped(const std::string& command, const BatchItem& item, bool json, const std::string& schema) {
    if (!json) return std::string();
    return output_record(command, item, schema).add("ok", true).add("skipped", true).str() + "\n";
}

std::string output_failure(const std::string& command, const BatchItem& item, const Error& error, bool json,
                           const std::string& schema) {
    if (!json) return std::string();
    return output_record(command, item, schema).add("ok", false).add("error", error.what()).str() + "\n";
}

void add_run_members(JsonObject& o, const JsonObject& operation, const std::string& kernel, const BackendChoice& used) {
    o.add("operation", operation).add("backend", backend_name(used.backend));
    if (used.backend == Backend::Gpu)
        o.add("device", used.gpu_name).add("gpu", used.gpu_index);
    else
        o.add_null("device");
    o.add("kernel", kernel);
}

bool output_exists(const BatchItem& item) {
    std::error_code ec;
    return item.output != "-" && std::filesystem::exists(std::filesystem::path(item.output), ec);
}

}  // namespace imgpar
