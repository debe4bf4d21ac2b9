#include "src/run/output_names.hpp"

#include <filesystem>
#include <map>
#include <utility>

#include "src/error.hpp"
#include "src/io/page_select.hpp"
#include "src/io/same_file.hpp"

namespace imgpar {

namespace {

struct NameParts {
    std::string dir, name, stem, ext;
};

// A page of a multi-page file ("scan.tif[2]", src/io/page_select.hpp) is
// named as the file with "_p2" after its stem: scan_p2.tif, so that pages
// of one file get outputs of their own.
NameParts split_name(const std::string& given) {
    NameParts p;
    const PagedPath paged = split_page_suffix(given);
    const std::string& input = paged.path;
    const std::string page = paged.page >= 0 ? "_p" + std::to_string(paged.page) : "";
    const std::size_t slash = input.find_last_of('/');
    p.dir = slash == std::string::npos ? "." : slash == 0 ? "/" : input.substr(0, slash);
    p.name = slash == std::string::npos ? input : input.substr(slash + 1);
    const std::size_t dot = p.name.find_last_of('.');
    // A leading dot (".hidden") starts a name, not an extension.
    if (dot == std::string::npos || dot == 0) {
        p.stem = p.name + page;
    } else {
        p.stem = p.name.substr(0, dot) + page;
        p.ext = p.name.substr(dot + 1);
    }
    if (!page.empty()) p.name = p.stem + (p.ext.empty() ? "" : "." + p.ext);
    return p;
}

const char* extension_of(ImageFormat f) {
    switch (f) {
        case ImageFormat::Png: return "png";
        case ImageFormat::Jpeg: return "jpg";
        case ImageFormat::Bmp: return "bmp";
        case ImageFormat::Webp: return "webp";
        case ImageFormat::Avif: return "avif";
        case ImageFormat::Gif: return "gif";
        case ImageFormat::Tiff: return "tif";
    }
    return "png";
}

}  // namespace

std::string expand_output_template(const std::string& t, const std::string& input) {
    const NameParts parts = split_name(input);
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if ((c == '{' || c == '}') && i + 1 < t.size() && t[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c == '}') throw usage_error("--output", "'" + t + "': a '}' without its '{' (write }} for a brace)");
        if (c != '{') {
            out += c;
            continue;
        }
        const std::size_t close = t.find('}', i);
        if (close == std::string::npos)
            throw usage_error("--output", "'" + t + "': a '{' without its '}' (write {{ for a brace)");
        const std::string key = t.substr(i + 1, close - i - 1);
        if (key == "name") out += parts.name;
        else if (key == "stem") out += parts.stem;
        else if (key == "ext") out += parts.ext;
        else if (key == "dir") out += parts.dir;
        else
            throw usage_error("--output", "'" + t + "': unknown placeholder {" + key +
                                              "} (allowed: {name}, {stem}, {ext}, {dir})");
        i = close;
    }
    return out;
}

std::string output_for(const OutputRule& rule, const std::string& input) {
    if (!rule.output_template.empty()) return expand_output_template(rule.output_template, input);
    const NameParts parts = split_name(input);
    std::string name = parts.name;
    if (rule.format) name = parts.stem + "." + extension_of(*rule.format);
    std::string dir = rule.out_dir;
    if (dir.back() != '/') dir += '/';
    return dir + name;
}

void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
    std::map<std::string, std::string> input_by_path;  // normal path -> input as named
    std::map<std::pair<dev_t, ino_t>, std::string> input_by_id;
    for (const std::string& in : inputs) {
        if (in == "-")
            throw usage_error("-", "standard input has no name to name an output after; use the IN OUT form");
        const std::string file = split_page_suffix(in).path;  // a page's file ("a.tif[2]": a.tif)
        input_by_path.emplace(normal_path(file), in);
        if (const auto id = file_id(file)) input_by_id.emplace(*id, in);
    }
    std::map<std::string, std::string> seen;  // normal output path -> its input
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string& out = outputs[i];
        if (out.empty() || out.back() == '/')
            throw usage_error(out.empty() ? "--output" : out, "is not a file name (from input " + inputs[i] + ")");
        const std::string key = normal_path(out);
        auto [it, fresh] = seen.emplace(key, inputs[i]);
        if (!fresh)
            throw usage_error(out, "would be written twice: from " + it->second + " and from " + inputs[i] +
                                       " (use {dir} or another template to keep them apart)");
        std::string hit;
        if (auto p = input_by_path.find(key); p != input_by_path.end()) hit = p->second;
        if (hit.empty())
            if (const auto id = file_id(out))
                if (auto p = input_by_id.find(*id); p != input_by_id.end()) hit = p->second;
        if (!hit.empty())
            throw usage_error(out, "is an input (" + hit + "): a batch never overwrites its inputs; choose another "
                                   "--out-dir or --output");
    }
}

void make_output_folder(const std::string& output) {
    const std::filesystem::path parent = std::filesystem::path(output).parent_path();
    if (parent.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) throw output_error(output, "cannot create its folder: " + ec.message());
}

std::string output_name(const std::string& output) { return output == "-" ? "<stdout>" : output; }

}  // namespace imgpar
