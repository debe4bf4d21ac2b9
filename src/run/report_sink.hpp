// The sinks that report on a file instead of writing an image: a report
// operation (histo, stats: a report per file on standard output, which may
// end a chain), an array operation (integral: a .npy file per input), and
// info (the header, or the decoded pixels with --verify).
#pragma once

#include <string>

#include "src/op/operation.hpp"
#include "src/report/format.hpp"
#include "src/report/info_report.hpp"
#include "src/run/diagnostics.hpp"
#include "src/run/sink.hpp"

namespace imgpar {

class ReportSink final : public Sink {
public:
    // `peak_images`: the operation's buffers beside the image (its
    // declaration's, the decoded image included).
    ReportSink(const ReportJob& job, std::string command, ReportFormat format, double peak_images,
               const Diagnostics& diag)
        : job_(job), command_(std::move(command)), format_(format), peak_images_(peak_images), diag_(diag) {}

    bool computes() const override { return true; }
    bool takes_device_image() const override { return true; }
    double peak_images() const override { return peak_images_; }
    void probe_cpu(ConstViewU8 sample, const ImageShape& real) const override {
        (void)real;
        job_.probe_cpu(sample);
    }

    void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const override;
    void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const override;
    bool takes_u16() const override { return job_.takes_u16(); }
    void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const override;
    void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const override;
    std::string complete(FileRun& file) const override;
    std::string failed(std::size_t index, const BatchItem& item, const Error& error) const override;
    std::string verb() const override { return "done"; }

private:
    ReportSource source(const FileRun& file, const char* backend) const;

    const ReportJob& job_;
    std::string command_;
    ReportFormat format_;
    double peak_images_;
    const Diagnostics& diag_;
};

class ArraySink final : public Sink {
public:
    static constexpr const char* kJsonSchema = "imgpar.array_op/1";

    ArraySink(const ArrayJob& job, std::string command, bool json, bool skip_existing, bool make_folders,
              const Diagnostics& diag)
        : job_(job), command_(std::move(command)), json_(json), skip_existing_(skip_existing),
          make_folders_(make_folders), diag_(diag) {}

    bool computes() const override { return true; }
    bool takes_device_image() const override { return true; }
    // The job's images count the decoded input too.
    double peak_images() const override { return job_.peak_images(); }
    // The input and the array made of it (ArrayJob::array_bytes).
    double peak_bytes(const FileRun& file) const override {
        const ImageShape& in = file.output_shape();
        return static_cast<double>(in.bytes() + job_.array_bytes(in));
    }
    void probe_cpu(ConstViewU8 sample, const ImageShape& real) const override;
    bool skips(const BatchItem& item) const override;

    void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const override;
    void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU8 image) const override;
    bool takes_u16() const override { return job_.takes_u16(); }
    void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const override;
    void take_device(FileRun& file, gpu::Session& session, ConstDeviceViewU16 image) const override;
    std::string complete(FileRun& file) const override;
    std::string failed(std::size_t index, const BatchItem& item, const Error& error) const override;
    std::string skipped(const BatchItem& item) const override;
    std::string verb() const override { return "written"; }

private:
    const ArrayJob& job_;
    std::string command_;
    bool json_;
    bool skip_existing_;
    bool make_folders_;
    const Diagnostics& diag_;
};

class InfoSink final : public Sink {
public:
    InfoSink(ReportFormat format, bool verify, const Diagnostics& diag) : format_(format), verify_(verify), diag_(diag) {}

    bool computes() const override { return false; }
    bool reads_pixels() const override { return verify_; }
    double peak_images() const override { return 1; }

    void take_host(FileRun& file, ImageU8 image, const BackendChoice& backend) const override;
    // --verify decodes as a run would: 16-bit files at 16 bits.
    bool takes_u16() const override { return true; }
    void take_host(FileRun& file, ImageU16 image, const BackendChoice& backend) const override;
    std::string complete(FileRun& file) const override;
    std::string failed(std::size_t index, const BatchItem& item, const Error& error) const override;
    std::string verb() const override { return "described"; }

private:
    std::string print(const InfoRecord& r) const;

    ReportFormat format_;
    bool verify_;
    const Diagnostics& diag_;
};

}  // namespace imgpar
