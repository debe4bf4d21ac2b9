// A chain of declared image operations, the stages of every file's pipeline
// (src/run/pipeline.hpp): 'blur --sigma 2 | sharpen --amount 1.5 | threshold
// --otsu'. Each stage is made from its operation's declaration exactly as the
// operation's own command makes it (the same options, ranges, defaults and
// validation), and declares its output's shape from its input's, so a run
// knows every image's size before any pixel is touched. A report or array
// operation may end the text of a chain ('equalize | histo'): it becomes the
// run's sink (src/run/sink.hpp), not a stage.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/image.hpp"
#include "src/op/operation.hpp"

namespace imgpar {

struct Stage {
    const Operation* op = nullptr;  // its declaration (src/op/catalog.cpp)
    std::unique_ptr<ImageJob> job;
    std::string text;  // as written: "blur --sigma 2"
};

class Chain {
public:
    Chain() = default;
    Chain(Chain&&) = default;
    Chain& operator=(Chain&&) = default;

    // One stage: the job of an operation's own command.
    static Chain of(const Operation& op, std::unique_ptr<ImageJob> job, std::string text);

    void add(Stage stage) { stages_.push_back(std::move(stage)); }
    const std::vector<Stage>& stages() const { return stages_; }
    bool empty() const { return stages_.empty(); }
    std::size_t size() const { return stages_.size(); }

    // The shape of every image of a file's run: shapes[0] is `in`, shapes[i
    // + 1] what stage i makes of shapes[i]. Each stage checks its input
    // first: one that cannot run on it throws imgpar::Error (input, naming
    // `file` and, in a chain of several, the stage).
    std::vector<ImageShape> shapes(const ImageShape& in, const std::string& file) const;

    // Shrink-on-load: how much smaller a JPEG of the upright size `full` is
    // decoded (libjpeg-turbo's 1/2, 1/4, 1/8 where the first stage makes the
    // same image of it, as a thumbnail does; 1 otherwise, and for other
    // formats), and the shapes from the size it is decoded at.
    struct LoadShapes {
        int shrink = 1;
        std::vector<ImageShape> shapes;
    };
    LoadShapes load_shapes(const ImageShape& full, bool jpeg, const std::string& file) const;

    // The image-sized bytes a file holds at its peak on the CPU through the
    // stages, from the shapes: for each stage its declared buffers
    // (ImageJob::peak_images, else its operation's) times the larger of its
    // input and output; `sink_images` times the last image for what follows
    // (the encoded output, a report's tables). The largest of these.
    double peak_bytes(const std::vector<ImageShape>& shapes, double sink_images) const;

    // "blur sigma=2 ... | sharpen ...": each stage's describe(), for -v.
    std::string describe() const;
    // The stages' text as written, joined by " | ".
    std::string text() const;

private:
    std::vector<Stage> stages_;
};

// The text of `imgpar chain`, read: its image stages, and the report or array
// operation that ends it, if any, with its job made.
struct ChainText {
    Chain chain;
    const Operation* last = nullptr;  // a report or array operation that ends the chain
    std::unique_ptr<ReportJob> report;  // when `last` is a report
    std::unique_ptr<ArrayJob> array;    // when `last` is an array operation
    std::string last_text;
    // Options given that have no effect beside the others, by stage.
    std::vector<std::string> warnings;
};

// Reads 'OP [OPTIONS] [| OP [OPTIONS]]...': stages separated by '|', words
// by white space, quoted with '...' or "..." (a '|' inside quotes is text),
// '\' escaping the next character. Each stage's options are its operation's
// (blur's RxS geometry may follow its name: 'blur 0x2'). Throws
// imgpar::Error (usage) naming the stage for anything its command would
// refuse, an unknown operation (with the nearest name), an empty stage, or a
// report or array operation anywhere but last.
ChainText parse_chain(const std::string& text);

// The words of one stage's text, as parse_chain splits them (exposed for
// the tests). Throws imgpar::Error (usage) for an unclosed quote.
std::vector<std::vector<std::string>> split_chain_words(const std::string& text);

}  // namespace imgpar
