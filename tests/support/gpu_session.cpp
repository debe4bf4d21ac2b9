#include "tests/support/gpu_session.hpp"

#include <memory>

#include "cuda/session.hpp"

namespace imgpar::test {

namespace {
std::unique_ptr<gpu::Session>& the_session() {
    static std::unique_ptr<gpu::Session> s;
    return s;
}
}  // namespace

gpu::Session& session() {
    auto& s = the_session();
    if (!s) s = std::make_unique<gpu::Session>(0);
    return *s;
}

void close_session() { the_session().reset(); }

cudaStream_t stream() { return cuda::enter(session()); }

}  // namespace imgpar::test
