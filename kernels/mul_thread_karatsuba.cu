// thread-karatsuba, thread-karatsuba2: one thread per product, Karatsuba applied once (twice)
// and Comba for the sub-products: the single-thread Karatsuba and Karatsuba^2 rows of
// 001 Table II (001 section III-A, Table I).
//
// The subtractive form. With x = x1 beta^h + x0 and y = y1 beta^h + y0,
//   x y = x0 y0 + (x0 y0 + x1 y1 + (x0 - x1)(y1 - y0)) beta^h + x1 y1 beta^2h,
// and (x0 - x1)(y1 - y0) = -+ |x0 - x1| |y1 - y0|. All three sub-products are h x h words, so
// Karatsuba^2 recurses into the middle product exactly as into the outer two and every Comba
// leaf has the same size w / 4. The additive form of 001 ((x1 + x0)(y1 + y0)) has (h + 1)-word
// factors, whose carry words would need extra partial products at every level; the sign of the
// subtractive form costs one conditional negation per factor.
//
// Everything is word-major with stride count (word k of an array at [k * count]), the scratch
// too, so every access is coalesced across the warp, as in thread-comba. x0 y0 and x1 y1 are
// computed straight into the two halves of the product and the middle term is added in place.
//
// Carries that cross loop iterations in the O(w) passes below (differences, recombination) are
// kept in an explicit 64-bit carry word: the PTX carry flag of ptx_carry.cuh cannot be held
// across the device-memory accesses and loop control between iterations. The O(w^2) work is
// the Comba leaves, which use the PTX chain (comba_thread.cuh).
#include "mul.h"
#include "comba_thread.cuh"

namespace {

// d = |x - y| for n-word x, y; returns 1 when x < y. A thread whose difference came out
// negative negates it in a second pass (two's complement: complement, then add 1).
__device__ __forceinline__ uint32_t abs_diff(const uint32_t *x, const uint32_t *y, uint32_t *d,
                                             unsigned n, size_t s)
{
    uint32_t borrow = 0;
    for (unsigned k = 0; k < n; k++) {
        uint64_t t = (uint64_t)x[k * s] - y[k * s] - borrow;
        d[k * s] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    if (borrow) {
        uint64_t carry = 1;
        for (unsigned k = 0; k < n; k++) {
            carry += (uint32_t)~d[k * s];
            d[k * s] = (uint32_t)carry;
            carry >>= 32;
        }
    }
    return borrow;
}

// z (4h words) holds L = x0 y0 in its low and H = x1 y1 in its high 2h words; pm holds
// P = |x0 - x1| |y1 - y0|, and neg says that (x0 - x1)(y1 - y0) = -P. Adds
// (L + H -+ P) beta^h to z in place. In h-word blocks z = [L0 L1 H0 H1] becomes
//   [L0, L1 + L0 + H0 -+ P0, H0 + L1 + H1 -+ P1, H1] plus carries,
// so one pass over k reads word k of every block and overwrites only words of L1 and H0 that
// it has just read (the two blocks share L1 + H0, as in GMP's toom22). The two block sums run
// as two carry chains whose signed carries enter at words 2h and 3h in a second pass.
__device__ __forceinline__ void karatsuba_recombine(uint32_t *z, const uint32_t *pm, unsigned h,
                                                    uint32_t neg, size_t s)
{
    const int64_t sign = -(int64_t)neg; // 0 or all ones: (p ^ sign) - sign is p or -p
    const size_t b1 = (size_t)h * s, b2 = 2 * b1, b3 = 3 * b1;
    int64_t c1 = 0, c2 = 0;
    for (unsigned k = 0; k < h; k++) {
        size_t i = k * s;
        int64_t l0 = z[i], l1 = z[b1 + i], h0 = z[b2 + i], h1 = z[b3 + i];
        int64_t p0 = ((int64_t)pm[i] ^ sign) - sign, p1 = ((int64_t)pm[b1 + i] ^ sign) - sign;
        int64_t shared = l1 + h0;
        c1 += shared + l0 + p0;
        c2 += shared + h1 + p1;
        z[b1 + i] = (uint32_t)c1;
        z[b2 + i] = (uint32_t)c2;
        c1 >>= 32; // arithmetic shift: the carry is signed, in -1 .. 3
        c2 >>= 32;
    }
    for (unsigned k = 2 * h; k < 4 * h; k++) {
        if (k == 3 * h)
            c1 += c2;
        c1 += z[k * s];
        z[k * s] = (uint32_t)c1;
        c1 >>= 32;
    }
}

// z[0 .. 2n) = x[0 .. n) * y[0 .. n), Karatsuba `depth` times, then Comba. n is a multiple of
// 2^depth. scratch holds 4(1 - 2^-depth) n words: |x0 - x1|, |y1 - y0| and their product at
// this level (2n words), the next level's behind them.
template <unsigned depth>
__device__ void karatsuba_mul(const uint32_t *x, const uint32_t *y, uint32_t *z, unsigned n,
                              size_t s, uint32_t *scratch)
{
    if constexpr (depth == 0) {
        comba_thread_mul(x, y, z, n, s);
    } else {
        const unsigned h = n / 2;
        const size_t hs = (size_t)h * s;
        uint32_t *dx = scratch, *dy = scratch + hs, *pm = scratch + 2 * hs;
        uint32_t *deeper = scratch + 4 * hs;
        uint32_t neg = abs_diff(x, x + hs, dx, h, s) ^ abs_diff(y + hs, y, dy, h, s);
        karatsuba_mul<depth - 1>(x, y, z, h, s, deeper);
        karatsuba_mul<depth - 1>(x + hs, y + hs, z + 2 * hs, h, s, deeper);
        karatsuba_mul<depth - 1>(dx, dy, pm, h, s, deeper);
        karatsuba_recombine(z, pm, h, neg, s);
    }
}

template <unsigned depth>
__global__ void __launch_bounds__(128) thread_karatsuba_kernel(const uint32_t *__restrict__ a,
                                                               const uint32_t *__restrict__ b,
                                                               uint32_t *__restrict__ c,
                                                               uint32_t *__restrict__ scratch,
                                                               unsigned w, size_t count)
{
    size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    karatsuba_mul<depth>(a + p, b + p, c + p, w, count, scratch + p);
}

template <unsigned depth>
cudaError_t launch(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,
                   size_t count, void *scratch, cudaStream_t stream)
{
    const unsigned threads = 128;
    thread_karatsuba_kernel<depth><<<(unsigned)((count + threads - 1) / threads), threads, 0,
                                     stream>>>(a, b, c, (uint32_t *)scratch, words, count);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t mul_thread_karatsuba_scratch_bytes(unsigned words, size_t count)
{
    return 2 * (size_t)words * count * sizeof(uint32_t);
}

extern "C" size_t mul_thread_karatsuba2_scratch_bytes(unsigned words, size_t count)
{
    return 3 * (size_t)words * count * sizeof(uint32_t);
}

extern "C" cudaError_t mul_thread_karatsuba_launch(const uint32_t *a, const uint32_t *b,
                                                   uint32_t *c, unsigned words, size_t count,
                                                   void *scratch, cudaStream_t stream)
{
    return launch<1>(a, b, c, words, count, scratch, stream);
}

extern "C" cudaError_t mul_thread_karatsuba2_launch(const uint32_t *a, const uint32_t *b,
                                                    uint32_t *c, unsigned words, size_t count,
                                                    void *scratch, cudaStream_t stream)
{
    return launch<2>(a, b, c, words, count, scratch, stream);
}
