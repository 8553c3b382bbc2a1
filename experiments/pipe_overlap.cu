// Do the IMAD and the FP64 pipes run at the same time? (issue 39's premise: Hopper's FP64 pipe
// issues as many fused multiply-adds a clock as the IMAD pipe multiply-adds, so work moved onto it
// would run beside the IMAD path's.) A probe outside the build, compiled and run on the GPU machine
// by experiments/pipe_overlap.sh.
//
// Each thread runs CHAINS independent chains of one instruction kind, ITER x UNROLL steps, and the
// mixed kernels run both kinds' chains in the same loop, so a scheduler always has both kinds
// ready. Kinds: IMAD (x = x y + z, 32-bit), IMAD.HI (x = hi(x y) + z), IMAD.WIDE (a 64-bit
// x = x y + z of 32-bit factors), DFMA (double x = x y + z), y and z the kernel's parameters, the
// same for every chain; and IMAD and DFMA with y and z registers of each chain's own
// (imad-reg, dfma-reg), so that each instruction reads all its operands from the register file,
// as the word products of a multiplication do. Each kernel is timed by CUDA events,
// median of 5 after a warm-up run, on 132 x 16 blocks of 256 threads; its instruction rate is
// given per SM and clock at the clock the SMs ran at (thread 0 of block 0 reads its cycle counter
// and the global timer at its start and end; the last run's). If the pipes overlap, a
// mixed kernel takes as long as its slower half; if they share a resource, as long as both halves
// one after the other. CSV on stdout; each kernel's result is summed and printed, so that nothing
// is optimised away (the sums are not checked: the probe measures rates, not values).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <vector>

#define PROBE_NAME "pipe_overlap"
#include "probe_check.cuh"

namespace {

constexpr int CHAINS = 8, UNROLL = 4, ITER = 1024, BLOCK = 256;

enum Kind { NONE, IMAD_LO, IMAD_HI, IMAD_WIDE, DFMA, IMAD_REG, DFMA_REG };

template <int K> struct Chains {
    uint32_t x[CHAINS], u[CHAINS], v[CHAINS];
    uint64_t w[CHAINS];
    double d[CHAINS], e[CHAINS], f[CHAINS];
    __device__ __forceinline__ void init(uint32_t s)
    {
#pragma unroll
        for (int i = 0; i < CHAINS; i++) {
            x[i] = s + i;
            u[i] = s * 3u + 2 * i + 1;
            v[i] = s ^ (i * 104729u);
            w[i] = s ^ (i * 7919u);
            d[i] = (double)(s + i) * 1e-9;
            e[i] = 1.0 - (double)(s % 7 + i) * 1e-6;
            f[i] = (double)(s % 5 + i) * 1e-3;
        }
    }
    __device__ __forceinline__ void step(uint32_t y, uint32_t z, double dy, double dz)
    {
#pragma unroll
        for (int i = 0; i < CHAINS; i++) {
            if constexpr (K == IMAD_LO)
                x[i] = x[i] * y + z;
            else if constexpr (K == IMAD_HI)
                x[i] = __umulhi(x[i], y) + z;
            else if constexpr (K == IMAD_WIDE)
                w[i] = (uint64_t)(uint32_t)w[i] * y + w[i];
            else if constexpr (K == DFMA)
                d[i] = fma(d[i], dy, dz);
            else if constexpr (K == IMAD_REG)
                x[i] = x[i] * u[i] + v[i];
            else if constexpr (K == DFMA_REG)
                d[i] = fma(d[i], e[i], f[i]);
        }
    }
    __device__ __forceinline__ double sum() const
    {
        double s = 0;
#pragma unroll
        for (int i = 0; i < CHAINS; i++)
            s += K == DFMA || K == DFMA_REG ? d[i]
                 : K == IMAD_WIDE            ? (double)w[i]
                 : K == NONE                 ? 0.0
                                             : (double)x[i];
        return s;
    }
};

__device__ __forceinline__ uint64_t global_ns()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// out[s] for each thread s; clock[0..1]: the SM cycles and nanoseconds that thread 0 of block 0
// saw pass, so that the host has the clock the SMs ran at.
template <int K1, int K2>
__global__ void __launch_bounds__(BLOCK) rate_kernel(uint32_t y, uint32_t z, double dy, double dz,
                                                     double *out, uint64_t *clock)
{
    const uint64_t c0 = clock64(), t0 = global_ns();
    Chains<K1> a;
    Chains<K2> b;
    const uint32_t s = blockIdx.x * BLOCK + threadIdx.x;
    a.init(s);
    b.init(s * 3u);
#pragma unroll 1
    for (int k = 0; k < ITER; k++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            a.step(y, z, dy, dz);
            if constexpr (K2 != NONE)
                b.step(y + 1, z, dy, dz);
        }
    }
    out[s] = a.sum() + b.sum();
    if (s == 0) {
        clock[0] = clock64() - c0;
        clock[1] = global_ns() - t0;
    }
}

const char *name(int k)
{
    static const char *n[] = {"none", "imad",     "imad.hi", "imad.wide",
                              "dfma", "imad-reg", "dfma-reg"};
    return n[k];
}

} // namespace

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const unsigned grid = prop.multiProcessorCount * 16;
    double *out;
    uint64_t *clock;
    CHECK(cudaMalloc(&out, (size_t)grid * BLOCK * sizeof(double)));
    CHECK(cudaMalloc(&clock, 2 * sizeof(uint64_t)));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    struct Case {
        int k1, k2;
        void (*kernel)(uint32_t, uint32_t, double, double, double *, uint64_t *);
    } cases[] = {
        {IMAD_LO, NONE, rate_kernel<IMAD_LO, NONE>},
        {IMAD_HI, NONE, rate_kernel<IMAD_HI, NONE>},
        {IMAD_WIDE, NONE, rate_kernel<IMAD_WIDE, NONE>},
        {DFMA, NONE, rate_kernel<DFMA, NONE>},
        {IMAD_LO, DFMA, rate_kernel<IMAD_LO, DFMA>},
        {IMAD_HI, DFMA, rate_kernel<IMAD_HI, DFMA>},
        {IMAD_WIDE, DFMA, rate_kernel<IMAD_WIDE, DFMA>},
        {IMAD_LO, IMAD_LO, rate_kernel<IMAD_LO, IMAD_LO>},
        {DFMA, DFMA, rate_kernel<DFMA, DFMA>},
        {IMAD_REG, NONE, rate_kernel<IMAD_REG, NONE>},
        {DFMA_REG, NONE, rate_kernel<DFMA_REG, NONE>},
        {IMAD_REG, DFMA_REG, rate_kernel<IMAD_REG, DFMA_REG>},
    };
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("commit,date,device,sm_clock_mhz,kernel,median_ms,min_ms,max_ms,"
           "warp_instructions_per_sm_clock,checksum\n");
    std::vector<double> host((size_t)grid * BLOCK);
    for (const Case &c : cases) {
        std::vector<float> ms;
        for (int r = 0; r < 6; r++) {
            CHECK(cudaEventRecord(e0));
            c.kernel<<<grid, BLOCK>>>(3u + r, 5u, 0.999, 1e-3, out, clock);
            CHECK(cudaGetLastError());
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float x;
            CHECK(cudaEventElapsedTime(&x, e0, e1));
            if (r)
                ms.push_back(x);
        }
        std::sort(ms.begin(), ms.end());
        CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(double), cudaMemcpyDeviceToHost));
        uint64_t cycles_ns[2];
        CHECK(cudaMemcpy(cycles_ns, clock, sizeof cycles_ns, cudaMemcpyDeviceToHost));
        const double clock_mhz = 1e3 * cycles_ns[0] / cycles_ns[1];
        double sum = 0;
        for (double v : host)
            sum += v;
        const double warp_inst =
            (double)grid * BLOCK / 32 * ITER * UNROLL * CHAINS * (c.k2 == NONE ? 1 : 2);
        const double per_clock =
            warp_inst / (ms[ms.size() / 2] * 1e-3 * clock_mhz * 1e6 * prop.multiProcessorCount);
        printf("%s,%s,%s,%.0f,%s%s%s,%.4f,%.4f,%.4f,%.3f,%.6g\n", commit, date, prop.name,
               clock_mhz,
               name(c.k1), c.k2 == NONE ? "" : "+", c.k2 == NONE ? "" : name(c.k2),
               ms[ms.size() / 2], ms.front(), ms.back(), per_clock, sum);
    }
    CHECK(cudaFree(out));
    CHECK(cudaFree(clock));
    return 0;
}
