#include "tests/support/gpu_session.hpp"

#include "cuda/session.hpp"

namespace imgpar::test {

gpu::Session& session() {
    static gpu::Session s(0);
    return s;
}

cudaStream_t stream() { return cuda::enter(session()); }

}  // namespace imgpar::test
