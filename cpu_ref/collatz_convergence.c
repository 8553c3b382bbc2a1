#include "collatz_convergence.h"

#include <omp.h>

typedef unsigned __int128 u128;

static int threads_or_all(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

/* Table operations n <- B[n_L] * n_H + C[n_L] (000 Algorithm 5, lines 5-8) until n < m, at
 * least one. n < 2^96 on entry, so (n >> d) * B < 2^127 and 128-bit arithmetic is exact; the
 * result is checked against the 96 bits the GPU keeps in registers (000 section 4.4.1). Returns 1
 * on overflow. */
static inline int table_walk(u128 n, uint64_t m, const uint32_t *bc, unsigned d, uint64_t *steps,
                             u128 *last)
{
    const uint32_t mask = (1u << d) - 1;
    uint64_t s = 0;
    int over = 0;
    do {
        uint32_t l = (uint32_t)n & mask;
        n = (n >> d) * bc[2 * l] + bc[2 * l + 1];
        s++;
        if ((n >> 96) != 0 || s == COLLATZ_MAX_TABLE_STEPS) {
            over = 1;
            break;
        }
    } while (n >= m);
    *steps += s;
    *last = n;
    return over;
}

/* The start of a jump: n = p3 * m_H + c after the operations over the k bits of s; the CPU
 * reaches (p3, c) through table operations (the GPU keeps them per S entry). */
struct jump {
    uint64_t p3, c;
};

static void jump_for(const struct mpgpu_collatz_bc_table *bc, unsigned k, uint64_t s, struct jump *j)
{
    collatz_jump_state(bc, s, k, &j->p3, &j->c);
}

int collatz_conv_one(uint64_t m, const struct mpgpu_collatz_bc_table *bc, unsigned k,
                     enum collatz_first_step first, uint64_t *steps, uint64_t *lo, uint64_t *hi)
{
    u128 n = m;
    if (first == COLLATZ_FIRST_JUMP) {
        struct jump j;
        jump_for(bc, k, m & (((uint64_t)1 << k) - 1), &j);
        n = (u128)j.p3 * (m >> k) + j.c;
    }
    u128 last;
    *steps = 0;
    int over = table_walk(n, m, bc->bc, bc->bits, steps, &last);
    *lo = (uint64_t)last;
    *hi = (uint64_t)(last >> 64);
    return over;
}

struct conv_pass {
    const struct mpgpu_collatz_s_table *s;
    const struct mpgpu_collatz_bc_table *bc;
    enum collatz_first_step first_step;
    uint64_t first, last;
};

/* Work item = one S entry and a run of up to COLLATZ_RUN_LEN consecutive m_H: the starting
 * values of one GPU thread in the Fig. 4.1 layout, so both twins cut the range the same way. */
static int conv_pass_run(const struct conv_pass *p, int threads, struct mpgpu_collatz_conv_totals *totals,
                         struct mpgpu_collatz_list *overflows)
{
    const unsigned k = p->s->bits, d = p->bc->bits;
    const uint64_t h_first = p->first >> k, h_last = p->last >> k;
    const uint64_t runs = (h_last - h_first) / COLLATZ_RUN_LEN + 1;
    const int64_t items = (int64_t)(p->s->count * runs);
    const uint32_t *bc = p->bc->bc;
    int err = 0;
#pragma omp parallel num_threads(threads_or_all(threads))
    {
        struct mpgpu_collatz_conv_totals mine = {0, 0, 0};
        struct mpgpu_collatz_list ov = {0};
        int my_err = 0;
#pragma omp for schedule(dynamic, 16)
        for (int64_t it = 0; it < items; it++) {
            const uint64_t si = (uint64_t)it / runs, run = (uint64_t)it % runs;
            const uint64_t res = p->s->residues[si];
            uint64_t mh = h_first + run * COLLATZ_RUN_LEN;
            const uint64_t n_run = h_last - mh + 1 < COLLATZ_RUN_LEN ? h_last - mh + 1 : COLLATZ_RUN_LEN;
            struct jump j = {0, 0};
            u128 start = 0;
            if (p->first_step == COLLATZ_FIRST_JUMP) {
                jump_for(p->bc, k, res, &j);
                start = (u128)j.p3 * mh + j.c;
            }
            for (uint64_t i = 0; i < n_run; i++, mh++, start += j.p3) {
                const uint64_t m = mh << k | res;
                if (m < p->first || m > p->last || m < 3)
                    continue;
                mine.mandatory++;
                u128 last;
                u128 n = p->first_step == COLLATZ_FIRST_JUMP ? start : (u128)m;
                if (table_walk(n, m, bc, d, &mine.steps, &last)) {
                    mine.overflows++;
                    my_err |= collatz_list_push(&ov, m);
                }
            }
        }
#pragma omp critical(collatz_conv_merge)
        {
            collatz_conv_add(totals, &mine);
            err |= my_err | collatz_list_append(overflows, ov.v, ov.n);
        }
        collatz_list_free(&ov);
    }
    return err ? -1 : 0;
}

int collatz_conv_cpu(const struct mpgpu_collatz_s_table *s, const struct mpgpu_collatz_bc_table *bc,
                     enum collatz_first_step first_step, uint64_t first, uint64_t last,
                     int threads, struct mpgpu_collatz_conv_totals *totals,
                     struct mpgpu_collatz_list *overflows)
{
    const unsigned k = s->bits;
    if (k > 0 && first < (uint64_t)1 << k) {
        struct mpgpu_collatz_s_table all;
        collatz_s_all(&all);
        uint64_t low_last = last < ((uint64_t)1 << k) - 1 ? last : ((uint64_t)1 << k) - 1;
        struct conv_pass low = {&all, bc, first_step, first, low_last};
        if (conv_pass_run(&low, threads, totals, overflows) != 0)
            return -1;
        if (last == low_last)
            return 0;
        first = (uint64_t)1 << k;
    }
    struct conv_pass high = {s, bc, first_step, first, last};
    return conv_pass_run(&high, threads, totals, overflows);
}

/* Residues of S with lo <= s <= hi. */
static uint64_t s_count_between(const struct mpgpu_collatz_s_table *s, uint64_t lo, uint64_t hi, int threads)
{
    uint64_t n = 0;
    const int64_t count = (int64_t)s->count;
#pragma omp parallel for reduction(+ : n) num_threads(threads_or_all(threads))
    for (int64_t i = 0; i < count; i++)
        n += s->residues[i] >= lo && s->residues[i] <= hi;
    return n;
}

uint64_t collatz_conv_expected(const struct mpgpu_collatz_s_table *s, uint64_t first, uint64_t last,
                               int threads)
{
    const unsigned k = s->bits;
    const uint64_t two_k = (uint64_t)1 << k, low_mask = two_k - 1;
    if (first < 3)
        first = 3;
    if (first > last)
        return 0;
    uint64_t total = 0;
    if (k > 0 && first < two_k) {
        uint64_t low_last = last < two_k - 1 ? last : two_k - 1;
        total += low_last - first + 1;
        if (last == low_last)
            return total;
        first = two_k;
    }
    const uint64_t hf = first >> k, hl = last >> k;
    if (hf == hl)
        return total + s_count_between(s, first & low_mask, last & low_mask, threads);
    /* Whole m_H (aligned ends) need no scan of S. */
    total += (first & low_mask) == 0 ? s->count : s_count_between(s, first & low_mask, low_mask, threads);
    total += (last & low_mask) == low_mask ? s->count : s_count_between(s, 0, last & low_mask, threads);
    return total + s->count * (hl - hf - 1);
}
