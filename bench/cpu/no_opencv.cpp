// Built without OpenCV: no peer for any case, and the table says so.
#include "bench/cpu/cpu_bench.hpp"

namespace imgpar::cpu_bench {

PreparedRun prepare_opencv(const BenchCase&, ConstViewU8) { return {}; }
std::string opencv_version() { return ""; }
void set_opencv_threads(int) {}

}  // namespace imgpar::cpu_bench
