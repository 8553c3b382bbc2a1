#include "ctt_schedule_model.h"

#include <stdbool.h>
#include <stdlib.h>

#include "random_words.h"

void ctt_warp_inclusive_scan(uint64_t n[CTT_WARP])
{
    for (unsigned l = 1; l < CTT_WARP; l *= 2) {
        /* A shuffle reads every lane's value before any lane adds: a lane below l gets its own
         * value back (shfl_up) and keeps its sum. */
        uint64_t up[CTT_WARP];
        for (unsigned i = 0; i < CTT_WARP; i++)
            up[i] = i >= l ? n[i - l] : n[i];
        for (unsigned i = l; i < CTT_WARP; i++)
            n[i] += up[i];
    }
}

struct model_warp {
    bool done, reserving; /* reserving: between its Algorithm 3.1 and 3.2 atomics */
    uint64_t first;       /* c_i of lane 0 */
};

uint64_t ctt_schedule_model(const uint32_t *sizes, size_t count, unsigned n_warps, uint64_t seed,
                            uint64_t base, uint32_t *taken, uint64_t *r_off, uint64_t *atomics)
{
    struct model_warp *w = calloc(n_warps, sizeof *w);
    uint64_t next_comp = 0, next_word = base; /* C_l and I of 003 */
    unsigned running = n_warps;
    *atomics = 0;
    for (uint64_t step = 0; running > 0; step++) {
        /* The warp whose next atomic lands now. */
        unsigned k = (unsigned)(splitmix64(seed + step) % n_warps);
        while (w[k].done)
            k = (k + 1) % n_warps;
        struct model_warp *x = &w[k];
        if (!x->reserving) {
            /* Algorithm 3.1: lane 0 takes 32 computations; the others get the base by shuffle
             * and add their lane. The loop ends on the base taken, not on a read of C_l before
             * the atomic (003 line 2), which another warp may have moved since. */
            x->first = next_comp;
            next_comp += CTT_WARP;
            ++*atomics;
            if (x->first >= count) {
                x->done = true;
                running--;
            } else {
                x->reserving = true;
            }
            continue;
        }
        /* Algorithm 3.2: lanes past the end of the batch (the tail) need no space. */
        uint64_t r[CTT_WARP], n[CTT_WARP];
        unsigned last = 0;
        for (unsigned i = 0; i < CTT_WARP; i++) {
            const uint64_t c = x->first + i;
            r[i] = c < count ? sizes[c] : 0;
            n[i] = r[i];
            if (c < count)
                last = i;
        }
        ctt_warp_inclusive_scan(n);
        /* The last active lane holds the warp's total and makes the one atomic. */
        const uint64_t m_s = next_word;
        next_word += n[last];
        ++*atomics;
        for (unsigned i = 0; i <= last; i++) {
            const uint64_t c = x->first + i;
            taken[c]++;
            r_off[c] = m_s + (n[i] - r[i]);
        }
        x->reserving = false;
    }
    free(w);
    return next_word;
}
