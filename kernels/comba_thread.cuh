// The Comba (product-scanning) column loop of one thread, 000 Algorithm 2, shared by
// thread-comba and by the Comba leaves of thread-karatsuba (001 Table II: Karatsuba applied
// once or twice, then Comba for the sub-products).
//
// Every array is word-major with one stride: word k of x is x[k * stride]. With the thread's
// product index folded into the pointers and stride = count, each read and write is coalesced
// across the warp. The parameters carry no __restrict__: Karatsuba passes operands it wrote
// earlier in the same kernel, which must not be read through the read-only (non-coherent) path;
// a caller whose inputs are read-only for the whole kernel says so on its kernel parameters.
#ifndef MPGPU_COMBA_THREAD_CUH
#define MPGPU_COMBA_THREAD_CUH

#include <stddef.h>
#include <stdint.h>

#include "ptx_carry.cuh"

// c[0 .. 2n) = a[0 .. n) * b[0 .. n). The column sum {t, u, v} stays in registers, so each
// product word is written once (2n writes, as 000 Table 3.1; it reads 2n^2 words, where the
// table prints 2n^2 - 2).
__device__ __forceinline__ void comba_thread_mul(const uint32_t *a, const uint32_t *b,
                                                 uint32_t *c, unsigned n, size_t stride)
{
    uint32_t t = 0, u = 0, v = 0;
    for (unsigned i = 0; i < 2 * n - 1; i++) {
        unsigned j_lo = i < n ? 0 : i - n + 1, j_hi = i < n ? i : n - 1;
        for (unsigned j = j_lo; j <= j_hi; j++)
            ptx::mac3(t, u, v, a[j * stride], b[(i - j) * stride]);
        c[i * stride] = v;
        v = u;
        u = t;
        t = 0;
    }
    c[(size_t)(2 * n - 1) * stride] = v;
}

#endif
