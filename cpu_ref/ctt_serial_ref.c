/* The CPU port of a whole batch (003 5.4, `--method cpu-port`): every computation in order on
 * one thread, the result space handed out in order, integer computations by ctt_compute
 * (ctt_signed_ref.c), rational ones by ctt_qcompute (ctt_rational_ref.c). */
#include "ctt_rational.h"
#include "ctt_ref.h"
#include "loop_run.h"

int ctt_run_serial(struct mpgpu_ctt_batch *b, const struct loop_watch *watch)
{
    uint64_t next = b->operand_words;
    struct loop_run run;
    loop_run_start(&run, watch);
    for (size_t i = 0; i < b->count; i++) {
        if (loop_run_stopped(&run))
            return LOOP_STOPPED;
        if (b->rational) {
            struct mpgpu_ctt_qcomp *q = &b->qcomps[i];
            q->x_off = (uint32_t)next;
            next += ctt_q_capacity(q);
            ctt_qcompute(b->words, q);
        } else {
            struct mpgpu_ctt_comp *c = &b->comps[i];
            c->r_off = (uint32_t)next;
            next += ctt_result_capacity(c);
            ctt_compute(b->words, c);
        }
        loop_run_item_done(&run, i);
    }
    return 0;
}
