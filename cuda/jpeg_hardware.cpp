// The hardware JPEG decoder through nvJPEG (src/gpu/jpeg_hardware.hpp). One
// nvJPEG handle per GPU that a run decodes on, made once, each with its own
// decoding thread (a run over several GPUs uses every GPU's engines). The hardware decodes to the
// component planes (NVJPEG_OUTPUT_YUV), which equal libjpeg-turbo's IDCT
// output; cuda/jpeg_color.cu then upsamples and converts them as
// libjpeg-turbo does. (nvJPEG's own RGB output differs from libjpeg-turbo's
// for subsampled chroma: measured on an H100, it replicates chroma samples,
// and with NVJPEG_FLAGS_UPSAMPLING_WITH_INTERPOLATION it still rounds one
// sample in 16 MP otherwise.) The engines want batches: one
// image per call from each of 16 workers decoded a 4.5 MP photo in 73-100 ms
// (slower than a core), so the workers' files are gathered by one decoding
// thread, which decodes whatever is waiting (up to kMaxBatch) in one call,
// each image straight into its worker's session Input slot, and wakes them.
//
// nvJPEG is loaded when it starts (dlopen), not linked: it ships with the CUDA
// toolkit, not with the driver, and imgpar must run wherever a driver is
// (its CUDA runtime is linked statically). Without the library, JPEG decodes
// on the CPU and -v says why.
#include "src/gpu/jpeg_hardware.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>
#include <type_traits>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/jpeg_color.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/io/jpeg_layout.hpp"
#include "src/io/jpeg_scan.hpp"

#if IMGPAR_HAVE_NVJPEG
#include <nvjpeg.h>

#include "cuda/nvjpeg_library.hpp"
#endif

namespace imgpar::gpu {

#if IMGPAR_HAVE_NVJPEG
namespace {

// The nvJPEG functions imgpar calls, from the shared library.
struct Api {
    decltype(&nvjpegCreateEx) create;
    decltype(&nvjpegGetProperty) get_property;
    decltype(&nvjpegJpegStateCreate) state_create;
    decltype(&nvjpegJpegStateDestroy) state_destroy;
    decltype(&nvjpegDecodeBatchedInitialize) batched_initialize;
    decltype(&nvjpegJpegStreamCreate) stream_create;
    decltype(&nvjpegJpegStreamDestroy) stream_destroy;
    decltype(&nvjpegJpegStreamParse) stream_parse;
    decltype(&nvjpegDecodeBatchedSupported) batched_supported;
    decltype(&nvjpegJpegStreamGetComponentsNum) components;
    decltype(&nvjpegJpegStreamGetFrameDimensions) dimensions;
    decltype(&nvjpegJpegStreamGetComponentDimensions) component_dimensions;
    decltype(&nvjpegJpegStreamGetChromaSubsampling) chroma;
    decltype(&nvjpegDecodeBatched) decode_batched;
};

// Loads the functions from the process's nvJPEG (cuda/nvjpeg_library.hpp), or
// says why it cannot.
bool load_api(Api& api, std::string& problem) {
    void* lib = cuda::nvjpeg_library(problem);
    if (!lib) return false;
    cuda::NvjpegSymbols symbols(lib);
    symbols.load(api.create, "nvjpegCreateEx");
    symbols.load(api.get_property, "nvjpegGetProperty");
    symbols.load(api.state_create, "nvjpegJpegStateCreate");
    symbols.load(api.state_destroy, "nvjpegJpegStateDestroy");
    symbols.load(api.batched_initialize, "nvjpegDecodeBatchedInitialize");
    symbols.load(api.stream_create, "nvjpegJpegStreamCreate");
    symbols.load(api.stream_destroy, "nvjpegJpegStreamDestroy");
    symbols.load(api.stream_parse, "nvjpegJpegStreamParse");
    symbols.load(api.batched_supported, "nvjpegDecodeBatchedSupported");
    symbols.load(api.components, "nvjpegJpegStreamGetComponentsNum");
    symbols.load(api.dimensions, "nvjpegJpegStreamGetFrameDimensions");
    symbols.load(api.component_dimensions, "nvjpegJpegStreamGetComponentDimensions");
    symbols.load(api.chroma, "nvjpegJpegStreamGetChromaSubsampling");
    symbols.load(api.decode_batched, "nvjpegDecodeBatched");
    if (!symbols.ok()) problem = symbols.problem();
    return symbols.ok();
}

constexpr std::size_t kMaxBatch = 32;

// One file waiting for the decoding thread.
struct Request {
    const unsigned char* data;
    std::size_t size;
    nvjpegImage_t target;
    std::promise<nvjpegStatus_t> done;
};

// The nvJPEG library's functions, loaded once for every GPU's decoder.
struct Library {
    std::once_flag once;
    Api api{};
    bool loaded = false;
    std::string problem;  // why it could not be loaded
};

// Never destroyed: decoding threads and State destructors may use it while
// the process exits.
Library& library() {
    static Library* l = new Library;
    std::call_once(l->once, [] { l->loaded = load_api(l->api, l->problem); });
    return *l;
}

const Api& api() { return library().api; }  // complete once a handle exists

// One GPU's decoder.
struct Decoder {
    // Starting (nvJPEG's set-up takes most of a second) holds start_mutex
    // only: workers asking whether it is ready, and the queue, never wait on it.
    std::mutex start_mutex;
    std::atomic<bool> ready{false};  // set once the fields below are final
    nvjpegHandle_t handle = nullptr;  // lives until the process ends, as the CUDA context does
    std::string problem;  // why it could not start, once tried (under start_mutex)
    std::string name;
    // The decoding thread's side.
    std::mutex mutex;  // the queue
    std::condition_variable wake;
    std::vector<Request*> waiting;
    nvjpegJpegState_t state = nullptr;
    cudaStream_t stream = nullptr;
    int batch_initialized = 0;
};

// GPU `device`'s decoder, made (not started) on first use. Never destroyed:
// its decoding thread may still wait on it while the process exits.
Decoder& decoder(int device) {
    static std::mutex mutex;
    static auto* decoders = new std::map<int, Decoder*>;
    std::lock_guard<std::mutex> lock(mutex);
    Decoder*& d = (*decoders)[device];
    if (!d) d = new Decoder;
    return *d;
}

// The first decoder that started, for the questions that name no GPU (every
// GPU's decoder has the same name); set once, after its fields are final.
std::atomic<Decoder*> first_started{nullptr};

// The decoding thread: takes what is waiting, lets a few more workers join
// for a moment, decodes them in one call and wakes them with the status.
[[noreturn]] void decode_loop(Decoder& d) {
    std::vector<Request*> batch;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(d.mutex);
            d.wake.wait(lock, [&] { return !d.waiting.empty(); });
            d.wake.wait_for(lock, std::chrono::microseconds(500), [&] { return d.waiting.size() >= kMaxBatch; });
            const std::size_t n = std::min(kMaxBatch, d.waiting.size());
            batch.assign(d.waiting.begin(), d.waiting.begin() + static_cast<std::ptrdiff_t>(n));
            d.waiting.erase(d.waiting.begin(), d.waiting.begin() + static_cast<std::ptrdiff_t>(n));
        }
        std::vector<const unsigned char*> data;
        std::vector<std::size_t> sizes;
        std::vector<nvjpegImage_t> targets;
        for (Request* r : batch) {
            data.push_back(r->data);
            sizes.push_back(r->size);
            targets.push_back(r->target);
        }
        const int n = static_cast<int>(batch.size());
        nvjpegStatus_t status = NVJPEG_STATUS_SUCCESS;
        if (n != d.batch_initialized) {
            status = api().batched_initialize(d.handle, d.state, n, 1, NVJPEG_OUTPUT_YUV);
            d.batch_initialized = status == NVJPEG_STATUS_SUCCESS ? n : 0;
        }
        if (status == NVJPEG_STATUS_SUCCESS)
            status = api().decode_batched(d.handle, d.state, data.data(), sizes.data(), targets.data(), d.stream);
        const cudaError_t synced = cudaStreamSynchronize(d.stream);
        if (status == NVJPEG_STATUS_SUCCESS && synced != cudaSuccess) status = NVJPEG_STATUS_EXECUTION_FAILED;
        if (status != NVJPEG_STATUS_SUCCESS) d.batch_initialized = 0;  // reinitialize: the state may be spent
        for (Request* r : batch) r->done.set_value(status);
    }
}

// A session's parsed-stream object (the headers are parsed by the workers)
// and the planes its files decode into.
struct State {
    nvjpegJpegStream_t stream = nullptr;
    cuda::DeviceBuffer<std::uint8_t> planes;
    ~State() {
        try {  // nvJPEG may throw from these C calls once its statics are gone at exit (CUDA 13.0)
            if (stream) api().stream_destroy(stream);
        } catch (...) {
        }
    }
};

State& state_of(Session& session, nvjpegHandle_t handle) {
    auto& slot = session.impl().jpeg;
    if (!slot) {
        auto s = std::make_shared<State>();
        cuda::check_nvjpeg(api().stream_create(handle, &s->stream), "nvjpegJpegStreamCreate");
        slot = s;
    }
    return *static_cast<State*>(slot.get());
}

}  // namespace

bool jpeg_hardware_built() { return true; }

void start_jpeg_hardware(int device) {
    Decoder& d = decoder(device);
    std::lock_guard<std::mutex> lock(d.start_mutex);
    if (d.ready) return;
    if (!d.problem.empty()) throw device_error("nvJPEG", d.problem);
    const Library& lib = library();
    if (!lib.loaded) throw device_error("nvJPEG", lib.problem);
    IMGPAR_CUDA_CHECK(cudaSetDevice(device));
    nvjpegHandle_t handle = nullptr;
    const nvjpegStatus_t s = lib.api.create(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &handle);
    if (s != NVJPEG_STATUS_SUCCESS) {
        d.problem = "the hardware JPEG decoder cannot be used: " +
                    (s == NVJPEG_STATUS_ARCH_MISMATCH ? "no hardware decoder on this GPU" : cuda::nvjpeg_status_text(s));
        throw device_error("nvJPEG", d.problem);
    }
    d.name = cuda::nvjpeg_version(lib.api.get_property) + " hardware decoder";
    if (lib.api.state_create(handle, &d.state) != NVJPEG_STATUS_SUCCESS ||
        cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking) != cudaSuccess) {
        d.problem = "the hardware JPEG decoder cannot be used: no decoding state";
        throw device_error("nvJPEG", d.problem);
    }
    d.handle = handle;
    std::thread([&d, device] {
        cudaSetDevice(device);
        decode_loop(d);
    }).detach();
    d.ready.store(true, std::memory_order_release);
    Decoder* none = nullptr;
    first_started.compare_exchange_strong(none, &d);
}

bool jpeg_hardware_ready() {
    return first_started.load() != nullptr;
}

std::string jpeg_hardware_name() {
    const Decoder* d = first_started.load();
    return d ? d->name : std::string();
}

std::optional<HardwareJpeg> jpeg_for_hardware(const std::uint8_t* data, std::size_t size) {
    const JpegLayout coded = read_jpeg_layout(data, size);
    if (!coded.ycbcr_huffman_8bit() || !coded.chroma_layout()) return std::nullopt;
    // Only scans libjpeg-turbo decodes without a warning: the hardware says
    // nothing of a scan cut short (closed by EOI, it looks whole), of bad
    // codes or misplaced restart markers, and fills in pixels of its own.
    if (!jpeg_scan_is_clean(data, size)) return std::nullopt;
    return HardwareJpeg{*coded.chroma_layout()};
}

std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session& session, const std::string& name, const HardwareJpeg& file,
                                               const std::uint8_t* data, std::size_t size) {
    const ChromaLayout layout = file.layout;
    Decoder& d = decoder(session.device());
    if (!d.ready.load(std::memory_order_acquire)) return std::nullopt;
    const nvjpegHandle_t handle = d.handle;
    const cudaStream_t stream = cuda::enter(session);
    State& st = state_of(session, handle);
    if (api().stream_parse(handle, data, size, 0, 0, st.stream) != NVJPEG_STATUS_SUCCESS) return std::nullopt;
    int unsupported = 1;
    if (api().batched_supported(handle, st.stream, &unsupported) != NVJPEG_STATUS_SUCCESS || unsupported != 0)
        return std::nullopt;
    unsigned components = 0, width = 0, height = 0;
    cuda::check_nvjpeg(api().components(st.stream, &components), "nvjpegJpegStreamGetComponentsNum");
    cuda::check_nvjpeg(api().dimensions(st.stream, &width, &height), "nvjpegJpegStreamGetFrameDimensions");
    nvjpegChromaSubsampling_t chroma = NVJPEG_CSS_UNKNOWN;
    cuda::check_nvjpeg(api().chroma(st.stream, &chroma), "nvjpegJpegStreamGetChromaSubsampling");
    const nvjpegChromaSubsampling_t expected = layout == ChromaLayout::Full   ? NVJPEG_CSS_444
                                               : layout == ChromaLayout::H2V1 ? NVJPEG_CSS_422
                                                                              : NVJPEG_CSS_420;
    if (components != 3 || chroma != expected || width == 0 || height == 0) return std::nullopt;
    // The planes' sizes, as libjpeg-turbo has them (ceil of half where halved).
    const unsigned cw = layout == ChromaLayout::Full ? width : (width + 1) / 2;
    const unsigned chh = layout == ChromaLayout::H2V2 ? (height + 1) / 2 : height;
    for (unsigned c = 0; c < 3; ++c) {
        unsigned w = 0, h = 0;
        cuda::check_nvjpeg(api().component_dimensions(st.stream, c, &w, &h), "nvjpegJpegStreamGetComponentDimensions");
        if (w != (c ? cw : width) || h != (c ? chh : height)) return std::nullopt;
    }
    const auto aligned = [](std::size_t n) { return (n + 255) / 256 * 256; };
    const std::size_t luma_pitch = aligned(width), chroma_pitch = aligned(cw);
    const std::size_t luma_bytes = luma_pitch * height, chroma_bytes = chroma_pitch * chh;
    // Work queued on the session may still read the planes or the slot.
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    // The decoding thread writes them on its own stream: a new buffer must
    // exist before it does.
    if (st.planes.reserve(luma_bytes + 2 * chroma_bytes, stream)) IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::uint8_t* const luma = st.planes.get();
    nvjpegImage_t target{};
    target.channel[0] = luma;
    target.pitch[0] = luma_pitch;
    target.channel[1] = luma + luma_bytes;
    target.pitch[1] = chroma_pitch;
    target.channel[2] = luma + luma_bytes + chroma_bytes;
    target.pitch[2] = chroma_pitch;
    Request request{data, size, target, {}};
    std::future<nvjpegStatus_t> done = request.done.get_future();
    {
        std::lock_guard<std::mutex> lock(d.mutex);
        d.waiting.push_back(&request);
    }
    d.wake.notify_one();
    const nvjpegStatus_t s = done.get();  // decoded and synchronized: the session's stream may use it
    // A batch with a file the hardware rejects fails whole: its files go to
    // libjpeg-turbo, which decodes each or says precisely what is wrong.
    if (s == NVJPEG_STATUS_BAD_JPEG || s == NVJPEG_STATUS_JPEG_NOT_SUPPORTED || s == NVJPEG_STATUS_INCOMPLETE_BITSTREAM)
        return std::nullopt;
    if (s != NVJPEG_STATUS_SUCCESS) throw device_error("nvJPEG", name + ": decoding failed: " + cuda::nvjpeg_status_text(s));
    const DeviceViewU8 out = session.image<std::uint8_t>(Session::Slot::Input, static_cast<int>(width),
                                                         static_cast<int>(height), 3);
    const ChromaPlane cb{target.channel[1], chroma_pitch, static_cast<int>(cw), static_cast<int>(chh)};
    const ChromaPlane cr{target.channel[2], chroma_pitch, static_cast<int>(cw), static_cast<int>(chh)};
    cuda::jpeg_planes_to_rgb(luma, luma_pitch, cb, cr, layout, out, stream);
    return out;
}

#else  // a CUDA build without nvJPEG

bool jpeg_hardware_built() { return false; }
void start_jpeg_hardware(int) { throw device_error("nvJPEG", "this imgpar was built without nvJPEG"); }
bool jpeg_hardware_ready() { return false; }
std::string jpeg_hardware_name() { return {}; }
std::optional<HardwareJpeg> jpeg_for_hardware(const std::uint8_t*, std::size_t) { return std::nullopt; }
std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session&, const std::string&, const HardwareJpeg&, const std::uint8_t*,
                                               std::size_t) {
    return std::nullopt;
}

#endif

std::optional<DeviceViewU8> decode_jpeg_on_gpu(Session& session, const std::string& name, const std::uint8_t* data,
                                               std::size_t size) {
    const std::optional<HardwareJpeg> file = jpeg_for_hardware(data, size);
    return file ? decode_jpeg_on_gpu(session, name, *file, data, size) : std::nullopt;
}

}  // namespace imgpar::gpu
