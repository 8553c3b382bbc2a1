#include "check_strided.h"

#include <stdlib.h>
#include <omp.h>

int64_t check_strided(size_t n, size_t stride, int threads, check_one_fn check, const void *ctx,
                      size_t scratch_bytes, uint64_t *checked, size_t *first_bad)
{
    if (stride == 0)
        stride = 1;
    const long steps = n == 0 ? 0 : (long)((n + stride - 1) / stride);
    /* The last element too, unless the stride already reaches it. */
    const bool add_last = n > 0 && (n - 1) % stride != 0;
    uint64_t bad = 0, done = 0, no_scratch = 0;
    size_t first = n;
#pragma omp parallel num_threads(threads > 1 ? threads : 1) reduction(+ : bad, done, no_scratch)
    {
        void *scratch = malloc(scratch_bytes ? scratch_bytes : 1);
        size_t my_first = n;
        no_scratch += scratch == NULL;
#pragma omp for schedule(dynamic, 64)
        for (long s = 0; s < steps + add_last; s++) {
            if (!scratch)
                continue;
            const size_t i = s == steps ? n - 1 : (size_t)s * stride;
            done++;
            if (!check(ctx, i, scratch)) {
                bad++;
                if (i < my_first)
                    my_first = i;
            }
        }
#pragma omp critical
        if (my_first < first)
            first = my_first;
        free(scratch);
    }
    *checked = done;
    *first_bad = first;
    return no_scratch ? -1 : (int64_t)bad;
}
