/* The CPU model of auto's tile bin (kernels/ctt_tile_mul.cuh): the kernel's steps one thread
 * after another, on the shapes of kernels/ctt_tile_shape.h, which explains the fold
 * (tests/test_ctt_cpu.c checks it against GMP). */
#ifndef MPGPU_CTT_TILE_MUL_MODEL_H
#define MPGPU_CTT_TILE_MUL_MODEL_H

#include <stdint.h>

#include "ctt_tile_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r[0..na + nb) = a * b (na, nb >= 1) by the kernel's steps: staging, every thread's row blocks
 * with the row chain done in 64-bit C, the flushes, and the final addition of the overflow
 * words, done here serially. */
void ctt_tile_mul_model(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

#ifdef __cplusplus
}
#endif

#endif
