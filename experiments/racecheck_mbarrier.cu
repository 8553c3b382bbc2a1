// The Lehmer kernel's handoff (kernels/gcd_lehmer.cu) reduced to its synchronisation, for
// compute-sanitizer's racecheck (docs/sanitizers.md). A probe outside the build, compiled and
// run under the sanitizer on the GPU machine by experiments/racecheck_mbarrier.sh:
//   nvcc -std=c++17 -O3 -lineinfo -gencode=arch=compute_90,code=sm_90 -o racecheck_mbarrier \
//        experiments/racecheck_mbarrier.cu
//   compute-sanitizer --tool racecheck ./racecheck_mbarrier MODE
// One block: thread 0 is the producer; warps 1..3 are the workers, one word each of two copies
// of an array. Step i: the workers wait for plan i, read it, read copy i % 2 (their word and
// the word below, another worker's) and write copy (i + 1) % 2; then a barrier among the
// workers (the kernel's mbarrier_handoff.cuh, barrier 1). Meanwhile the producer, as soon as
// step i - 1 is finished, plans step i + 1 from three words of copy i % 2 that step i - 1 wrote,
// writes plan i + 1 over plan i - 1 and posts it. So, as in the kernel:
// - the workers' writes of copy i % 2 reach the producer's reads (RAW), and their reads of plan
//   i - 1 come before the producer's write of plan i + 1 (WAR), through the workers' barrier and
//   the arrivals that report the step;
// - the producer's plan reaches the workers' reads (RAW), and its reads of copy i % 2 come
//   before step i + 1 writes it (WAR), through the producer's own arrival.
// MODE picks how the end of a step is reported (all are correct, PTX ISA 8.8 and 8.9.5):
//   top-after-red   the top worker arrives, after a bar.red among the workers (the kernel's form
//                   until racecheck was run on it)
//   top-after-sync  the same after a bar.sync
//   warp-leaders    lane 0 of every worker warp arrives, after the bar.red and a __syncwarp()
//   every-worker    every worker arrives after the bar.red (the kernel's form now)
//   syncthreads     no mbarrier: one __syncthreads() a step, the producer in it
// Prints the mode and whether the words after STEPS steps match the host's; exit status 1 when
// they do not.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/mbarrier_handoff.cuh"

#define PROBE_NAME "racecheck_mbarrier"
#include "probe_check.cuh"

constexpr uint32_t THREADS = 128, WORKERS = THREADS - 32, STEPS = 256;

enum mode { TOP_AFTER_RED, TOP_AFTER_SYNC, WARP_LEADERS, EVERY_WORKER, SYNCTHREADS };

struct plan {
    uint32_t mul, add, last;
};

__host__ __device__ uint32_t word_after(uint32_t self, uint32_t below, const plan &p)
{
    return self * p.mul + below + p.add;
}

/* Plan `step` from three words of the copy it reads: written by warps 1, 2 and 3, the last by
 * the lane below the one that reports the step. */
__host__ __device__ plan plan_from(const uint32_t *words, uint32_t step)
{
    const uint32_t low = words[0], mid = words[WORKERS / 2], top = words[WORKERS - 2];
    return {(low ^ mid) | 1u, (mid >> 3) + top, step + 1 == STEPS};
}

__global__ void handoff_kernel(mode m, uint32_t *out)
{
    __shared__ uint32_t words[2][WORKERS];
    __shared__ plan s_plan[2];
    __shared__ uint64_t s_posted_mb[2], s_done_mb[2];
    const uint32_t t = threadIdx.x, tw = t - 32;
    const bool worker = t >= 32;
    if (worker)
        words[0][tw] = tw * 2654435761u + 1;
    if (t == 0) {
        for (int j = 0; j < 2; j++) {
            mbarrier_init(&s_posted_mb[j], 1);
            mbarrier_init(&s_done_mb[j],
                          m == EVERY_WORKER ? WORKERS : m == WARP_LEADERS ? WORKERS / 32 : 1);
        }
        s_plan[0] = {3, 1, STEPS == 1};
    }
    __syncthreads();
    if (m == SYNCTHREADS) {
        for (uint32_t i = 0;; i++) {
            const plan p = s_plan[i % 2];
            if (worker) {
                const uint32_t *src = words[i % 2];
                words[(i + 1) % 2][tw] = word_after(src[tw], src[(tw + WORKERS - 1) % WORKERS], p);
            } else if (t == 0 && !p.last) {
                s_plan[(i + 1) % 2] = plan_from(words[i % 2], i + 1);
            }
            __syncthreads();
            if (p.last)
                break;
        }
    } else if (t == 0) {
        for (uint32_t i = 0; i + 1 < STEPS; i++) {
            if (i > 0)
                handoff_wait(s_done_mb, i);
            s_plan[(i + 1) % 2] = plan_from(words[i % 2], i + 1);
            handoff_post(s_posted_mb, i + 1);
        }
    } else if (worker) {
        for (uint32_t i = 0;; i++) {
            if (i > 0)
                handoff_wait(s_posted_mb, i);
            const plan p = s_plan[i % 2];
            const uint32_t *src = words[i % 2];
            words[(i + 1) % 2][tw] = word_after(src[tw], src[(tw + WORKERS - 1) % WORKERS], p);
            if (m == TOP_AFTER_SYNC)
                workers_sync(WORKERS);
            else
                workers_or(WORKERS, false);
            if (m == WARP_LEADERS) {
                __syncwarp();
                if (t % 32 == 0)
                    handoff_post(s_done_mb, i + 1);
            } else if (m == EVERY_WORKER || tw == WORKERS - 1) {
                handoff_post(s_done_mb, i + 1);
            }
            if (p.last)
                break;
        }
    }
    __syncthreads();
    if (worker)
        out[tw] = words[STEPS % 2][tw];
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"top-after-red", "top-after-sync", "warp-leaders",
                                        "every-worker", "syncthreads"};
    int m = -1;
    for (int i = 0; i < 5; i++)
        if (argc == 2 && !strcmp(argv[1], names[i]))
            m = i;
    if (m < 0) {
        fprintf(stderr, "usage: %s top-after-red|top-after-sync|warp-leaders|every-worker|"
                        "syncthreads\n", argv[0]);
        return 2;
    }
    uint32_t *d_out, got[WORKERS], words[2][WORKERS];
    CHECK(cudaMalloc(&d_out, sizeof got));
    handoff_kernel<<<1, THREADS>>>((mode)m, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
    for (uint32_t j = 0; j < WORKERS; j++)
        words[0][j] = j * 2654435761u + 1;
    plan p = {3, 1, STEPS == 1};
    for (uint32_t i = 0; i < STEPS; i++) {
        const uint32_t *src = words[i % 2];
        const plan next = plan_from(src, i + 1);
        for (uint32_t j = 0; j < WORKERS; j++)
            words[(i + 1) % 2][j] =
                word_after(src[j], src[(j + WORKERS - 1) % WORKERS], p);
        p = next;
    }
    const bool same = !memcmp(got, words[STEPS % 2], sizeof got);
    printf("%s: %u steps, %u workers, words %s the host's\n", names[m], STEPS, WORKERS,
           same ? "match" : "DIFFER from");
    return same ? 0 : 1;
}
