#include "ctt_gen.h"

#include <math.h>
#include <stdlib.h>

#include "loop_run.h"
#include "random_words.h"

static double unit_open(uint64_t x)
{
    return ((double)(x >> 11) + 0.5) * 0x1p-53; /* in (0, 1), so log() stays finite */
}

uint32_t ctt_draw_length(uint64_t seed, uint64_t stream, double mean, double sigma, uint32_t max)
{
    double len = mean;
    if (sigma > 0) {
        /* Box-Muller: one standard normal from two uniforms of this operand's own stream. */
        const uint64_t h = splitmix64(seed ^ splitmix64(stream ^ UINT64_C(0x6c656e677468)));
        const double u1 = unit_open(h), u2 = unit_open(splitmix64(h));
        len += sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    }
    len = floor(len + 0.5);
    return len < 1 ? 1 : len > max ? max : (uint32_t)len;
}

/* 0 for MPGPU_OK, else -1: every failure of a push or the seal is one of memory or size. */
static int pushed(mpgpu_status st)
{
    return st == MPGPU_OK ? 0 : -1;
}

int ctt_batch_generate(mpgpu_ctt_batch *b, const struct ctt_gen *g, const struct loop_watch *watch)
{
    mpgpu_ctt_batch_init(b);
    uint32_t *tmp = malloc((size_t)g->max_words * sizeof *tmp);
    if (!tmp)
        return -1;
    struct loop_run run;
    loop_run_start(&run, watch);
    int rc = 0;
    /* Operands a, b of an integer computation; a, b, c, d of a rational one (a/b and c/d), of
     * which a and c, the numerators, may be signed. */
    const bool rational = MPGPU_CTT_OP_IS_RATIONAL(g->op);
    const int operands = rational ? 4 : 2;
    for (size_t i = 0; i < g->count && rc == 0; i++) {
        if (loop_run_stopped(&run)) {
            rc = LOOP_STOPPED;
            break;
        }
        uint32_t off[4], len[4];
        bool neg[4];
        for (int k = 0; k < operands && rc == 0; k++) {
            const uint64_t stream = (uint64_t)operands * i + (uint64_t)k;
            len[k] = ctt_draw_length(g->seed, stream, g->mean_words, g->sigma_words, g->max_words);
            random_words(g->seed, stream, tmp, len[k]);
            if (tmp[len[k] - 1] == 0)
                tmp[len[k] - 1] = 1;
            neg[k] = g->signed_operands && (!rational || k % 2 == 0) &&
                     (splitmix64(g->seed + stream) & 1);
            rc = pushed(mpgpu_ctt_batch_push_operand(b, tmp, len[k], &off[k]));
        }
        if (rc == 0 && rational)
            rc = pushed(mpgpu_ctt_batch_push_qcomp(b, &(mpgpu_ctt_qcomp){
                .op = (uint8_t)g->op, .a_off = off[0], .a_len = len[0], .a_neg = neg[0],
                .b_off = off[1], .b_len = len[1], .c_off = off[2], .c_len = len[2],
                .c_neg = neg[2], .d_off = off[3], .d_len = len[3]}));
        else if (rc == 0)
            rc = pushed(mpgpu_ctt_batch_push_comp(b, g->op, off[0], len[0], neg[0], off[1], len[1],
                                                  neg[1]));
        loop_run_item_done(&run, i);
    }
    free(tmp);
    if (rc == 0)
        rc = pushed(mpgpu_ctt_batch_seal(b));
    if (rc != 0)
        mpgpu_ctt_batch_free(b);
    return rc;
}
