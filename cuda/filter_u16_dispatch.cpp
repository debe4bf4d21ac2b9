// Host entry points of the 16-bit GPU filters: validate the plan and the
// images before any GPU work, reserve scratch, launch (cuda/filter_u16.cu).

#include <cstdint>
#include <string>
#include <utility>

#include "cuda/check.hpp"
#include "cuda/filter.hpp"
#include "cuda/filter_launch.hpp"
#include "cuda/filter_u16.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"

namespace imgpar {
namespace cuda {
namespace fd = filter_detail;

namespace {

const char* const kSubject = "filter";

std::string shape_text(int w, int h, int c) {
    return std::to_string(w) + "x" + std::to_string(h) + " with " + std::to_string(c) + " channel" +
           (c == 1 ? "" : "s") + " (16-bit)";
}

std::pair<std::uintptr_t, std::uintptr_t> span(const ConstDeviceViewU16& r) {
    const auto begin = reinterpret_cast<std::uintptr_t>(r.data);
    return {begin,
            begin + static_cast<std::uintptr_t>(r.pitch) * static_cast<std::uintptr_t>(r.height - 1) + r.row_bytes()};
}

void validate_images(const FilterPlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst) {
    if (src.data == nullptr || dst.data == nullptr)
        throw usage_error(kSubject, "the source or destination device image has no pixels");
    check_image_shape(src.width, src.height, src.channels);
    const int out_c = plan.output_channels(src.channels);
    if (dst.width != src.width || dst.height != src.height || dst.channels != out_c)
        throw usage_error(kSubject, "the destination is " + shape_text(dst.width, dst.height, dst.channels) +
                                        " but a " + filter_kind_name(plan.kind) + " filter of a " +
                                        shape_text(src.width, src.height, src.channels) + " image writes " +
                                        shape_text(src.width, src.height, out_c));
    if (src.pitch < src.row_bytes() || dst.pitch < dst.row_bytes())
        throw usage_error(kSubject, "an image pitch is smaller than its row (width * channels * 2 bytes)");
    // 16-bit samples are read and written as such: rows must keep them aligned.
    if (reinterpret_cast<std::uintptr_t>(src.data) % 2 != 0 || reinterpret_cast<std::uintptr_t>(dst.data) % 2 != 0 ||
        src.pitch % 2 != 0 || dst.pitch % 2 != 0)
        throw usage_error(kSubject, "a 16-bit device image must start, and have its rows start, on an even address");
    const auto a = span(src);
    const auto b = span(ConstDeviceViewU16(dst));
    if (a.first < b.second && b.first < a.second)
        throw usage_error(kSubject, "the destination overlaps the source; filter into another image");
}

}  // namespace

namespace filter_detail {
void reserve_scratch_bytes(FilterWorkspace& ws, std::size_t bytes) { ws.scratch_.reserve(bytes); }
}  // namespace filter_detail

const char* apply_filter(const FilterPlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst,
                         FilterWorkspace& ws, cudaStream_t stream) {
    check_plan(plan);
    validate_images(plan, src, dst);
    const fd::DeviceLimits dev = fd::current_device_limits();
    fd::reserve_scratch_bytes(ws, fd::u16_scratch_bytes(plan, src.width, src.height, src.channels));
    if (ws.separable_path() == SeparablePath::HalfMma || ws.separable_path() == SeparablePath::SmallRadius)
        throw device_error(kSubject, "16-bit Gaussians have no FP16 or small-radius path: choose the byte-plane ring or "
                                     "the integer kernels");
    return fd::launch_u16(plan, src, dst, ws.scratch(), ws.scratch_bytes(), stream, dev, ws.separable_path());
}

}  // namespace cuda

namespace gpu {

void apply_filter(Session& session, const FilterPlan& plan, ConstDeviceViewU16 src, DeviceViewU16 dst,
                  std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    const char* name = cuda::apply_filter(plan, src, dst, session.impl().filters, stream);
    if (kernel) *kernel = name;
}

}  // namespace gpu
}  // namespace imgpar
