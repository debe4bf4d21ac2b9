// The GPU suite's session: GPU 0, opened once for the whole suite, as a
// caller of the library would keep one.
#pragma once

#include <cuda_runtime.h>

#include "src/backend.hpp"
#include "src/gpu/session.hpp"

namespace imgpar::test {

gpu::Session& session();
// Closes it (the suite's main, once the cases have run): before exit, while
// the libraries it used (nvJPEG) are still there to free its state.
void close_session();
// The session's stream, with its device current.
cudaStream_t stream();
// The session as a backend choice (not owned: the suite keeps it).
BackendChoice gpu_backend();

}  // namespace imgpar::test
