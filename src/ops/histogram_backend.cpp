#include "src/ops/histogram_backend.hpp"

#include "src/parallel.hpp"

namespace imgpar {

Histogram compute_histogram(ConstViewU8 image, bool with_luma, const BackendChoice& backend, std::string& kernel) {
    if (backend.backend == Backend::Gpu) {
        gpu::Session& s = *backend.session;
        const DeviceViewU8 d = s.image<std::uint8_t>(gpu::Session::Slot::Input, image.width, image.height, image.channels);
        s.upload(image, d);
        return gpu::histogram(s, d, with_luma, &kernel);
    }
    kernel = cpu::histogram_kernel_name();
    return cpu::histogram(image, with_luma);
}

ImageU8 equalize(ConstViewU8 image, EqualizeMode mode, const BackendChoice& backend, std::string& kernel) {
    if (backend.backend == Backend::Gpu)
        return gpu::run_on_images(*backend.session, image, image.channels, [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
            gpu::equalize(*backend.session, in, out, mode, &kernel);
        });
    kernel = "histogram, lookup table and apply pass, " + std::to_string(cpu_thread_count()) + " threads";
    return cpu::equalize(image, mode);
}

ThresholdResult threshold(ConstViewU8 image, const ThresholdSpec& spec, const BackendChoice& backend,
                          std::string& kernel) {
    ThresholdResult r;
    if (backend.backend == Backend::Gpu) {
        r.image = gpu::run_on_images(*backend.session, image, threshold_output_channels(image.channels),
                                     [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                         r.threshold = gpu::threshold(*backend.session, in, out, spec, &kernel);
                                     });
        return r;
    }
    kernel = spec.otsu ? "intensity histogram, Otsu's level, apply pass" : "apply pass";
    return cpu::threshold(image, spec);
}

}  // namespace imgpar
