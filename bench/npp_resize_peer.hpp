// NPP's nppiResize as the benchmark peer of imgpar's resize: the same input
// and output sizes with NPP's nearest interpolation mode per filter:
//   area      NPPI_INTER_SUPER (super-sampling: the box mean; shrinking only)
//   lanczos3  NPPI_INTER_LANCZOS
//   bicubic   NPPI_INTER_CUBIC
//   bilinear  NPPI_INTER_LINEAR (point-sampled: not widened when shrinking)
//   nearest   NPPI_INTER_NN
// Compiled only where the toolkit has NPP (IMGPAR_HAVE_NPP).
#pragma once

#include <string>

#include "bench/bench.hpp"
#include "bench/npp_peers.hpp"
#include "cuda/device_image.hpp"

namespace imgpar::bench {

// Times NPP resizing the whole of src into the whole of dst (1 or 3
// channels) with `filter`'s mode ("auto" as lanczos3 when shrinking).
NppFilterRun time_npp_resize(Context& ctx, const std::string& filter, const ConstDeviceViewU8& src,
                             const DeviceViewU8& dst);

// NPP's interpolation mode for imgpar's filter (auto: lanczos3 shrinking,
// bicubic otherwise), for 8- and 16-bit peers alike. `available` false, with
// the reason in `note`, where NPP has none (super-sampling enlarges nothing).
struct NppResizeMode {
    bool available = false;
    int mode = 0;
    const char* name = "";
    std::string note;
};
NppResizeMode npp_resize_mode(const std::string& filter, bool shrink);

}  // namespace imgpar::bench
