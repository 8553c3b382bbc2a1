/* A rational computation by one thread (003 4.4.2): the integer computations of ctt_rational.h
 * one after another, each by the computation-to-thread routines of 003 4.3.1. */
#include "ctt_rational.h"
#include "ctt_ref.h"

void ctt_qcompute(uint32_t *mem, struct mpgpu_ctt_qcomp *q)
{
    struct mpgpu_ctt_comp s[CTT_Q_MAX_STEPS];
    const unsigned n = ctt_q_steps(q, s);
    for (unsigned k = 0; k < n; k++)
        ctt_compute(mem, &s[k]);
    ctt_q_finish(q, s, n);
}
