// The GPU as the host library sees it, without any CUDA header: a Session is
// one device opened by its caller (backend selection, a test, the benchmark)
// and kept for as long as there is work for it. It holds the device's stream
// and every piece of memory the operations reuse: their workspaces, the
// session's device images and its pinned staging buffers, so a batch of N
// files costs N launches, not N allocations.
//
// The GPU entry points of each operation family are declared next to its CPU
// reference (namespace imgpar::gpu in src/ops/*.hpp) and take a Session. They
// are implemented in cuda/ (the imgpar_cuda library) or, in a build without
// CUDA, by cuda/no_cuda.cpp, where no Session can be opened. src/ never
// includes cuda/: the build enforces it (imgpar_host is compiled without the
// CUDA headers).
//
// A Session is not thread-safe: one thread (or one stream of work) per
// session. Every entry point makes the session's device current first, so
// sessions on different devices can be used from one thread in turn.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "src/image.hpp"

namespace imgpar::gpu {

class Session {
public:
    // Opens GPU `device` (an index of gpu_inventory().devices) and creates its
    // stream. Throws imgpar::Error (device) when it cannot be used, or always
    // in a build without CUDA.
    explicit Session(int device);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    int device() const;
    const std::string& device_name() const;

    // The session's device images, reused from call to call: each slot only
    // grows, so a view stays valid until the same slot is asked for a larger
    // image. Rows are 256-byte aligned. Contents are not kept when a slot
    // grows. A file's pixels arrive in Input (uploaded or decoded there); a
    // chain's stages alternate between Input and Output; Aux holds what an
    // operation that ends a chain needs beside the image (stats' mask,
    // integral's table), so it never overwrites the image it reads.
    enum class Slot { Input, Output, Aux };
    template <typename T>
    DeviceView<T> image(Slot slot, int width, int height, int channels) {
        check_image_shape(width, height, channels);
        const std::size_t row = static_cast<std::size_t>(width) * channels * sizeof(T);
        const std::size_t pitch = (row + 255) / 256 * 256;
        void* p = reserve(slot, pitch * static_cast<std::size_t>(height));
        return {static_cast<T*>(p), width, height, channels, pitch};
    }

    // Host <-> device copies through the session's pinned staging buffers, on
    // its stream. upload returns once the host pixels have been read (the
    // device copy may still be in flight, ordered before later work on the
    // stream); download returns once the host pixels are written.
    template <typename T>
    void upload(ImageView<const T> host, DeviceView<T> device) {
        check_same_shape(host.width, host.height, host.channels, device.width, device.height, device.channels);
        copy_to_device(host.data, host.stride, device.data, device.pitch, host.row_bytes(), host.height);
    }
    template <typename T>
    void download(DeviceView<const T> device, ImageView<T> host) {
        check_same_shape(device.width, device.height, device.channels, host.width, host.height, host.channels);
        copy_to_host(device.data, device.pitch, host.data, host.stride, host.row_bytes(), host.height);
    }

    // Uploads `bytes` bytes to `device` through the staging buffers, whose
    // host side fill(staging, offset, n) writes (bytes [offset, offset + n)
    // of the data, n a multiple of 128 but perhaps for the last): data held
    // in pieces (libjpeg-turbo's coefficient rows) is copied once. Returns
    // once every byte has been filled.
    using Fill = std::function<void(std::uint8_t* staging, std::size_t offset, std::size_t n)>;
    void upload_filled(void* device, std::size_t bytes, const Fill& fill);

    // Waits for everything enqueued on the session's stream; throws
    // imgpar::Error (device) if any of it failed.
    void synchronize();

    // Times of a file's stages on the GPU: mark() records a point on the
    // stream after the work enqueued so far (a timing event) and returns its
    // number, counted from 0 after clear_marks(); marked_ms(a, b) is the GPU
    // time between two marks, once the stream has passed them (after a
    // download or synchronize()).
    void clear_marks();
    int mark();
    double marked_ms(int from, int to);

    // The CUDA side of the session (cuda/session.hpp).
    struct Impl;
    Impl& impl() { return *impl_; }

private:
    void* reserve(Slot slot, std::size_t bytes);
    void copy_to_device(const void* host, std::size_t host_stride, void* device, std::size_t pitch,
                        std::size_t row_bytes, int rows);
    void copy_to_host(const void* device, std::size_t pitch, void* host, std::size_t host_stride,
                      std::size_t row_bytes, int rows);
    static void check_same_shape(int w1, int h1, int c1, int w2, int h2, int c2);

    std::unique_ptr<Impl> impl_;
};

// The host form of a device operation, shared by every family: uploads `src`
// into the Input slot, runs op(input, output) with the Output slot shaped
// (src's size, out_channels), downloads and returns the result.
template <typename Op>
ImageU8 run_on_images(Session& session, ConstViewU8 src, int out_channels, Op&& op) {
    const DeviceViewU8 in = session.image<std::uint8_t>(Session::Slot::Input, src.width, src.height, src.channels);
    const DeviceViewU8 out = session.image<std::uint8_t>(Session::Slot::Output, src.width, src.height, out_channels);
    session.upload(src, in);
    op(ConstDeviceViewU8(in), out);
    ImageU8 result(src.width, src.height, out_channels);
    session.download(ConstDeviceViewU8(out), result.view());
    return result;
}

}  // namespace imgpar::gpu
