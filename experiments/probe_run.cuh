// What the product probes outside the build (experiments/mul_*.cu) share: their operands, the
// device and date their rows name, and held timing as cli/timing.c holds (the stream waits
// behind kernels/stream_hold.cu while the events and the kernels are queued, so the events time
// the GPU's work and not the host's launch call; the flags allocated once; docs/timing.md).
// Include kernels/stream_hold.cu and probe_check.cuh before this header.
#ifndef MPGPU_PROBE_RUN_CUH
#define MPGPU_PROBE_RUN_CUH

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <algorithm>
#include <vector>

// a and b filled from one xorshift stream, a word of each in turn, from a fixed seed; every word
// of b ORed with b_bits.
static void probe_operands(std::vector<uint32_t> &a, std::vector<uint32_t> &b, uint32_t b_bits)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    for (size_t i = 0; i < a.size(); i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = (uint32_t)(x >> 16);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (uint32_t)(x >> 16) | b_bits;
    }
}

// "COMMIT,DATE,DEVICE,COUNT": the columns every row of a probe starts with.
static void probe_row_start(char (&row)[256], const char *commit, size_t count)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(row, sizeof row, "%.40s,%s,%.100s,%zu", commit, date, prop.name, count);
}

struct held_timer {
    cudaStream_t s;
    cudaEvent_t e0, e1;
    int *flag, *dflag;
};

static void held_timer_init(held_timer &t)
{
    CHECK(cudaStreamCreate(&t.s));
    CHECK(cudaEventCreate(&t.e0));
    CHECK(cudaEventCreate(&t.e1));
    CHECK(cudaHostAlloc(&t.flag, 2 * sizeof *t.flag, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&t.dflag, t.flag, 0));
}

// Median, min and max (out[0..2], ms) of reps held runs of launch(stream) after warmup unheld
// ones.
template <class Launch>
void time_held(held_timer &t, int reps, int warmup, Launch launch, float out[3])
{
    std::vector<float> ms;
    for (int r = 0; r < warmup + reps; r++) {
        const bool held = r >= warmup;
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
    out[0] = ms[reps / 2], out[1] = ms.front(), out[2] = ms.back();
}

#endif
