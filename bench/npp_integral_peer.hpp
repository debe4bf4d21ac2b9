// NPP's Integral and SqrIntegral as benchmark peers of imgpar's summed-area
// table. The NPP code is compiled only where the toolkit has NPP
// (IMGPAR_HAVE_NPP); elsewhere the peer reports itself unavailable. NPP
// writes 32-bit integer sums (and 64-bit float squares), so it is timed on
// images whose totals fit in 32 bits (4096x4096 gray).
#pragma once

#include <cstdint>
#include <string>

#include "bench/bench.hpp"

namespace imgpar::bench {

struct NppIntegralRun {
    bool available = false;
    std::string name;  // "NPP Integral_8u32s_C1R"
    Timing timing;
    std::string note;  // why it did not run, or whether its table matched
};

// Times nppiIntegral_8u32s_C1R_Ctx (squares false) or
// nppiSqrIntegral_8u32s64f_C1R_Ctx (squares true) on a gray device image, on
// ctx's stream, outputs allocated outside the timed region. `sums` (host,
// (W+1) x (H+1), imgpar's u32 table) checks NPP's sums.
NppIntegralRun time_npp_integral(Context& ctx, const DeviceViewU8& image, bool squares, const std::uint32_t* sums);

}  // namespace imgpar::bench
