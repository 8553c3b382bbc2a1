// The fused multiply-add that rounds to nearest, on the device and on the host, for the probes'
// two FP64 Montgomery paths (fixed_fp64_columns.cuh, fixed_fp64_carries.cuh): beside
// kernels/fixed_fp64_exact.cuh's fma_rz, and here because only these probes use it. On the host it
// is C's fma() in the default rounding mode.
#ifndef MPGPU_FIXED_FP64_RN_CUH
#define MPGPU_FIXED_FP64_RN_CUH

#include "../kernels/fixed_core.cuh"

#if !defined(__CUDA_ARCH__)
#include <math.h>
#endif

namespace fixed {
namespace fp64 {

FIXED_HD double fma_rn(double x, double y, double z)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(x, y, z);
#else
    return fma(x, y, z);
#endif
}

} // namespace fp64
} // namespace fixed

#endif
