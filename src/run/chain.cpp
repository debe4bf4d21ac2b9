#include "src/run/chain.hpp"

#include <algorithm>

#include "src/error.hpp"
#include "src/io/jpeg_codec.hpp"
#include "src/io/load.hpp"
#include "src/op/command_line.hpp"

namespace imgpar {

Chain Chain::of(const Operation& op, std::unique_ptr<ImageJob> job, std::string text) {
    Chain c;
    c.add(Stage{&op, std::move(job), std::move(text)});
    return c;
}

namespace {

// "stage 2 (sharpen)" in a chain of several stages, "sharpen" alone.
std::string stage_label(const Chain& chain, std::size_t i) {
    const std::string name = chain.stages()[i].op ? chain.stages()[i].op->name : std::string("stage");
    if (chain.size() == 1) return name;
    return "stage " + std::to_string(i + 1) + " (" + name + ")";
}

}  // namespace

std::vector<ImageShape> Chain::shapes(const ImageShape& in, const std::string& file) const {
    std::vector<ImageShape> out{in};
    out.reserve(stages_.size() + 1);
    for (std::size_t i = 0; i < stages_.size(); ++i) {
        const ImageJob& job = *stages_[i].job;
        try {
            job.check_input(out.back(), file);
        } catch (const Error& e) {
            if (stages_.size() == 1 || e.kind() != ErrorKind::Input) throw;
            throw input_error(file, stage_label(*this, i) + ": " + e.reason());
        }
        out.push_back(job.output_shape(out.back()));
    }
    return out;
}

Chain::LoadShapes Chain::load_shapes(const ImageShape& full, bool jpeg, const std::string& file) const {
    LoadShapes r;
    if (!stages_.empty() && jpeg && jpeg_codec_available()) r.shrink = stages_.front().job->load_shrink(full);
    r.shapes = shapes(r.shrink > 1 ? ImageShape{shrunk_side(full.width, r.shrink), shrunk_side(full.height, r.shrink),
                                                full.channels, full.type}
                                   : full,
                      file);
    return r;
}

double Chain::peak_bytes(const std::vector<ImageShape>& shapes, double sink_images) const {
    double peak = sink_images * static_cast<double>(shapes.back().bytes());
    for (std::size_t i = 0; i < stages_.size(); ++i) {
        const Stage& s = stages_[i];
        const double images = s.job->peak_images().value_or(s.op ? s.op->peak_images : 7.0);
        const double larger = static_cast<double>(std::max(shapes[i].bytes(), shapes[i + 1].bytes()));
        peak = std::max(peak, images * larger);
    }
    return peak;
}

std::string Chain::describe() const {
    std::string d;
    for (const Stage& s : stages_) d += (d.empty() ? "" : " | ") + s.job->describe();
    return d;
}

std::string Chain::text() const {
    std::string t;
    for (const Stage& s : stages_) t += (t.empty() ? "" : " | ") + s.text;
    return t;
}

std::vector<std::vector<std::string>> split_chain_words(const std::string& text) {
    std::vector<std::vector<std::string>> stages(1);
    std::string word;
    bool in_word = false;
    char quote = 0;
    const auto end_word = [&] {
        if (in_word) stages.back().push_back(word);
        word.clear();
        in_word = false;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote) {
            if (c == quote) {
                quote = 0;
            } else if (c == '\\' && quote == '"' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) {
                word += text[++i];
            } else {
                word += c;
            }
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == '\\' && i + 1 < text.size()) {
            word += text[++i];
            in_word = true;
        } else if (c == '|') {
            end_word();
            stages.emplace_back();
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            end_word();
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote) throw usage_error("chain", std::string("a ") + quote + " quote is not closed");
    end_word();
    return stages;
}

namespace {

// The operation's name nearest `name`, for "did you mean".
std::string nearest_operation(const std::string& name) {
    std::string best;
    std::size_t distance = 3;
    for (const Operation& op : operations()) {
        const std::size_t d = edit_distance(name, op.name);
        if (d < distance) {
            distance = d;
            best = op.name;
        }
    }
    return best;
}

std::string joined(const std::vector<std::string>& words) {
    std::string t;
    for (const std::string& w : words) t += (t.empty() ? "" : " ") + w;
    return t;
}

// The values of one stage, read as its command reads them: `label` names it
// in every error.
ParamValues stage_values(const Operation& op, const std::vector<std::string>& args, const std::string& label) {
    for (const std::string& a : args)
        if (a == "--help" || a == "-h")
            throw usage_error(label, "a stage takes its command's options: run 'imgpar " + op.name + " --help' for them");
    const CommandLine line = parse_command_line(op.params, args, op.name);
    ParamValues values(op.params, line.given);
    if (line.positionals.size() == 1 && !op.extra.name.empty()) {
        op.extra.apply(line.positionals[0], values);
    } else if (!line.positionals.empty()) {
        throw usage_error(label, "unexpected argument '" + line.positionals[op.extra.name.empty() ? 0 : 1] +
                                     "' (a stage is an operation and its options; stages are separated by '|')");
    }
    return values;
}

}  // namespace

ChainText parse_chain(const std::string& text) {
    const std::vector<std::vector<std::string>> stages = split_chain_words(text);
    ChainText out;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const std::vector<std::string>& words = stages[i];
        const std::string number = "stage " + std::to_string(i + 1);
        if (words.empty())
            throw usage_error("chain", number + " is empty: write OP [OPTIONS] between the '|'s, e.g. 'blur --sigma 2 | "
                                       "sharpen'");
        const Operation* op = find_operation(words[0]);
        if (!op) {
            const std::string hint = nearest_operation(words[0]);
            throw usage_error(number, "'" + words[0] + "' is not an operation" +
                                          (hint.empty() ? std::string() : "; did you mean '" + hint + "'?") +
                                          " (imgpar --help lists them)");
        }
        if (out.last)
            throw usage_error(number + " (" + op->name + ")",
                              out.last->name + " writes a report, not an image, so it can only end the chain");
        const std::string label = number + " (" + op->name + ")";
        const std::vector<std::string> args(words.begin() + 1, words.end());
        try {
            const ParamValues values = stage_values(*op, args, label);
            for (const std::string& unused : values.unused_options()) out.warnings.push_back(label + ": " + unused);
            switch (op->kind) {
                case OperationKind::ImageToImage:
                    out.chain.add(Stage{op, op->make_image_job(values), joined(words)});
                    break;
                case OperationKind::ImagesToReport:
                    out.report = op->make_report_job(values);
                    break;
                case OperationKind::ImageToArray:
                    out.array = op->make_array_job(values);
                    break;
            }
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Usage || e.subject().rfind(label, 0) == 0) throw;
            throw usage_error(e.subject().empty() ? label : label + ": " + e.subject(), e.reason());
        }
        if (op->kind != OperationKind::ImageToImage) {
            out.last = op;
            out.last_text = joined(words);
        }
    }
    return out;
}

}  // namespace imgpar
