/* 003 Algorithms 3.1 (computations handed to the lanes of a warp with one atomic) and 3.2
 * (result space reserved with a warp scan and one atomic) simulated lane by lane on the host:
 * the CPU model of the scheduling in kernels/ctt_thread.cu, whose tests show that every
 * computation is taken exactly once and that the result regions are disjoint and packed. */
#ifndef MPGPU_CTT_SCHEDULE_MODEL_H
#define MPGPU_CTT_SCHEDULE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define CTT_WARP 32

/* Schedules `count` computations, computation i needing sizes[i] words of result space, over
 * n_warps warps whose atomics interleave in a seeded random order (as warps of a GPU race),
 * with the result counter starting at `base`. Adds 1 to taken[i] each time a lane takes
 * computation i and sets r_off[i] to its reserved offset; *atomics gets the number of atomic
 * operations. Returns the result counter at the end. */
uint64_t ctt_schedule_model(const uint32_t *sizes, size_t count, unsigned n_warps, uint64_t seed,
                            uint64_t base, uint32_t *taken, uint64_t *r_off, uint64_t *atomics);

/* Algorithm 3.2's scan alone, one warp: n[i] becomes the inclusive prefix sum of n[0..i], by
 * log2(32) rounds of shfl_up (003 writes GetValue(n_i, i + l), a lane above; the lane that
 * holds the part of the sum that lane i lacks is i - l). */
void ctt_warp_inclusive_scan(uint64_t n[CTT_WARP]);

#endif
