/* The delay's shared prefix, the settlement of a delay pass's overflows and the records
 * (collatz_pass.h). */
#include "collatz_pass.h"

#include <stdlib.h>

#include "collatz_plain.h"
#include "collatz_tables.h"

static unsigned floor_log2(uint64_t x)
{
    return 63u - (unsigned)__builtin_clzll(x);
}

unsigned collatz_delay_prefix_ops(unsigned d, uint64_t first, uint64_t count)
{
    unsigned y = COLLATZ_PREFIX_MAX_BITS;
    unsigned lf = floor_log2(first), lc = floor_log2(count);
    if (lf < 1)
        return 0;
    if (lf - 1 < y)
        y = lf - 1;
    unsigned by_count = lc >= 8 ? lc - 8 : 0;
    return (by_count < y ? by_count : y) / d;
}

int collatz_delay_resolve(const struct mpgpu_collatz_list *overflows, int64_t floor, int threads,
                          struct mpgpu_collatz_delay_totals *totals, struct mpgpu_collatz_pairs *candidates,
                          uint64_t *runaway)
{
    *runaway = 0;
    if (overflows->n == 0)
        return 0;
    uint32_t *delay = malloc(overflows->n * sizeof *delay);
    if (!delay)
        return -1;
    size_t bad = collatz_plain_delays(overflows->v, overflows->n, delay, threads);
    if (bad < overflows->n) {
        *runaway = overflows->v[bad];
        free(delay);
        return -1;
    }
    int err = 0;
    for (size_t i = 0; i < overflows->n; i++) {
        collatz_delay_note(totals, overflows->v[i], delay[i]);
        if (candidates && (int64_t)delay[i] > floor)
            err |= collatz_pairs_push(candidates, overflows->v[i], delay[i]);
    }
    free(delay);
    return err ? -1 : 0;
}

int collatz_records_extract(struct mpgpu_collatz_pairs *candidates, int64_t *floor,
                            struct mpgpu_collatz_pairs *records)
{
    collatz_pairs_sort(candidates);
    int err = 0;
    for (size_t i = 0; i < candidates->n; i++)
        if ((int64_t)candidates->v[i].delay > *floor) {
            *floor = candidates->v[i].delay;
            err |= collatz_pairs_push(records, candidates->v[i].n, candidates->v[i].delay);
        }
    return err ? -1 : 0;
}
