// Operations declared once. An Operation names the command, its help, its
// typed parameters (src/op/param.hpp) and a maker that validates them and
// binds the plan into a job with a CPU and a GPU implementation. The command
// line builds each command, its options, help and validation from the
// declaration and runs every job through one driver per kind; the tests run
// every declared example on both backends and compare the bytes; the
// benchmark times them; the README's parameter lists are checked against them.
//
// Adding an operation: its header (contract, plan, cpu:: and gpu:: entry
// points), its CPU file, its .cu, one declaration (a function returning the
// Operation, listed in src/op/catalog.cpp), the GPU entry's line in
// cuda/no_cuda.cpp, and its tests.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/backend.hpp"
#include "src/image.hpp"
#include "src/io/load.hpp"
#include "src/io/npy.hpp"
#include "src/op/param.hpp"
#include "src/op/usage.hpp"
#include "src/report/format.hpp"
#include "src/report/json.hpp"

namespace imgpar {

// What a run adds to the reports: the kernel (GPU) or implementation (CPU)
// that did the work, members for --json's "operation" object, lines for -v,
// and warnings.
struct RunNotes {
    std::string kernel;
    JsonObject details;
    std::vector<std::string> info;
    std::vector<std::string> warnings;
};

// An image -> image operation whose parameters are validated and whose plan
// is made: nothing about it can fail as a usage error any more. A run chains
// any number of them (src/run/chain.hpp): each declares its output's shape
// from its input's before any pixel is touched.
class ImageJob {
public:
    virtual ~ImageJob() = default;
    // One line for -v: "gaussian sigma=2 radius=6 (13x13, separable), border replicate".
    virtual std::string describe() const = 0;
    // --json's "operation" object.
    virtual JsonObject details() const = 0;
    // The output's size, channels and sample type for an input of shape `in`.
    virtual ImageShape output_shape(const ImageShape& in) const = 0;
    // Whether the job can run on an input of shape `in` (an adaptive window
    // wider than the image cannot): throws imgpar::Error (input, naming
    // `file`) when not, so that file fails and a batch goes on.
    virtual void check_input(const ImageShape& in, const std::string& file) const {
        (void)in;
        (void)file;
    }
    // The CPU reference.
    virtual ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const = 0;
    // The GPU: dst has output_shape(src's); asynchronous on the session's
    // stream. Uses no slot of the session (src and dst may be in either).
    virtual void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const = 0;

    // Host images on the chosen backend: the CPU reference, or the GPU
    // through the session's Input and Output slots and staging buffers.
    ImageU8 run(const BackendChoice& backend, ConstViewU8 src, RunNotes& notes) const;

    // 16-bit images (u16 samples, 0..65535): the same operation with its
    // contracts written for 16 bits, output in u16 (output_shape keeps the
    // input's type). A job that takes them overrides all three; a run whose
    // stages and sink do not all take them reduces a 16-bit file to 8 bits
    // when it loads (with the warning 8-bit runs always gave), so nothing
    // reaches the defaults below, which throw std::logic_error.
    virtual bool takes_u16() const { return false; }
    virtual ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const;
    virtual void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const;
    ImageU16 run(const BackendChoice& backend, ConstViewU16 src, RunNotes& notes) const;

    // The image-sized buffers this job holds at its peak, where its mode
    // needs fewer than its operation declares (Operation::peak_images, the
    // largest of its modes): what --max-memory is checked against.
    virtual std::optional<double> peak_images() const { return std::nullopt; }

    // Shrink-on-load, for the first stage of a run whose input is a JPEG:
    // the largest d of 8, 4 and 2 such that this job, given the image decoded
    // at 1/d of `in` (ceil of each side, libjpeg-turbo's DCT scaling), makes
    // an image of the size it makes of `in` and still shrinks to it; 1 (the
    // whole image) for every job but a thumbnail's resize.
    virtual int load_shrink(const ImageShape& in) const {
        (void)in;
        return 1;
    }
};

// Where a report's input came from, for its header fields.
struct ReportSource {
    std::string file;     // as the user named it ("<stdin>" for "-")
    std::string backend;  // "cpu" / "gpu"
    // Members a run adds to the --json record (a chain's "stages").
    JsonObject extra{};
};

// A report operation (one report per input) whose parameters are validated.
// It may end a chain ('equalize | histo'): on the GPU it then reads the
// chain's result where it lies, in the session's Input or Output slot.
class ReportJob {
public:
    virtual ~ReportJob() = default;
    // Usage errors that depend on the inputs (histo --plot draws one).
    virtual void check_inputs(const std::vector<std::string>& inputs) const { (void)inputs; }
    // Reads the files its options name (stats --mask) with the run's limits,
    // once, before any input; throws imgpar::Error (input) naming the file.
    virtual void read_option_files(const LoadOptions& load) { (void)load; }
    // Printed once before the rows of --csv.
    virtual std::string csv_header() const = 0;
    // The "schema" of its --json records, failures' included.
    virtual std::string json_schema() const = 0;
    // Computes the report of one image and renders it in `format` as
    // complete lines: on the CPU, or on the GPU from an image in device
    // memory (its own buffers in the session's Aux slot).
    virtual std::string run_cpu(const ReportSource& source, ConstViewU8 image, ReportFormat format,
                                RunNotes& notes) const = 0;
    virtual std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU8 image,
                                ReportFormat format, RunNotes& notes) const = 0;
    // A host image on `backend` (the GPU: uploaded to the Input slot first).
    std::string run(const BackendChoice& backend, const ReportSource& source, ConstViewU8 image, ReportFormat format,
                    RunNotes& notes) const;
    // 16-bit images, as ImageJob's: a report that takes them overrides all
    // three (its ranges and bins those of 0..65535); the defaults throw
    // std::logic_error.
    virtual bool takes_u16() const { return false; }
    virtual std::string run_cpu(const ReportSource& source, ConstViewU16 image, ReportFormat format,
                                RunNotes& notes) const;
    virtual std::string run_gpu(gpu::Session& session, const ReportSource& source, ConstDeviceViewU16 image,
                                ReportFormat format, RunNotes& notes) const;
    std::string run(const BackendChoice& backend, const ReportSource& source, ConstViewU16 image, ReportFormat format,
                    RunNotes& notes) const;
    // What --device auto times on the CPU: the computation on a made-up
    // image, without checks that concern a real file and without writing
    // anything (histo --plot draws nothing here).
    virtual void probe_cpu(ConstViewU8 image) const {
        RunNotes ignored;
        run_cpu(ReportSource{"", "cpu", {}}, image, ReportFormat::Text, ignored);
    }
};

// An image -> array operation (integral: a summed-area table) whose
// parameters are validated: its result is a NumPy array file, not an image.
class ArrayJob {
public:
    virtual ~ArrayJob() = default;
    // One line for -v: "integral u64 (auto), sums and squares".
    virtual std::string describe() const = 0;
    // --json's "operation" object.
    virtual JsonObject details() const = 0;
    // Image-sized buffers (width x height x channels bytes) a file holds at
    // its peak, the decoded input and the array included (--max-memory).
    virtual double peak_images() const = 0;
    // Bytes of the array file made of an input of shape `in`: what a file
    // holds beside its input, counted against --max-memory (an array's
    // shape need not follow the image's: integral's has a row and a column
    // more). By default what peak_images() says beside the input.
    virtual std::uint64_t array_bytes(const ImageShape& in) const {
        const double beside = peak_images() > 1 ? peak_images() - 1 : 0;
        return static_cast<std::uint64_t>(beside * static_cast<double>(in.bytes()));
    }
    // The array of `src` as the whole .npy file, on the CPU or on the GPU
    // from an image in device memory (its table in the session's Aux slot).
    // Throws imgpar::Error (input, naming `file`) when this image cannot
    // have it.
    virtual NpyFile run_cpu(ConstViewU8 src, const std::string& file, RunNotes& notes) const = 0;
    virtual NpyFile run_gpu(gpu::Session& session, ConstDeviceViewU8 src, const std::string& file,
                            RunNotes& notes) const = 0;
    // A host image on `backend` (the GPU: uploaded to the Input slot first).
    NpyFile run(const BackendChoice& backend, ConstViewU8 src, const std::string& file, RunNotes& notes) const;
    // 16-bit images, as ImageJob's; the defaults throw std::logic_error.
    virtual bool takes_u16() const { return false; }
    virtual NpyFile run_cpu(ConstViewU16 src, const std::string& file, RunNotes& notes) const;
    virtual NpyFile run_gpu(gpu::Session& session, ConstDeviceViewU16 src, const std::string& file,
                            RunNotes& notes) const;
    NpyFile run(const BackendChoice& backend, ConstViewU16 src, const std::string& file, RunNotes& notes) const;
};

enum class OperationKind {
    ImageToImage,    // IN OUT: load, run, save
    ImagesToReport,  // FILE...: load each, report on stdout (text, --csv, --json)
    ImageToArray,    // IN OUT.npy: load, compute an array, write it as a .npy file
};

// A named parameter set: the tests run every example on both backends, the
// benchmark times those marked for it, the README shows them.
struct Example {
    std::string label;
    std::vector<std::pair<std::string, std::string>> values;
    bool benchmark = true;
};

struct Operation {
    std::string name;         // the command: "blur"
    std::string summary;      // one line for `imgpar --help`
    std::string description;  // paragraphs for `imgpar NAME --help`
    std::string group;        // the heading of its options in --help
    OperationKind kind = OperationKind::ImageToImage;
    // Image-sized buffers (width x height x channels bytes) a run on the CPU
    // holds at its peak, the decoded input included: what --max-memory is
    // checked against before a file is decoded. Measured with /usr/bin/time
    // -v on 4096x4096 gray, RGB and RGBA images, the largest of the three
    // rounded up (the encoded output included); the default is the largest
    // of any operation.
    double peak_images = 7;
    std::vector<ParamSpec> params;
    // An optional positional argument after IN OUT that stands for
    // parameters (blur's RADIUSxSIGMA geometry); none when `name` is empty.
    struct Extra {
        std::string name;
        std::function<void(const std::string& text, ParamValues& values)> apply;
    } extra;
    std::vector<Example> examples;
    // Two or three command lines for --help, the man page and docs/commands
    // (src/op/usage.hpp): the IN OUT form, an option or two, a batch.
    std::vector<Usage> usage;
    // What its command does by default that other image commands do only when
    // asked: turn the pixels upright (--auto-orient), and keep only the ICC
    // profile of the metadata (thumbnail; --keep-metadata keeps it all).
    struct Defaults {
        bool auto_orient = false;
        bool icc_only = false;
    } defaults;
    // Validate the values (imgpar::Error, usage) and make the job; the one
    // matching `kind` is set.
    std::function<std::unique_ptr<ImageJob>(const ParamValues&)> make_image_job;
    std::function<std::unique_ptr<ReportJob>(const ParamValues&)> make_report_job;
    std::function<std::unique_ptr<ArrayJob>(const ParamValues&)> make_array_job;

    // Defaults, then `given`.
    ParamValues values(const std::vector<std::pair<std::string, std::string>>& given = {}) const {
        return ParamValues(params, given);
    }
    // The forms of its command line after "imgpar NAME", one per line:
    // "IN OUT [RADIUSxSIGMA]", "--out-dir DIR IN...", "-o TEMPLATE IN..."; or
    // "FILE..." for a report.
    std::vector<std::string> synopsis() const;
    // An example's values as a command line: "imgpar NAME --sigma 5 " +
    // `files`, explaining `what`; the example labelled `label` must exist
    // (a missing one is a bug in the declaration: std::logic_error). So a
    // parameter set the benchmark times is also one the help shows.
    Usage shown(const std::string& label, const std::string& files, std::string what) const;
};

// Every operation, in the order `imgpar --help` lists them (src/op/catalog.cpp).
const std::vector<Operation>& operations();
// nullptr when there is none of that name.
const Operation* find_operation(const std::string& name);

}  // namespace imgpar
