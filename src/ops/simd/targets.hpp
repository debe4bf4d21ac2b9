// The instruction sets the CPU's vector loops (src/ops/simd/) can run with on
// this machine, for the tests: each vector loop is checked against its plain
// reference under every one of them, not only under the best, which is the
// one users get.
#pragma once

#include <functional>
#include <string>

namespace imgpar::simd {

// The instruction set every vector loop of src/ops/simd/ runs with on this
// machine, the best it supports among those compiled in, e.g. "AVX3"
// (AVX-512) or "AVX2"; "scalar" in a build without Highway. For -v.
std::string simd_target_name();

// Calls body(name) once per instruction set that is compiled in and that
// this machine supports (e.g. "AVX3", "AVX2", "SSE4"), with the vector loops
// dispatched to it; the best one is restored afterwards. Without Highway,
// once, as "scalar".
void for_each_simd_target(const std::function<void(const std::string& name)>& body);

}  // namespace imgpar::simd
