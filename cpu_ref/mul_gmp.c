#include "mul_gmp.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "loop_run.h"

/* Operands up to this size convert on the stack. */
#define MUL_WORDS_STACK 256

/* GMP limbs are 64 bits on the hosts mpgpu targets; two 32-bit words make one limb. */
_Static_assert(GMP_NUMB_BITS == 64, "mpgpu expects 64-bit GMP limbs");

static void words_to_limbs(mp_limb_t *out, size_t limbs, const uint32_t *w, unsigned words)
{
    for (size_t i = 0; i < limbs; i++) {
        uint64_t lo = 2 * i < words ? w[2 * i] : 0;
        uint64_t hi = 2 * i + 1 < words ? w[2 * i + 1] : 0;
        out[i] = lo | hi << 32;
    }
}

static void limbs_to_words(uint32_t *out, unsigned words, const mp_limb_t *l)
{
    for (unsigned i = 0; i < words; i++)
        out[i] = (uint32_t)(l[i / 2] >> (32 * (i % 2)));
}

int gmp_batch_init(struct gmp_batch *g, unsigned words, size_t count, const uint32_t *a,
                   const uint32_t *b, const struct loop_watch *watch)
{
    g->words = words;
    g->limbs = (words + 1) / 2;
    g->count = count;
    g->a = malloc(count * g->limbs * sizeof(mp_limb_t));
    g->b = malloc(count * g->limbs * sizeof(mp_limb_t));
    g->c = malloc(count * 2 * g->limbs * sizeof(mp_limb_t));
    if (!g->a || !g->b || !g->c) {
        gmp_batch_free(g);
        return -1;
    }
    struct loop_run run;
    loop_run_start(&run, watch);
    for (size_t p = 0; p < count; p++) {
        if (loop_run_stopped(&run))
            return LOOP_STOPPED;
        words_to_limbs(g->a + p * g->limbs, g->limbs, a + p * words, words);
        words_to_limbs(g->b + p * g->limbs, g->limbs, b + p * words, words);
        loop_run_item_done(&run, p);
    }
    return 0;
}

void gmp_batch_free(struct gmp_batch *g)
{
    free(g->a);
    free(g->b);
    free(g->c);
    g->a = g->b = g->c = NULL;
}

/* Products between two looks at Ctrl-C in the timed pass (loop_run_start_blocks). */
#define GMP_BLOCK 64

int gmp_batch_multiply(struct gmp_batch *g, int threads, const struct loop_watch *watch)
{
    const size_t n = g->limbs;
    const long count = (long)g->count, blocks = (count + GMP_BLOCK - 1) / GMP_BLOCK;
    struct loop_run run;
    loop_run_start_blocks(&run, watch, GMP_BLOCK);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (long k = 0; k < blocks; k++) {
        if (loop_run_stopped(&run))
            continue;
        const long end = (k + 1) * GMP_BLOCK < count ? (k + 1) * GMP_BLOCK : count;
        for (long p = k * GMP_BLOCK; p < end; p++)
            mpn_mul_n(g->c + (size_t)p * 2 * n, g->a + (size_t)p * n, g->b + (size_t)p * n, n);
        loop_run_item_done(&run, (uint64_t)end - 1);
    }
    return loop_run_stopped(&run) ? LOOP_STOPPED : 0;
}

void gmp_batch_product_words(const struct gmp_batch *g, size_t p, uint32_t *out)
{
    limbs_to_words(out, 2 * g->words, g->c + p * 2 * g->limbs);
}

void gmp_mul_words(uint32_t *out, const uint32_t *a, const uint32_t *b, unsigned words)
{
    size_t limbs = (words + 1) / 2;
    mp_limb_t buf[4 * ((MUL_WORDS_STACK + 1) / 2)];
    mp_limb_t *la = buf, *lb = buf + limbs, *lc = buf + 2 * limbs;
    mp_limb_t *heap = NULL;
    if (words > MUL_WORDS_STACK) {
        heap = malloc(4 * limbs * sizeof(mp_limb_t));
        la = heap;
        lb = heap + limbs;
        lc = heap + 2 * limbs;
    }
    words_to_limbs(la, limbs, a, words);
    words_to_limbs(lb, limbs, b, words);
    mpn_mul_n(lc, la, lb, limbs);
    limbs_to_words(out, 2 * words, lc);
    free(heap);
}
