#include "src/ops/simd/targets.hpp"

#include <cstdint>

#if IMGPAR_HAVE_HWY
#include <hwy/targets.h>
#endif

namespace imgpar::simd {

#if IMGPAR_HAVE_HWY
std::string simd_target_name() {
    const std::int64_t chosen = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(chosen & -chosen);
}

void for_each_simd_target(const std::function<void(const std::string& name)>& body) {
    struct Restore {
        ~Restore() { hwy::SetSupportedTargetsForTest(0); }  // 0: what the machine supports
    } restore;
    const std::int64_t available = hwy::SupportedTargets() & HWY_TARGETS;
    for (std::int64_t rest = available; rest != 0; rest &= rest - 1) {
        const std::int64_t target = rest & -rest;
        hwy::SetSupportedTargetsForTest(target);
        body(hwy::TargetName(target));
    }
}
#else
std::string simd_target_name() { return "scalar"; }

void for_each_simd_target(const std::function<void(const std::string& name)>& body) { body("scalar"); }
#endif

}  // namespace imgpar::simd
