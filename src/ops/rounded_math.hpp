// Double-precision operations each rounded on its own (round to nearest),
// for arithmetic whose CPU reference and CUDA kernels must give the same
// bits (the adaptive threshold's levels, SSIM): the device spells every
// rounding with its intrinsics, so nvcc cannot fuse a product into a sum; on
// the host the compiler must not fuse across the calls either (ssim.cpp is
// compiled with -ffp-contract=off).
#pragma once

#include "src/hd.hpp"

namespace imgpar {

IMGPAR_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
IMGPAR_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}
IMGPAR_HD double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}
IMGPAR_HD double div_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}

}  // namespace imgpar
