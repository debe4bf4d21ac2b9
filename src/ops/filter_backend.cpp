#include "src/ops/filter_backend.hpp"

namespace imgpar {

ImageU8 apply_filter(const FilterPlan& plan, ConstViewU8 src, const BackendChoice& backend, std::string& kernel) {
    if (backend.backend == Backend::Gpu)
        return gpu::run_on_images(*backend.session, src, plan.output_channels(src.channels),
                                  [&](ConstDeviceViewU8 in, DeviceViewU8 out) {
                                      gpu::apply_filter(*backend.session, plan, in, out, &kernel);
                                  });
    kernel = cpu::filter_kernel_name(plan);
    return cpu::apply_filter(plan, src);
}

}  // namespace imgpar
