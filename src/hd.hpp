// Marks functions compiled for both host and device, so the CPU reference and
// the CUDA kernels share one definition of every piece of pixel arithmetic.
#pragma once

#if defined(__CUDACC__)
#define IMGPAR_HD __host__ __device__ __forceinline__
#else
#define IMGPAR_HD inline
#endif

// Asks the device compiler to unroll the loop that follows (so that arrays
// indexed by its counter can live in registers); nothing in host passes.
#if defined(__CUDA_ARCH__)
#define IMGPAR_UNROLL _Pragma("unroll")
#else
#define IMGPAR_UNROLL
#endif
