// The sink of `imgpar compare`: each item is a pair (A, B); A comes down the
// pipeline as any input does, the sink reads B itself (before the compute,
// with the same limits; the pair's memory is checked and reserved as one),
// compares the two on the run's backend, writes the difference image and the SSIM map
// when asked, checks --fail-above / --fail-below, and renders the report.
// The math is src/ops/compare.hpp's.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "src/io/load.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/compare_limits.hpp"
#include "src/report/format.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/sink.hpp"

namespace imgpar {

struct ComparePair {
    std::string a, b;     // paths as they will be opened ("-" is standard input)
    std::string missing;  // set when one side does not exist: "b/x.png: no such file in b/"
    std::string diff;     // where its difference image goes, or empty
    std::string ssim_map; // where its SSIM map goes, or empty
};

struct CompareSettings {
    std::string command;
    CompareOptions options;
    std::vector<CompareLimit> limits;
    ReportFormat format = ReportFormat::Text;
    LoadOptions load;  // how B is read
};

class CompareSink final : public Sink {
public:
    CompareSink(std::vector<ComparePair> pairs, CompareSettings settings, const Diagnostics& diag);

    // The run's items: each pair's A, named as the user named it.
    std::vector<BatchItem> items() const;

    // Image-sized buffers each input accounts for at its peak: the decoded
    // image, and half of each image the pair writes (the result and its
    // encoded bytes); --ssim-downsample adds the input's shrunk doubles.
    static double peak_images(const CompareOptions& options);

    bool computes() const override { return true; }
    double peak_images() const override { return peak_images(settings_.options); }
    // Both images, decoded, and the comparison's buffers: the difference
    // image, the SSIM map, the shrunk images, each thread's rows of SSIM
    // moments, the encoding of what is written.
    double peak_bytes(const FileRun& file) const override;
    void probe_cpu(ConstViewU8 sample, const ImageShape& real) const override;

    void check(std::size_t index, const BatchItem& item) const override;
    // Reads B's file and header (checked as comparable with A's), before
    // the pair's memory is checked and reserved: B's file and its decoder's
    // buffers are counted with the pair.
    std::uint64_t read_extra(FileRun& file) const override;
    std::string memory_subject(const FileRun& file) const override { return pair_name(file.index); }
    // Decodes B.
    void prepare(FileRun& file, WorkerContext& ctx) const override;
    void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const override;
    // 16-bit pairs: compared at 16 bits (an 8-bit side widened, v x 257).
    bool takes_u16() const override { return true; }
    void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const override;
    std::string complete(FileRun& file) const override;
    std::string failed(std::size_t index, const BatchItem& item, const Error& error) const override;

    std::string verb() const override { return "compared"; }
    std::size_t checks_failed() const override { return violated_; }
    std::string checks_text() const override;

private:
    std::string pair_name(std::size_t index) const;
    std::string ssim_absence(int width, int height) const;

    std::vector<ComparePair> pairs_;
    void warn_mixed_depths(const FileRun& file) const;
    // A 16-bit pair: A against B's 16-bit samples.
    void compare_16(FileRun& file, ImageU16 a, const BackendChoice& backend) const;

    CompareSettings settings_;
    const Diagnostics& diag_;
    mutable std::atomic<std::size_t> violated_{0};
};

}  // namespace imgpar
