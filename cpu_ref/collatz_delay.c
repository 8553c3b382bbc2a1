#include "collatz_delay.h"

#include <omp.h>


typedef unsigned __int128 u128;

static int threads_or_all(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

/* Algorithm 6, lines 4-9: while the value is at least t, add J[n_L] and apply the table
 * operation; then add A[value]. Returns 1 when a value reaches 2^96 (or the delay passes
 * COLLATZ_MAX_DELAY). */
static inline int delay_walk(u128 v, uint32_t delay, const uint32_t *bc, const uint8_t *ops,
                             unsigned d, const uint16_t *a, unsigned a_bits, uint32_t *out)
{
    const uint32_t mask = (1u << d) - 1;
    while (v >> a_bits) {
        uint32_t l = (uint32_t)v & mask;
        delay += ops[l];
        v = (v >> d) * bc[2 * l] + bc[2 * l + 1];
        if ((v >> 96) != 0 || delay > COLLATZ_MAX_DELAY)
            return 1;
    }
    *out = delay + a[(uint64_t)v];
    return 0;
}

int collatz_delay_one(uint64_t n, const struct mpgpu_collatz_bc_table *bc, const uint16_t *a,
                      unsigned a_bits, unsigned ops, uint32_t *delay)
{
    const unsigned y = ops * bc->bits;
    uint64_t p3, c;
    uint32_t count;
    collatz_table_prefix(bc, n & (((uint64_t)1 << y) - 1), ops, &p3, &c, &count);
    u128 v = (u128)p3 * (n >> y) + c;
    return delay_walk(v, count, bc->bc, bc->ops, bc->bits, a, a_bits, delay);
}

int collatz_delay_cpu(const struct mpgpu_collatz_bc_table *bc, const uint16_t *a, unsigned a_bits,
                      uint64_t first, uint64_t last, int64_t floor, int threads,
                      struct mpgpu_collatz_delay_totals *totals, struct mpgpu_collatz_pairs *candidates,
                      struct mpgpu_collatz_list *overflows)
{
    const unsigned ops = collatz_delay_prefix_ops(bc->bits, first, last - first + 1);
    const unsigned y = ops * bc->bits;
    const uint64_t q_first = first >> y, q_last = last >> y;
    const uint64_t runs = (q_last - q_first) / COLLATZ_RUN_LEN + 1;
    const int64_t items = (int64_t)(runs << y);
    const unsigned d = bc->bits;
    int err = 0;
#pragma omp parallel num_threads(threads_or_all(threads))
    {
        struct mpgpu_collatz_delay_totals mine = {0, 0, 0, 0, 0};
        struct mpgpu_collatz_list ov = {0};
        struct mpgpu_collatz_pairs cand = {0};
        int my_err = 0;
        /* Work item = one residue r of the low Y bits and a run of up to COLLATZ_RUN_LEN
         * consecutive q = n >> Y, as one GPU thread takes them. */
#pragma omp for schedule(dynamic, 16)
        for (int64_t it = 0; it < items; it++) {
            const uint64_t r = (uint64_t)it / runs, run = (uint64_t)it % runs;
            uint64_t q = q_first + run * COLLATZ_RUN_LEN;
            const uint64_t n_run = q_last - q + 1 < COLLATZ_RUN_LEN ? q_last - q + 1 : COLLATZ_RUN_LEN;
            uint64_t p3, c;
            uint32_t base;
            collatz_table_prefix(bc, r, ops, &p3, &c, &base);
            u128 start = (u128)p3 * q + c;
            for (uint64_t i = 0; i < n_run; i++, q++, start += p3) {
                const uint64_t n = q << y | r;
                if (n < first || n > last)
                    continue;
                uint32_t delay;
                if (delay_walk(start, base, bc->bc, bc->ops, d, a, a_bits, &delay)) {
                    mine.overflows++;
                    my_err |= collatz_list_push(&ov, n);
                    continue;
                }
                collatz_delay_note(&mine, n, delay);
                if (candidates && (int64_t)delay > floor)
                    my_err |= collatz_pairs_push(&cand, n, delay);
            }
        }
#pragma omp critical(collatz_delay_merge)
        {
            collatz_delay_add(totals, &mine);
            err |= my_err | collatz_list_append(overflows, ov.v, ov.n);
            for (size_t i = 0; i < cand.n; i++)
                err |= collatz_pairs_push(candidates, cand.v[i].n, cand.v[i].delay);
        }
        collatz_list_free(&ov);
        collatz_pairs_free(&cand);
    }
    return err ? -1 : 0;
}
