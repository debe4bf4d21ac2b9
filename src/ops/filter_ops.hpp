// The convolution filters as operations (src/op/operation.hpp): blur, box,
// sharpen, edges and convolve, declared in filter_ops.cpp. A FilterJob binds
// a validated FilterPlan to both backends; the benchmark reads its plan to
// time NPP's equivalent.
#pragma once

#include <utility>

#include "src/op/operation.hpp"
#include "src/ops/filter.hpp"

namespace imgpar {

class FilterJob final : public ImageJob {
public:
    explicit FilterJob(FilterPlan plan) : plan_(std::move(plan)) {}
    const FilterPlan& plan() const { return plan_; }

    std::string describe() const override;
    JsonObject details() const override;
    ImageShape output_shape(const ImageShape& in) const override {
        return {in.width, in.height, plan_.output_channels(in.channels), in.type};
    }
    ImageU8 run_cpu(ConstViewU8 src, RunNotes& notes) const override;
    void run_gpu(gpu::Session& session, ConstDeviceViewU8 src, DeviceViewU8 dst, RunNotes& notes) const override;
    // 16-bit images: the 16-bit contract of src/ops/filter.hpp.
    bool takes_u16() const override { return true; }
    ImageU16 run_cpu(ConstViewU16 src, RunNotes& notes) const override;
    void run_gpu(gpu::Session& session, ConstDeviceViewU16 src, DeviceViewU16 dst, RunNotes& notes) const override;

private:
    FilterPlan plan_;
};

Operation blur_operation();
Operation box_operation();
Operation sharpen_operation();
Operation edges_operation();
Operation convolve_operation();

}  // namespace imgpar
