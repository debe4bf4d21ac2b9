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

BackendChoice gpu_backend() {
    BackendChoice b;
    b.backend = Backend::Gpu;
    b.gpu_index = session().device();
    b.gpu_name = session().device_name();
    b.session = std::shared_ptr<gpu::Session>(&session(), [](gpu::Session*) {});
    return b;
}

}  // namespace imgpar::test
