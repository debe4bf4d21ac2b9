// JPEG encoding with nvJPEG's CUDA encoder (src/gpu/jpeg_encoder.hpp).
//
// nvJPEG is loaded at run time (cuda/nvjpeg_library.hpp says why). The
// encoder has a handle of its own, not the hardware decoder's: that one is
// made for NVJPEG_BACKEND_HARDWARE, which decodes only, and it may be missing
// on a GPU without decoding engines while the CUDA encoder runs on any. The
// handle is made once per GPU (one for the process on a single-GPU machine)
// and kept until the process ends, as the CUDA context is; nvJPEG shares a
// handle between threads, but not an encoder state, so each session keeps a
// state and its parameters (Session::Impl::jpeg_encoder).
#include "src/gpu/jpeg_encoder.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/io/jpeg_layout.hpp"

#if IMGPAR_HAVE_NVJPEG
#include <nvjpeg.h>

#include "cuda/nvjpeg_library.hpp"
#endif

namespace imgpar::gpu {

#if IMGPAR_HAVE_NVJPEG
namespace {

// The nvJPEG functions the encoder calls.
struct Api {
    decltype(&nvjpegCreateEx) create;
    decltype(&nvjpegGetProperty) get_property;
    decltype(&nvjpegEncoderStateCreate) state_create;
    decltype(&nvjpegEncoderStateDestroy) state_destroy;
    decltype(&nvjpegEncoderParamsCreate) params_create;
    decltype(&nvjpegEncoderParamsDestroy) params_destroy;
    decltype(&nvjpegEncoderParamsSetQuality) set_quality;
    decltype(&nvjpegEncoderParamsSetEncoding) set_encoding;
    decltype(&nvjpegEncoderParamsSetOptimizedHuffman) set_optimized_huffman;
    decltype(&nvjpegEncoderParamsSetSamplingFactors) set_sampling;
    decltype(&nvjpegEncodeImage) encode_image;
    decltype(&nvjpegEncodeYUV) encode_yuv;
    decltype(&nvjpegEncodeRetrieveBitstream) retrieve;
};

// The functions, loaded on first use; `problem` says why they could not be.
struct Library {
    Api api{};
    std::string problem;
};

const Library& library() {
    static const Library loaded = [] {
        Library l;
        void* lib = cuda::nvjpeg_library(l.problem);
        if (!lib) return l;
        cuda::NvjpegSymbols symbols(lib);
        symbols.load(l.api.create, "nvjpegCreateEx");
        symbols.load(l.api.get_property, "nvjpegGetProperty");
        symbols.load(l.api.state_create, "nvjpegEncoderStateCreate");
        symbols.load(l.api.state_destroy, "nvjpegEncoderStateDestroy");
        symbols.load(l.api.params_create, "nvjpegEncoderParamsCreate");
        symbols.load(l.api.params_destroy, "nvjpegEncoderParamsDestroy");
        symbols.load(l.api.set_quality, "nvjpegEncoderParamsSetQuality");
        symbols.load(l.api.set_encoding, "nvjpegEncoderParamsSetEncoding");
        symbols.load(l.api.set_optimized_huffman, "nvjpegEncoderParamsSetOptimizedHuffman");
        symbols.load(l.api.set_sampling, "nvjpegEncoderParamsSetSamplingFactors");
        symbols.load(l.api.encode_image, "nvjpegEncodeImage");
        symbols.load(l.api.encode_yuv, "nvjpegEncodeYUV");
        symbols.load(l.api.retrieve, "nvjpegEncodeRetrieveBitstream");
        if (!symbols.ok()) l.problem = symbols.problem();
        return l;
    }();
    return loaded;
}

const Api& api() { return library().api; }  // complete once a handle exists

using cuda::check_nvjpeg;

// The handles, one per GPU. Never destroyed: a session on another thread may
// still encode while the process exits.
struct Handles {
    std::mutex mutex;
    std::map<int, nvjpegHandle_t> made;
    std::string name;
};

Handles& handles() {
    static Handles* h = new Handles;
    return *h;
}

// The handle for `device`, which the caller has made current; made on first
// use. Throws when nvJPEG is missing or cannot start; a handle that could
// not be made is tried again on the next call.
nvjpegHandle_t handle_for(int device) {
    const Library& lib = library();
    if (!lib.problem.empty()) throw device_error("nvJPEG", lib.problem);
    Handles& h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    if (const auto it = h.made.find(device); it != h.made.end()) return it->second;
    const std::string version = cuda::nvjpeg_version(lib.api.get_property);
    // The default backend: nvJPEG's CUDA encoder, which any GPU runs.
    nvjpegHandle_t handle = nullptr;
    check_nvjpeg(lib.api.create(NVJPEG_BACKEND_DEFAULT, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &handle), "nvjpegCreateEx");
    h.made.emplace(device, handle);
    h.name = version + " encoder (CUDA)";
    return handle;
}

// A session's encoder state and parameters, and the aligned copy of an input
// whose rows are not aligned (see source_of).
struct State {
    int device = -1;
    nvjpegHandle_t handle = nullptr;
    nvjpegEncoderState_t state = nullptr;
    nvjpegEncoderParams_t params = nullptr;
    cuda::DeviceBuffer<std::uint8_t> aligned;
    State() = default;
    State(const State&) = delete;
    State& operator=(const State&) = delete;
    ~State() {
        // With the session, whose stream has no encoder work left (every
        // encode waits for its bytes). A destructor cannot report a failure:
        // one here would come from a context already broken, and reported.
        // nvJPEG frees the state's memory on the current device; when its
        // device cannot be made current, the memory is left to the context.
        if (device < 0 || cudaSetDevice(device) != cudaSuccess) return;
        // A session that outlives main (a static one) is destroyed after
        // nvJPEG's own statics, and nvJPEG then throws a C++ exception out of
        // these C calls (seen on CUDA 13.0): at exit there is nothing to free.
        try {
            if (params) api().params_destroy(params);
            if (state) api().state_destroy(state);
        } catch (...) {
        }
    }
};

State& state_of(Session& session, cudaStream_t stream) {
    auto& slot = session.impl().jpeg_encoder;
    if (!slot) {
        auto s = std::make_shared<State>();
        s->handle = handle_for(session.device());
        s->device = session.device();
        check_nvjpeg(api().state_create(s->handle, &s->state, stream), "nvjpegEncoderStateCreate");
        check_nvjpeg(api().params_create(s->handle, &s->params, stream), "nvjpegEncoderParamsCreate");
        check_nvjpeg(api().set_encoding(s->params, NVJPEG_ENCODING_BASELINE_DCT, stream), "nvjpegEncoderParamsSetEncoding");
        // Standard Huffman tables, not optimized ones: optimizing costs a pass
        // over the coefficients for a few percent fewer bytes, it has been
        // reported to fail on tiny images in older nvJPEG releases, and it has
        // not been measured better here. Set, not left to the library's default.
        check_nvjpeg(api().set_optimized_huffman(s->params, 0, stream), "nvjpegEncoderParamsSetOptimizedHuffman");
        slot = s;
    }
    return *static_cast<State*>(slot.get());
}

nvjpegChromaSubsampling_t sampling_of(int channels, int quality, ChromaSubsampling chroma) {
    if (channels == 1) return NVJPEG_CSS_GRAY;
    // Auto is the CPU encoder's rule (src/io/jpeg_codec.cpp).
    if (chroma == ChromaSubsampling::Auto) chroma = quality > 90 ? ChromaSubsampling::S444 : ChromaSubsampling::S420;
    switch (chroma) {
        case ChromaSubsampling::S422: return NVJPEG_CSS_422;
        case ChromaSubsampling::S420: return NVJPEG_CSS_420;
        default: return NVJPEG_CSS_444;
    }
}

// The plane nvJPEG reads: the view itself when its rows are aligned as a
// session's images are (256 bytes), else a copy that is. nvJPEG has been
// reported to refuse planes whose pitch is not a multiple of 8 (and its
// alignment needs are not documented); the copy costs a fraction of the
// encode and is only made for views from outside the session.
nvjpegImage_t source_of(State& st, ConstDeviceViewU8 image, cudaStream_t stream) {
    constexpr std::size_t kAlign = 256;
    nvjpegImage_t source{};
    if (image.pitch % kAlign == 0 && reinterpret_cast<std::uintptr_t>(image.data) % kAlign == 0) {
        source.channel[0] = const_cast<unsigned char*>(image.data);  // only read: nvJPEG's struct is not const
        source.pitch[0] = image.pitch;
        return source;
    }
    const std::size_t pitch = (image.row_bytes() + kAlign - 1) / kAlign * kAlign;
    st.aligned.reserve(pitch * static_cast<std::size_t>(image.height));  // the last encode is done with it
    IMGPAR_CUDA_CHECK(cudaMemcpy2DAsync(st.aligned.get(), pitch, image.data, image.pitch, image.row_bytes(),
                                        static_cast<std::size_t>(image.height), cudaMemcpyDeviceToDevice, stream));
    source.channel[0] = st.aligned.get();
    source.pitch[0] = pitch;
    return source;
}

// nvJPEG's file as imgpar writes JPEG: with a JFIF segment (version 1.01, no
// density units, square pixels, as libjpeg-turbo writes it), which names
// the three components YCbCr for every reader; added when nvJPEG wrote none.
std::vector<std::uint8_t> as_jfif(std::vector<std::uint8_t> jpeg) {
    const JpegLayout layout = read_jpeg_layout(jpeg.data(), jpeg.size());
    if (!layout.valid)
        throw device_error("nvJPEG", "nvjpegEncodeRetrieveBitstream returned no JPEG (" + std::to_string(jpeg.size()) +
                                         " bytes without a frame header)");
    if (layout.jfif) return jpeg;
    static const std::uint8_t app0[] = {0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00, 0x01,
                                        0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00};
    jpeg.insert(jpeg.begin() + 2, std::begin(app0), std::end(app0));  // right after SOI, as JFIF requires
    return jpeg;
}

std::vector<std::uint8_t> encode(State& st, ConstDeviceViewU8 image, int quality, ChromaSubsampling chroma,
                                 cudaStream_t stream) {
    const Api& a = api();
    const nvjpegChromaSubsampling_t sampling = sampling_of(image.channels, quality, chroma);
    check_nvjpeg(a.set_quality(st.params, quality, stream), "nvjpegEncoderParamsSetQuality");
    check_nvjpeg(a.set_sampling(st.params, sampling, stream), "nvjpegEncoderParamsSetSamplingFactors");
    const nvjpegImage_t source = source_of(st, image, stream);
    if (image.channels == 3)
        check_nvjpeg(a.encode_image(st.handle, st.state, st.params, &source, NVJPEG_INPUT_RGBI, image.width, image.height,
                             stream),
              "nvjpegEncodeImage");
    else  // a gray plane is a YUV image without chroma
        check_nvjpeg(a.encode_yuv(st.handle, st.state, st.params, &source, NVJPEG_CSS_GRAY, image.width, image.height,
                           stream),
              "nvjpegEncodeYUV");
    // The length first, then the bytes, waiting for the stream between the
    // two as nvJPEG's documentation does: the encode is asynchronous, and
    // the bytes are only complete once the stream has run it. The second
    // call copies them to pageable host memory on the stream; it is waited
    // for too, so the vector is whole whether or not that copy is synchronous.
    std::size_t length = 0;
    check_nvjpeg(a.retrieve(st.handle, st.state, nullptr, &length, stream), "nvjpegEncodeRetrieveBitstream (length)");
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<std::uint8_t> jpeg(length);
    check_nvjpeg(a.retrieve(st.handle, st.state, jpeg.data(), &length, stream), "nvjpegEncodeRetrieveBitstream");
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(stream));
    jpeg.resize(length);
    return as_jfif(std::move(jpeg));
}

}  // namespace

bool jpeg_gpu_encoder_built() { return true; }

std::string jpeg_gpu_encoder_name() {
    Handles& h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    return h.name;
}

void start_jpeg_gpu_encoder(int device) {
    IMGPAR_CUDA_CHECK(cudaSetDevice(device));
    handle_for(device);
}

std::vector<std::uint8_t> encode_jpeg_on_gpu(Session& session, ConstDeviceViewU8 image, int quality,
                                             ChromaSubsampling chroma) {
    if (image.channels != 1 && image.channels != 3) throw usage_error("jpeg", "JPEG holds gray or RGB pixels");
    if (quality < 1 || quality > 100)
        throw usage_error("jpeg", "quality " + std::to_string(quality) + " is not in 1-100");
    if (image.width < 1 || image.height < 1 || !image.data) throw usage_error("jpeg", "no pixels to encode");
    const cudaStream_t stream = cuda::enter(session);
    State& st = state_of(session, stream);
    try {
        return encode(st, image, quality, chroma, stream);
    } catch (...) {
        // A failed call may leave the state half-used: the next encode makes
        // a fresh one, once the stream has let go of this one (when it cannot,
        // the context is broken and nothing more will run on it anyway).
        if (cudaStreamSynchronize(stream) == cudaSuccess) session.impl().jpeg_encoder.reset();
        throw;
    }
}

#else  // a CUDA build without nvJPEG

bool jpeg_gpu_encoder_built() { return false; }
std::string jpeg_gpu_encoder_name() { return {}; }
void start_jpeg_gpu_encoder(int) { throw device_error("nvJPEG", "this imgpar was built without nvJPEG"); }
std::vector<std::uint8_t> encode_jpeg_on_gpu(Session&, ConstDeviceViewU8, int, ChromaSubsampling) {
    throw device_error("nvJPEG", "this imgpar was built without nvJPEG");
}

#endif

}  // namespace imgpar::gpu
