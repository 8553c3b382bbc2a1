// The tensor-issue ceiling of warp-tensor-toeplitz (issue 13): how many mma.sync.m16n8k32
// u8 x u8 -> s32 an SM completes per clock when nothing else runs, with CHAINS independent
// accumulator tiles per warp (the kernel has N/16 tiles: 2 at 1024 bits, 8 at 4096, 16 at
// 8192) and WARPS warps per SM. Not part of the build; on the device:
//   nvcc -gencode=arch=compute_90,code=sm_90 -O3 -o mma_rate experiments/tensor_mma_rate.cu
//   ./mma_rate
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

constexpr int ITERS = 4096;

template <int CHAINS> __global__ void mma_loop(uint32_t *sink, uint32_t seed)
{
    uint32_t acc[CHAINS][4] = {};
    uint32_t a[4] = {seed, seed ^ 1u, seed ^ 2u, seed ^ 3u}, b0 = seed * 3u, b1 = seed * 5u;
    for (int it = 0; it < ITERS; it++) {
#pragma unroll
        for (int c = 0; c < CHAINS; c++)
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, "
                         "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+r"(acc[c][0]), "+r"(acc[c][1]), "+r"(acc[c][2]), "+r"(acc[c][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
    uint32_t x = 0;
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        x ^= acc[c][0] ^ acc[c][1] ^ acc[c][2] ^ acc[c][3];
    if (x == 0x12345678u)
        sink[threadIdx.x] = x;
}

template <int CHAINS> void run(int sms, int clock_khz, int warps_per_sm, uint32_t *sink)
{
    const int threads = 128, blocks = sms * warps_per_sm / 4;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    mma_loop<CHAINS><<<blocks, threads>>>(sink, 7);
    cudaEventRecord(e0);
    mma_loop<CHAINS><<<blocks, threads>>>(sink, 7);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    const double mmas = (double)blocks * 4 * ITERS * CHAINS, per_s = mmas / (ms * 1e-3);
    printf("chains %2d warps/SM %2d: %.3f ms, %.3e mma/s, %.3e u8 MAC/s, %.2f mma per SM per "
           "clock at %d MHz\n",
           CHAINS, warps_per_sm, ms, per_s, per_s * 4096, per_s / sms / (clock_khz * 1e3),
           clock_khz / 1000);
}

int main()
{
    int sms, clock_khz;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    uint32_t *sink;
    cudaMalloc(&sink, 128 * sizeof *sink);
    for (int warps : {4, 8, 16, 32}) {
        run<2>(sms, clock_khz, warps, sink);
        run<8>(sms, clock_khz, warps, sink);
        run<16>(sms, clock_khz, warps, sink);
    }
    cudaFree(sink);
    return 0;
}
