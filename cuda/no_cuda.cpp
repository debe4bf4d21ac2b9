// The GPU side of a build without CUDA (IMGPAR_CUDA=OFF, or no CUDA compiler
// found): the seam declared in src/ is implemented here, so the host library
// links the same way in every build. No Session can be opened, so no other
// entry point is ever reached; each says so if it is.
#include <string>

#include "src/error.hpp"
#include "src/gpu/jpeg_encoder.hpp"
#include "src/gpu/jpeg_hardware.hpp"
#include "src/gpu/jpeg_huffman.hpp"
#include "src/gpu/jpeg_idct.hpp"
#include "src/gpu/session.hpp"
#include "src/gpu_runtime.hpp"
#include "src/ops/adaptive_threshold.hpp"
#include "src/ops/colour.hpp"
#include "src/ops/compare.hpp"
#include "src/ops/equalize.hpp"
#include "src/ops/filter.hpp"
#include "src/ops/geometry.hpp"
#include "src/ops/histogram.hpp"
#include "src/ops/integral.hpp"
#include "src/ops/rotate.hpp"
#include "src/ops/resize.hpp"
#include "src/ops/stats.hpp"
#include "src/ops/threshold.hpp"

namespace imgpar {

namespace {
const char* const kReason = "this imgpar was built without the CUDA backend";

[[noreturn]] void unavailable() { throw device_error("GPU", kReason); }
}  // namespace

const GpuStatus& gpu_status() {
    static const GpuStatus status = [] {
        GpuStatus s;
        s.built_with_cuda = false;
        s.reason = kReason;
        return s;
    }();
    return status;
}

const GpuStatus& gpu_inventory() { return gpu_status(); }

GpuStatus gpu_versions() { return gpu_status(); }

bool cuda_started() { return false; }

const GpuInfo& gpu_device(int) { unavailable(); }  // there is no device to name

namespace gpu {

struct Session::Impl {};

Session::Session(int) { unavailable(); }
Session::~Session() = default;
int Session::device() const { unavailable(); }
const std::string& Session::device_name() const { unavailable(); }
void* Session::reserve(Slot, std::size_t) { unavailable(); }
void Session::copy_to_device(const void*, std::size_t, void*, std::size_t, std::size_t, int) { unavailable(); }
void Session::copy_to_host(const void*, std::size_t, void*, std::size_t, std::size_t, int) { unavailable(); }
void Session::check_same_shape(int, int, int, int, int, int) { unavailable(); }
void Session::upload_filled(void*, std::size_t, const Fill&) { unavailable(); }
void Session::synchronize() { unavailable(); }
void Session::clear_marks() { unavailable(); }
int Session::mark() { unavailable(); }
double Session::marked_ms(int, int) { unavailable(); }

bool jpeg_hardware_built() { return false; }
void start_jpeg_hardware(int) { unavailable(); }
bool jpeg_hardware_ready() { return false; }
std::string jpeg_hardware_name() { return {}; }
std::optional<HardwareJpeg> jpeg_for_hardware(const std::uint8_t*, std::size_t) { return std::nullopt; }
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session&, const std::string&, const HardwareJpeg&, const std::uint8_t*,
                                               std::size_t) {
    return std::nullopt;
}
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session&, const std::string&, const std::uint8_t*, std::size_t) {
    return std::nullopt;
}
std::optional<DeviceViewU8> decode_jpeg_coefficients(Session&, const JpegCoefficients&) { unavailable(); }
std::optional<DeviceViewU8> decode_jpeg_scan(Session&, const JpegHuffmanPlan&, const std::string&, std::uint32_t&, int) {
    unavailable();
}
std::uint32_t decode_jpeg_huffman(Session&, const JpegHuffmanPlan&, std::int16_t*, int*, int) { unavailable(); }
JpegHuffmanResult decode_jpeg_huffman_gpu(Session&, const JpegHuffmanPlan&) { unavailable(); }
bool jpeg_gpu_encoder_built() { return false; }
std::string jpeg_gpu_encoder_name() { return {}; }
std::vector<std::uint8_t> encode_jpeg_on_gpu(Session&, ConstDeviceViewU8, int, ChromaSubsampling) { unavailable(); }

// --- one line per entry point of src/ops/*.hpp -------------------------------
void apply_filter(Session&, const FilterPlan&, ConstDeviceViewU8, DeviceViewU8, std::string*) { unavailable(); }
void apply_filter(Session&, const FilterPlan&, ConstDeviceViewU16, DeviceViewU16, std::string*) { unavailable(); }
void resize(Session&, const ResizePlan&, ConstDeviceViewU8, DeviceViewU8, std::string*) { unavailable(); }
Histogram histogram(Session&, ConstDeviceViewU8, bool, std::string*) { unavailable(); }
Histogram16 histogram(Session&, ConstDeviceViewU16, bool, std::string*) { unavailable(); }
ImageStats stats(Session&, ConstDeviceViewU8, const ConstDeviceViewU8*, std::string*) { unavailable(); }
ImageStats stats(Session&, ConstDeviceViewU16, const ConstDeviceViewU8*, std::string*) { unavailable(); }
void equalize(Session&, ConstDeviceViewU8, DeviceViewU8, EqualizeMode, std::string*) { unavailable(); }
void equalize(Session&, ConstDeviceViewU16, DeviceViewU16, EqualizeMode, std::string*) { unavailable(); }
int threshold(Session&, ConstDeviceViewU8, DeviceViewU8, const ThresholdSpec&, std::string*) { unavailable(); }
int threshold(Session&, ConstDeviceViewU16, DeviceViewU16, const ThresholdSpec&, std::string*) { unavailable(); }
void integral(Session&, ConstDeviceViewU8, const SumTableView&, std::string*) { unavailable(); }
void integral(Session&, ConstDeviceViewU16, const SumTableView&, std::string*) { unavailable(); }
void adaptive_threshold(Session&, ConstDeviceViewU8, DeviceViewU8, const AdaptiveSpec&, std::string*) {
    unavailable();
}
void adaptive_threshold(Session&, ConstDeviceViewU16, DeviceViewU16, const AdaptiveSpec&, std::string*) {
    unavailable();
}
Comparison compare(Session&, ConstDeviceViewU8, ConstDeviceViewU8, const CompareOptions&, std::string*) {
    unavailable();
}
Comparison16 compare(Session&, ConstDeviceViewU16, ConstDeviceViewU16, const CompareOptions&, std::string*) {
    unavailable();
}
void crop(Session&, ConstDeviceViewU8, DeviceViewU8, int, int, std::string*) { unavailable(); }
void turn(Session&, ConstDeviceViewU8, DeviceViewU8, Turn, std::string*) { unavailable(); }
void pad(Session&, ConstDeviceViewU8, DeviceViewU8, const PadSides&, BorderMode, const std::array<std::uint8_t, 4>&,
         std::string*) {
    unavailable();
}
void rotate(Session&, ConstDeviceViewU8, DeviceViewU8, const RotateSpec&, std::string*) { unavailable(); }
void apply_colour(Session&, ConstDeviceViewU8, DeviceViewU8, const ColourPlan&, std::string*) { unavailable(); }
// 16-bit geometry and colour.
void crop(Session&, ConstDeviceViewU16, DeviceViewU16, int, int, std::string*) { unavailable(); }
void turn(Session&, ConstDeviceViewU16, DeviceViewU16, Turn, std::string*) { unavailable(); }
void pad(Session&, ConstDeviceViewU16, DeviceViewU16, const PadSides&, BorderMode, const std::array<std::uint16_t, 4>&,
         std::string*) {
    unavailable();
}
void rotate(Session&, ConstDeviceViewU16, DeviceViewU16, const RotateSpec&, std::string*) { unavailable(); }
void apply_colour(Session&, ConstDeviceViewU16, DeviceViewU16, const ColourPlan&, std::string*) { unavailable(); }
void resize(Session&, const ResizePlan&, ConstDeviceViewU16, DeviceViewU16, std::string*) { unavailable(); }

}  // namespace gpu
}  // namespace imgpar
