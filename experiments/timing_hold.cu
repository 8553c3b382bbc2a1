// Does mpgpu's held timing (cli/timing.c) perturb the kernel it times? A probe outside the build,
// compiled and run on the GPU machine by experiments/timing_hold.sh:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -o timing_hold \
//        experiments/timing_hold.cu && ./timing_hold COMMIT
// It times the direct kernel's leaf of thread-rowchain-karatsuba (kernels/rowchain_leaf.cuh) on
// 2^20 and on 10240 products of 1024 bits, 20 repetitions after 3 warm-up, between two CUDA
// events, three ways:
// - plain: the events and the kernel launched one after the other, the launch latency inside;
// - held, flags kept: the stream waits behind mpgpu's holding kernel (kernels/stream_hold.cu,
//   compiled in here), spinning on a flag in mapped host memory until the events and the kernel
//   are queued, the flags allocated once, as cli/timing.c keeps them per host thread;
// - held, flags each time: the same with the flags allocated (cudaHostAlloc, mapped) and freed
//   around every repetition, as cli/timing.c did before.
// Writes CSV to stdout. The operands are fixed pseudo-random words; the products are not checked
// (experiments/mul1024_bound.cu checks this leaf).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "../kernels/rowchain_leaf.cuh"
#include "../kernels/stream_hold.cu"

#define PROBE_NAME "timing_hold"
#include "probe_check.cuh"

constexpr int REPS = 20, WARMUP = 3, THREADS = 64;

__global__ void __launch_bounds__(THREADS, 8) leaf(const uint32_t *__restrict__ A,
                                                   const uint32_t *__restrict__ B,
                                                   uint32_t *__restrict__ C, size_t count)
{
    const size_t p = blockIdx.x * (size_t)THREADS + threadIdx.x;
    if (p >= count)
        return;
    rowchain::direct_leaf([&](int j) { return __ldg(A + j * count + p); },
                          [&](int j) { return __ldg(B + j * count + p); },
                          [&](int q, uint32_t v) { C[q * count + p] = v; });
}

enum way { PLAIN, HELD_KEPT, HELD_EACH };

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    const size_t most = 1u << 20, words = 32 * most;
    std::vector<uint32_t> h(words);
    uint64_t x = 0x243F6A8885A308D3ull; // seed
    for (auto &w : h) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        w = (uint32_t)(x >> 16);
    }
    uint32_t *a, *b, *c;
    CHECK(cudaMalloc(&a, words * 4));
    CHECK(cudaMalloc(&b, words * 4));
    CHECK(cudaMalloc(&c, 2 * words * 4));
    CHECK(cudaMemcpy(a, h.data(), words * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h.data(), words * 4, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    int *kept;
    CHECK(cudaHostAlloc(&kept, 2 * sizeof *kept, cudaHostAllocMapped));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("# timing_hold %s  %s  %s; 1024-bit products, 64-thread blocks; median of %d after %d "
           "warm-up\n", commit, date, prop.name, REPS, WARMUP);
    printf("products,way,median_ms,min_ms,max_ms\n");
    const char *names[] = {"plain", "held, flags kept", "held, flags each time"};
    for (size_t count : {most, (size_t)10240}) {
        for (way w : {PLAIN, HELD_KEPT, HELD_EACH}) {
            std::vector<float> t;
            for (int r = 0; r < WARMUP + REPS; r++) {
                int *flag = kept;
                if (w == HELD_EACH)
                    CHECK(cudaHostAlloc(&flag, 2 * sizeof *flag, cudaHostAllocMapped));
                if (w != PLAIN) {
                    ((volatile int *)flag)[0] = ((volatile int *)flag)[1] = 0;
                    int *dflag;
                    CHECK(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
                    CHECK(stream_hold_launch(dflag, 1000000000ull, s)); // cli/timing.c's 1 s
                }
                CHECK(cudaEventRecord(e0, s));
                leaf<<<(unsigned)((count + THREADS - 1) / THREADS), THREADS, 0, s>>>(a, b, c, count);
                CHECK(cudaGetLastError());
                CHECK(cudaEventRecord(e1, s));
                if (w != PLAIN)
                    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
                CHECK(cudaEventSynchronize(e1));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, e0, e1));
                if (w == HELD_EACH)
                    CHECK(cudaFreeHost(flag));
                if (r >= WARMUP)
                    t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            printf("%zu,%s,%.4f,%.4f,%.4f\n", count, names[w], t[REPS / 2], t.front(), t.back());
        }
    }
    return 0;
}
