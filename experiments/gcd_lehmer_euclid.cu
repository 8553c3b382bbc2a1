/* Issue 10: what one quotient of the Lehmer producer's Euclid costs on one GPU thread (a probe
 * outside the build). One thread runs gcd_lehmer_cofactors (kernels/gcd_lehmer.h, the kernel's
 * own) on 4096 seeded pairs of 63-bit tops, each input depending on the last result so that the
 * calls form one chain, and reports clock64 cycles a call and a quotient; beside it the same
 * Euclid with an integer shift-and-subtract quotient in place of the float estimate. Two more
 * forms run it as the kernel's producer does, margin 3 on thread 0 of a block that meets at a
 * barrier afterwards: once as it is, and once with a 64-bit division `/` (a call to a CUDA
 * runtime subroutine) on the loop's path, never taken. With the call, ptxas wraps the Euclid's
 * branches in convergence barriers (BSSY/BSYNC; see them with cuobjdump -sass), as it did in the
 * kernel while gcd_lehmer_decide divided with `/`.
 *   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o gcd_lehmer_euclid experiments/gcd_lehmer_euclid.cu
 * Needs a GPU; prints two lines per form (the second run warm). */
#include <cstdint>
#include <cstdio>

#include "gcd_lehmer.h"

/* floor(a / b) for a >= b > 0 by subtraction for 1 and 2, then binary long division. */
__device__ __forceinline__ uint64_t divide_shift_subtract(uint64_t a, uint64_t b, uint64_t *rem)
{
    uint64_t r = a - b;
    if (r < b) {
        *rem = r;
        return 1;
    }
    r -= b;
    if (r < b) {
        *rem = r;
        return 2;
    }
    int k = __clzll((long long)b) - __clzll((long long)r);
    uint64_t d = b << k, q = 2;
    if (d > r) {
        d >>= 1;
        k--;
    }
    for (; k >= 0; k--) {
        if (r >= d) {
            r -= d;
            q += 1ull << k;
        }
        d >>= 1;
    }
    *rem = r;
    return q;
}

/* gcd_lehmer_cofactors with the shift-and-subtract quotient. */
__device__ unsigned cofactors_shift_subtract(uint64_t a0, uint64_t b0, gcd_lehmer_step *st)
{
    uint64_t r0 = a0, r1 = b0;
    uint32_t u0 = 1, v0 = 0, u1 = 0, v1 = 1;
    unsigned k = 1;
    for (;;) {
        uint64_t r2;
        const uint64_t q = divide_shift_subtract(r0, r1, &r2);
        if (q >> 32)
            break;
        const uint64_t v2 = v0 + (uint64_t)(uint32_t)q * v1;
        if (r2 < v2)
            break;
        const uint32_t u2 = u0 + (uint32_t)q * u1;
        r0 = r1;
        r1 = r2;
        u0 = u1;
        v0 = v1;
        u1 = u2;
        v1 = (uint32_t)v2;
        k++;
    }
    st->ua = u0;
    st->vb = v1;
    st->quotients = k - 1;
    return k;
}

/* The forms of the chain: the kernel's Euclid at margin 1, the shift-and-subtract one, the
 * kernel's Euclid at the producer's margin, and the same with a 64-bit division (a call) on the
 * loop's path that never runs (the inputs have at least one quotient). */
enum form { FLOAT_ESTIMATE, SHIFT_SUBTRACT, PRODUCER, PRODUCER_CALL };

/* The calls as one chain: out gets the cycles, the quotients and the checksum. */
template <form F>
__device__ __forceinline__ void run_chain(const uint64_t *in, int n, unsigned long long *out)
{
    uint64_t acc = 0;
    unsigned long long quotients = 0;
    const long long c0 = clock64();
    for (int i = 0; i < n; i++) {
        gcd_lehmer_step st;
        const uint64_t a = in[2 * i] ^ (acc & 1), b = in[2 * i + 1];
        if (F == SHIFT_SUBTRACT)
            cofactors_shift_subtract(a, b, &st);
        else
            gcd_lehmer_cofactors(a, b, F == FLOAT_ESTIMATE ? 1 : GCD_LEHMER_AHEAD_MARGIN, &st);
        acc += st.ua + st.vb;
        quotients += st.quotients;
        if (F == PRODUCER_CALL && st.quotients == 0)
            acc += a / (b | 1);
    }
    out[0] = (unsigned long long)(clock64() - c0);
    out[1] = quotients;
    out[2] = acc;
}

/* One thread alone. */
template <form F>
__global__ void chain(const uint64_t *in, int n, unsigned long long *out)
{
    run_chain<F>(in, n, out);
}

/* The producer's context: thread 0 of a block that meets at a barrier afterwards. */
template <form F>
__global__ void chain_producer(const uint64_t *in, int n, unsigned long long *out)
{
    __shared__ unsigned long long s_out[3];
    if (threadIdx.x == 0)
        run_chain<F>(in, n, s_out);
    __syncthreads();
    if (threadIdx.x < 3)
        out[threadIdx.x] = s_out[threadIdx.x];
}

int main()
{
    const int n = 4096;
    static uint64_t h[2 * n];
    uint64_t s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t a = (s >> 1) | (1ull << 62);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t b = (s >> 1) | (1ull << 61);
        h[2 * i] = a > b ? a : b;
        h[2 * i + 1] = a > b ? b : a;
    }
    uint64_t *d = nullptr;
    unsigned long long *o = nullptr, r[3];
    if (cudaMalloc(&d, sizeof h) != cudaSuccess || cudaMalloc(&o, sizeof r) != cudaSuccess ||
        cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "gcd_lehmer_euclid: a CUDA call failed\n");
        return 1;
    }
    const char *const forms[] = {"float estimate:", "shift-and-subtract:",
                                 "producer, margin 3:", "producer, with a call:"};
    for (int rep = 0; rep < 2; rep++)
        for (int form = 0; form < 4; form++) {
            if (form == FLOAT_ESTIMATE)
                chain<FLOAT_ESTIMATE><<<1, 1>>>(d, n, o);
            else if (form == SHIFT_SUBTRACT)
                chain<SHIFT_SUBTRACT><<<1, 1>>>(d, n, o);
            else if (form == PRODUCER)
                chain_producer<PRODUCER><<<1, 64>>>(d, n, o);
            else
                chain_producer<PRODUCER_CALL><<<1, 64>>>(d, n, o);
            if (cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost) != cudaSuccess) {
                fprintf(stderr, "gcd_lehmer_euclid: the kernel failed\n");
                return 1;
            }
            printf("%-24s %.1f cycles a call, %.2f quotients a call, %.1f cycles a quotient\n",
                   forms[form], r[0] / (double)n, r[1] / (double)n, r[0] / (double)r[1]);
        }
    return 0;
}
