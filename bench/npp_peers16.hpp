// NPP's 16u functions beside imgpar's 16-bit rows (bench/bench_operations_u16.cpp):
// Gaussian, box, resize and the histogram, gray and RGB, where NPP has them.
#pragma once

#include <string>

#include "bench/npp_peers.hpp"
#include "src/image.hpp"
#include "src/ops/filter.hpp"

namespace imgpar::bench {

NppFilterRun time_npp_filter16(Context& ctx, const FilterPlan& plan, const ConstDeviceViewU16& src,
                               const DeviceViewU16& dst);
NppFilterRun time_npp_resize16(Context& ctx, const std::string& filter, const ConstDeviceViewU16& src,
                               const DeviceViewU16& dst);
// nppiHistogramEven_16u_C1R with `bins` even bins over 0..65535 (gray only).
NppFilterRun time_npp_histogram16(Context& ctx, int bins, const ConstDeviceViewU16& src);

}  // namespace imgpar::bench
