/* Computation-to-thread on the host (003 section 4.3.1): each routine is what one GPU thread of
 * `mpgpu ctt-vs-ctw --method ctt` does for one computation, word by word from the batch buffer,
 * compiled for the CPU: the reference twin of kernels/ctt_thread.cu and the thesis' "GPU code
 * ported to the CPU" (003 5.4, `--method cpu-port`). Words are 32-bit, least significant first;
 * a missing word of the shorter operand reads as zero. */
#ifndef MPGPU_CTT_REF_H
#define MPGPU_CTT_REF_H

#include <stdint.h>

#include "ctt_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r = a + b over max(na, nb) + 1 words (ctt_add_ref.c). */
void ctt_add_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);
/* -1, 0, 1 as a <, =, > b (ctt_sub_ref.c). */
int ctt_cmp_magnitude(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);
/* r = a - b over max(na, nb) words, for a >= b (ctt_sub_ref.c). */
void ctt_sub_magnitude(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);
/* r = a * b over na + nb words, 003 Algorithm B.1 (ctt_mul_ref.c). */
void ctt_mul_schoolbook(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

/* Words of r[0..n) below the highest nonzero one, plus one (0 when all are zero). */
uint32_t ctt_normalized_length(const uint32_t *r, uint32_t n);
/* One computation in sign and magnitude (ctt_signed_ref.c): its result goes to mem + c->r_off
 * (ctt_result_capacity words), c->r_len and c->r_neg are set. */
void ctt_compute(uint32_t *mem, struct mpgpu_ctt_comp *c);
/* One rational computation (ctt_rational_ref.c): its steps (ctt_rational.h) by ctt_compute,
 * the result space at q->x_off (ctt_q_capacity words); sets y_off, the lengths and x's sign. */
void ctt_qcompute(uint32_t *mem, struct mpgpu_ctt_qcomp *q);
/* The CPU port (ctt_serial_ref.c): every computation of the batch in order on one thread, the result space handed
 * out in order. Returns 0, or LOOP_STOPPED when watch (loop_watch.h; NULL: none) stopped it
 * part-way. */
struct loop_watch;
int ctt_run_serial(struct mpgpu_ctt_batch *b, const struct loop_watch *watch);

#ifdef __cplusplus
}
#endif

#endif
