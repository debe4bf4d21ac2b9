// The declaration of integral: the table (src/ops/integral.cpp,
// cuda/integral.cu) written as a NumPy array (src/io/npy.hpp).
#include "src/ops/integral_ops.hpp"

#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "src/error.hpp"
#include "src/gpu/session.hpp"
#include "src/ops/integral.hpp"

namespace imgpar {
namespace {

NpyType npy_type(SumType t) {
    switch (t) {
        case SumType::U32: return NpyType::U32;
        case SumType::U64: return NpyType::U64;
        case SumType::F64: return NpyType::F64;
    }
    return NpyType::U64;
}

// cv2.integral's shape, (H+1, W+1, C) or (H+1, W+1) for one channel, with
// the planes first when there are two.
std::vector<std::size_t> table_shape(const SumTableView& t) {
    std::vector<std::size_t> shape;
    if (t.planes == 2) shape.push_back(2);
    shape.push_back(static_cast<std::size_t>(t.height));
    shape.push_back(static_cast<std::size_t>(t.width));
    if (t.channels > 1) shape.push_back(static_cast<std::size_t>(t.channels));
    return shape;
}

class IntegralJob final : public ArrayJob {
public:
    explicit IntegralJob(IntegralSpec spec) : spec_(spec) {}

    std::string describe() const override {
        return std::string("integral ") + (spec_.type ? sum_type_name(*spec_.type) : "auto") +
               (spec_.squared ? ", sums and squares" : ", sums");
    }
    JsonObject details() const override {
        JsonObject o;
        o.add("name", "integral").add("squared", spec_.squared).add("dtype_requested", spec_.type ? sum_type_name(*spec_.type) : "auto");
        return o;
    }
    // The input and the array: one plane of 8-byte sums per sample, two with
    // squares (u32 halves it; the largest is what --max-memory checks).
    double peak_images() const override { return 1.0 + (spec_.squared ? 2 : 1) * 8.0; }
    // The table as written: (H+1) x (W+1) entries a channel, so a narrow
    // image's table is far larger than 8 bytes a sample (a 1-pixel-wide
    // one's, 16), counted at 8 bytes an entry, the widest type.
    std::uint64_t array_bytes(const ImageShape& in) const override {
        const std::uint64_t entries = (static_cast<std::uint64_t>(in.width) + 1) *
                                      (static_cast<std::uint64_t>(in.height) + 1) *
                                      static_cast<std::uint64_t>(in.channels);
        constexpr std::uint64_t kNpyHeader = 128;
        return entries * 8 * (spec_.squared ? 2 : 1) + kNpyHeader;
    }

    NpyFile run_cpu(ConstViewU8 src, const std::string& file, RunNotes& notes) const override {
        return cpu_table(src, file, notes);
    }
    NpyFile run_gpu(gpu::Session& session, ConstDeviceViewU8 src, const std::string& file,
                    RunNotes& notes) const override {
        return gpu_table(session, src, file, notes);
    }

    // 16-bit images: the same tables of samples 0..65535 (bounds of 65535).
    bool takes_u16() const override { return true; }
    NpyFile run_cpu(ConstViewU16 src, const std::string& file, RunNotes& notes) const override {
        return cpu_table(src, file, notes);
    }
    NpyFile run_gpu(gpu::Session& session, ConstDeviceViewU16 src, const std::string& file,
                    RunNotes& notes) const override {
        return gpu_table(session, src, file, notes);
    }

private:
    template <typename T>
    static constexpr int max_sample() {
        return sizeof(T) == 1 ? 255 : 65535;
    }

    template <typename T>
    NpyFile cpu_table(ImageView<const T> src, const std::string& file, RunNotes& notes) const {
        const SumType type = integral_type(spec_, src.width, src.height, file, max_sample<T>());
        SumTableView table = sum_table_view(nullptr, type, src.width, src.height, src.channels, spec_.squared);
        NpyFile out(npy_type(type), table_shape(table));
        table.data = out.data();
        notes.kernel = cpu::integral_kernel_name(src);
        cpu::integral(src, table);
        describe_table(table, type, notes);
        return out;
    }

    // The table computed into the session's Aux slot (the image may be in
    // Input or Output), then down into the file's samples (packed rows).
    template <typename T>
    NpyFile gpu_table(gpu::Session& session, DeviceView<const T> src, const std::string& file, RunNotes& notes) const {
        const SumType type = integral_type(spec_, src.width, src.height, file, max_sample<T>());
        SumTableView table = sum_table_view(nullptr, type, src.width, src.height, src.channels, spec_.squared);
        NpyFile out(npy_type(type), table_shape(table));
        table.data = out.data();
        const std::size_t row_bytes = table.row_bytes();
        const std::size_t rows = static_cast<std::size_t>(table.planes) * table.height;
        if (row_bytes > INT_MAX || rows > INT_MAX)
            throw input_error(file, "a table row of " + std::to_string(row_bytes) +
                                        " bytes is wider than the GPU path copies; use --device cpu");
        const DeviceViewU8 bytes = session.image<std::uint8_t>(gpu::Session::Slot::Aux, static_cast<int>(row_bytes),
                                                               static_cast<int>(rows), 1);
        SumTableView device = table;
        device.data = bytes.data;
        device.pitch = bytes.pitch;
        gpu::integral(session, src, device, &notes.kernel);
        const ViewU8 dst{static_cast<std::uint8_t*>(table.data), bytes.width, bytes.height, 1, row_bytes};
        session.download(ConstDeviceViewU8(bytes), dst);
        describe_table(table, type, notes);
        return out;
    }

    static void describe_table(const SumTableView& table, SumType type, RunNotes& notes) {
        JsonArray shape;
        for (std::size_t d : table_shape(table)) shape.push(static_cast<long long>(d));
        notes.details.add("dtype", sum_type_name(type)).add("shape", shape);
        notes.info.push_back(std::string("table of ") + sum_type_name(type) + ", shape " + shape.str());
    }

    IntegralSpec spec_;
};

}  // namespace

Operation integral_operation() {
    Operation op;
    op.name = "integral";
    op.kind = OperationKind::ImageToArray;
    op.peak_images = 17;  // the largest IntegralJob::peak_images (u64 sums and squares)
    op.summary = "Summed-area table (integral image) as a NumPy .npy array";
    op.description =
        "Writes the summed-area table of every channel as a NumPy array (.npy, read by numpy.load alone), laid\n"
        "out as OpenCV's cv2.integral: S[Y, X, c] = sum of the samples of channel c at x < X, y < Y, with a\n"
        "leading zero row and column: shape (H+1, W+1, C), or (H+1, W+1) for gray. Any window's sum is four\n"
        "look-ups: S[y1, x1] - S[y0, x1] - S[y1, x0] + S[y0, x0]. --squared writes the sums and the table of\n"
        "squares (cv2.integral2's two results) in one array of shape (2, H+1, W+1[, C]): [0] the sums, [1] the\n"
        "sums of squares, both in the type the squares need. Every entry is exact. --dtype auto picks u32 when\n"
        "the largest possible total (255 x W x H, 255^2 x W x H for squares) fits in 32 bits, else u64; u32\n"
        "for a larger image fails that file. OUT must end in .npy (or be '-').";
    op.group = "Integral";
    op.params = {ParamSpec::flag("squared", "Also the table of squares: an array of shape (2, H+1, W+1[, C])"),
                 ParamSpec::choice("dtype", "T",
                                   "Sample type of the table; auto: u32 if every possible total fits, else u64",
                                   {"auto", "u32", "u64", "f64"})
                     .defaults("auto")};
    op.examples = {{"sums", {}}, {"sums and squares, u64", {{"squared", ""}, {"dtype", "u64"}}},
                   {"f64", {{"dtype", "f64"}}, false}};
    op.usage = {{"imgpar integral scan.png sums.npy", "The sums; numpy.load reads them"},
                op.shown("sums and squares, u64", "photo.jpg tables.npy", "Sums and sums of squares, 64-bit"),
                {"imgpar integral --out-dir tables photos/*.jpg", "Each JPEG of photos/ as tables/NAME.npy"}};
    op.make_array_job = [](const ParamValues& v) -> std::unique_ptr<ArrayJob> {
        IntegralSpec spec;
        spec.squared = v.flag("squared");
        spec.type = parse_sum_type(v.text("dtype"));
        return std::make_unique<IntegralJob>(spec);
    };
    return op;
}

}  // namespace imgpar
