/* libmpgpu's "auto" (mpgpu.h): the product method a tune table says is fastest for a size and a
 * count of products, from the caller's table or the one built in (results/tune_table.csv, as
 * GMP's tuneup writes its thresholds from measurements). */
#include <stdint.h>

#include "mpgpu_internal.h"
#include "mul.h"
#include "mul_tune_builtin.h"

static const mpgpu_mul_tune_entry builtin_rows[] = {MUL_TUNE_BUILTIN_ROWS};

void mpgpu_mul_tune_builtin(const mpgpu_mul_tune_entry **entries, size_t *n_entries,
                            const char **gpu)
{
    if (entries)
        *entries = builtin_rows;
    if (n_entries)
        *n_entries = sizeof builtin_rows / sizeof builtin_rows[0];
    if (gpu)
        *gpu = MUL_TUNE_BUILTIN_GPU;
}

/* Whether measured count a is nearer `want` in log scale than b, that is
 * max(a, want) / min(a, want) < max(b, want) / min(b, want), compared exactly as cross
 * products; on a tie the larger count is nearer. */
static int nearer_count(uint64_t a, uint64_t b, uint64_t want)
{
    const uint64_t a_hi = a > want ? a : want, a_lo = a > want ? want : a;
    const uint64_t b_hi = b > want ? b : want, b_lo = b > want ? want : b;
    const unsigned __int128 ra = (unsigned __int128)a_hi * b_lo;
    const unsigned __int128 rb = (unsigned __int128)b_hi * a_lo;
    return ra < rb || (ra == rb && a > b);
}

mpgpu_status mpgpu_mul_auto_pick(const mpgpu_mul_tune_entry *table, size_t n_entries,
                                 unsigned bits, uint64_t count, mpgpu_mul_auto_choice *choice)
{
    if (!choice || count == 0 || (!table && n_entries > 0))
        return MPGPU_ERR_BAD_ARGUMENT;
    *choice = (mpgpu_mul_auto_choice){NULL, 0, 0};
    if (!table)
        mpgpu_mul_tune_builtin(&table, &n_entries, NULL);
    for (size_t i = 0; i < n_entries; i++)
        if (!table[i].method || table[i].count == 0)
            return MPGPU_ERR_BAD_ARGUMENT;
    if (bits % 32 != 0 || bits < 32 * MUL_MIN_WORDS || bits > 32 * MUL_MAX_WORDS)
        return MPGPU_ERR_UNSUPPORTED_SIZE;
    /* The three steps of mpgpu.h: the size, the count at that size, the method. */
    unsigned size = 0;
    for (size_t i = 0; i < n_entries; i++) {
        const int larger_fits = table[i].bits >= bits && (size < bits || table[i].bits < size);
        const int largest_so_far = size < bits && table[i].bits > size;
        if (larger_fits || largest_so_far)
            size = table[i].bits;
    }
    uint64_t chosen_count = 0;
    for (size_t i = 0; i < n_entries; i++)
        if (table[i].bits == size &&
            (!chosen_count || nearer_count(table[i].count, chosen_count, count)))
            chosen_count = table[i].count;
    const struct mul_method *best = NULL;
    double best_ms = 0;
    for (size_t i = 0; i < n_entries; i++) {
        if (table[i].bits != size || table[i].count != chosen_count)
            continue;
        const struct mul_method *m = mul_method_find(table[i].method);
        if (m && mul_method_supports(m, bits / 32) && (!best || table[i].median_ms < best_ms)) {
            best = m;
            best_ms = table[i].median_ms;
        }
    }
    *choice = (mpgpu_mul_auto_choice){best ? best->name : NULL, size, chosen_count};
    return best ? MPGPU_OK : MPGPU_ERR_UNSUPPORTED_SIZE;
}
