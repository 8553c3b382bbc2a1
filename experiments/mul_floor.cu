// What no product kernel at 10240 products can go below, timed as mpgpu times (issue 39). A probe
// outside the build, compiled and run on the GPU machine by experiments/mul_floor.sh:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -o mul_floor \
//        experiments/mul_floor.cu && ./mul_floor COMMIT
// At 256 to 2048 bits and 10240 products mpgpu's fastest methods and CGBN both take a few
// microseconds, most of it what every kernel pays (docs/peers.md). This probe times, held as
// cli/timing.c holds (the stream waits behind kernels/stream_hold.cu while the events and the
// kernel are queued; the flags allocated once), median of 50 after 5 warm-up runs, at each size:
// - empty: a kernel that does nothing, on the grid of T threads a product in 64-thread blocks
//   (the same at every size), and on one block (kernel empty-one-block, T given as 0): what the
//   launch and the events cost any kernel, whatever its grid;
// - copy: a kernel that moves what a product kernel must move and nothing more: it reads both
//   operands of each product and writes them as the product's 2N words (c = a, then b), by
//   16-byte vectors in the product-major layout, T threads a product (thread h takes vectors
//   h, h + T, ... of the product), with T = 1, 2, 4 and 8 as the comba-reg methods.
// The copies are checked word by word after the timing, so the floor moved the real bytes.
// Writes CSV to stdout: one row a kernel and T (the empty kernel's rows say 0 bits).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "../kernels/stream_hold.cu"

#define PROBE_NAME "mul_floor"
#include "probe_check.cuh"

constexpr int REPS = 50, WARMUP = 5, THREADS = 64;
constexpr size_t COUNT = 10240;

__global__ void __launch_bounds__(THREADS) empty_kernel() {}

// c's product p = a's p, then b's p: Q vectors each.
template <int Q, int T>
__global__ void __launch_bounds__(THREADS) copy_kernel(const uint4 *__restrict__ a,
                                                       const uint4 *__restrict__ b,
                                                       uint4 *__restrict__ c, size_t count)
{
    const size_t thread = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const size_t p = thread / T;
    const unsigned h = (unsigned)(thread % T);
    if (p >= count)
        return;
#pragma unroll
    for (int v = h; v < 2 * Q; v += T)
        c[p * 2 * Q + v] = v < Q ? a[p * Q + v] : b[p * Q + v - Q];
}

struct timer {
    cudaStream_t s;
    cudaEvent_t e0, e1;
    int *flag, *dflag;
};

// Median, min and max of REPS held runs of launch(s) after WARMUP unheld ones, in ms.
template <class Launch> void time_held(timer &t, Launch launch, float out[3])
{
    std::vector<float> ms;
    for (int r = 0; r < WARMUP + REPS; r++) {
        const bool held = r >= WARMUP;
        if (held) {
            ((volatile int *)t.flag)[0] = ((volatile int *)t.flag)[1] = 0;
            CHECK(stream_hold_launch(t.dflag, 1000000000ull, t.s)); // cli/timing.c's 1 s
        }
        CHECK(cudaEventRecord(t.e0, t.s));
        launch(t.s);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t.e1, t.s));
        if (held)
            __atomic_store_n(t.flag, 1, __ATOMIC_RELEASE);
        CHECK(cudaEventSynchronize(t.e1));
        float x;
        CHECK(cudaEventElapsedTime(&x, t.e0, t.e1));
        if (held)
            ms.push_back(x);
    }
    std::sort(ms.begin(), ms.end());
    out[0] = ms[REPS / 2], out[1] = ms.front(), out[2] = ms.back();
}

static unsigned blocks_for(int t) { return (unsigned)((COUNT * t + THREADS - 1) / THREADS); }

template <int N, int T>
void copy_case(timer &t, const char *row, const uint4 *a, const uint4 *b, uint4 *c,
               const std::vector<uint32_t> &ha, const std::vector<uint32_t> &hb)
{
    constexpr int Q = N / 4;
    CHECK(cudaMemset(c, 0, COUNT * 2 * N * 4));
    float r[3];
    const unsigned blocks = blocks_for(T);
    auto launch = [&](cudaStream_t s) {
        copy_kernel<Q, T><<<blocks, THREADS, 0, s>>>(a, b, c, COUNT);
    };
    time_held(t, launch, r);
    std::vector<uint32_t> hc(COUNT * 2 * N);
    CHECK(cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < COUNT; p++)
        for (int j = 0; j < 2 * N; j++) {
            const uint32_t want = j < N ? ha[p * N + j] : hb[p * N + j - N];
            if (hc[p * 2 * N + j] != want) {
                fprintf(stderr, "mul_floor: copy of %d bits, T = %d: product %zu word %d is %08x, "
                                "not %08x\n", 32 * N, T, p, j, hc[p * 2 * N + j], want);
                exit(1);
            }
        }
    printf("%s,%d,copy,%d,%.5f,%.5f,%.5f\n", row, 32 * N, T, r[0], r[1], r[2]);
}

template <int N>
void size_cases(timer &t, const char *row, const uint4 *a, const uint4 *b, uint4 *c,
                const std::vector<uint32_t> &ha, const std::vector<uint32_t> &hb)
{
    copy_case<N, 1>(t, row, a, b, c, ha, hb);
    copy_case<N, 2>(t, row, a, b, c, ha, hb);
    copy_case<N, 4>(t, row, a, b, c, ha, hb);
    copy_case<N, 8>(t, row, a, b, c, ha, hb);
}

int main(int argc, char **argv)
{
    const char *commit = argc > 1 ? argv[1] : "unknown";
    constexpr int MOST = 64; // words an operand, 2048 bits
    std::vector<uint32_t> ha(COUNT * MOST), hb(COUNT * MOST);
    uint64_t x = 0x243F6A8885A308D3ull; // seed
    for (size_t i = 0; i < ha.size(); i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        ha[i] = (uint32_t)(x >> 16);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        hb[i] = (uint32_t)(x >> 16) | 1u; // never zero
    }
    uint4 *a, *b, *c;
    CHECK(cudaMalloc(&a, ha.size() * 4));
    CHECK(cudaMalloc(&b, hb.size() * 4));
    CHECK(cudaMalloc(&c, 2 * ha.size() * 4));
    timer t;
    CHECK(cudaStreamCreate(&t.s));
    CHECK(cudaEventCreate(&t.e0));
    CHECK(cudaEventCreate(&t.e1));
    CHECK(cudaHostAlloc(&t.flag, 2 * sizeof *t.flag, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&t.dflag, t.flag, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("commit,date,device,count,bits,kernel,threads_per_product,median_ms,min_ms,max_ms\n");
    char row[256]; // the columns every row starts with
    snprintf(row, sizeof row, "%.40s,%s,%.100s,%zu", commit, date, prop.name, COUNT);
    for (int threads : {0, 1, 2, 4, 8}) {
        float e[3];
        const unsigned blocks = threads ? blocks_for(threads) : 1;
        time_held(t, [&](cudaStream_t s) { empty_kernel<<<blocks, THREADS, 0, s>>>(); }, e);
        printf("%s,0,%s,%d,%.5f,%.5f,%.5f\n", row, threads ? "empty" : "empty-one-block", threads,
               e[0], e[1], e[2]);
    }
    // Each size's operands: the first COUNT * N words of ha and hb, product-major.
    for (int n : {8, 16, 32, 64}) {
        CHECK(cudaMemcpy(a, ha.data(), COUNT * n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(b, hb.data(), COUNT * n * 4, cudaMemcpyHostToDevice));
        std::vector<uint32_t> sa(ha.begin(), ha.begin() + COUNT * n);
        std::vector<uint32_t> sb(hb.begin(), hb.begin() + COUNT * n);
        switch (n) {
        case 8: size_cases<8>(t, row, a, b, c, sa, sb); break;
        case 16: size_cases<16>(t, row, a, b, c, sa, sb); break;
        case 32: size_cases<32>(t, row, a, b, c, sa, sb); break;
        default: size_cases<64>(t, row, a, b, c, sa, sb); break;
        }
    }
    return 0;
}
