#include "ctt_tile_mul_model.h"

#include <stdlib.h>

#define C CTT_TILE_COLS

/* (hi, acc[0..C)) = acc[0..C) + x * y[0..C): one row of a tile, the kernel's row chain. */
static uint32_t row(uint32_t acc[C], uint32_t x, const uint32_t *y)
{
    uint32_t carry = 0;
    for (unsigned j = 0; j < C; j++) {
        const uint64_t s = (uint64_t)x * y[j] + acc[j] + carry;
        acc[j] = (uint32_t)s;
        carry = (uint32_t)(s >> 32);
    }
    return carry;
}

void ctt_tile_mul_model(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    if (na > nb) {
        const uint32_t *t = a;
        uint32_t nt = na;
        a = b, na = nb, b = t, nb = nt;
    }
    const uint32_t f = ctt_tile_fold(nb), tiles = f / C, blocks = ctt_tile_row_blocks(na);
    const uint32_t n = na + nb;
    /* The kernel's shared memory: a padded to whole row blocks, then ys[C + m] = b[m] for
     * m in -C .. F + C - 1 (zero outside b), then two overflow words per tile. */
    const uint32_t words = ctt_tile_shared_words(nb);
    uint32_t *sh = malloc(words * sizeof *sh);
    uint32_t *as = sh, *ys = as + blocks * C, *ov = ys + f + 2 * C;
    for (uint32_t k = 0; k < blocks * C; k++)
        as[k] = k < na ? a[k] : 0;
    for (uint32_t k = 0; k < f + 2 * C; k++)
        ys[k] = k >= C && k - C < nb ? b[k - C] : 0;
    /* The overflow words start as garbage, as shared memory does: one read before it was
     * written spoils the product. */
    for (uint32_t k = (uint32_t)(ov - sh); k < words; k++)
        sh[k] = 0xa5a5a5a5u;
    for (uint32_t t = 0; t < tiles; t++) {
        const uint32_t low_steps = ctt_tile_low_steps(t, blocks), steps = ctt_tile_steps(t, blocks);
        uint32_t acc[C + 2] = {0};
        for (uint32_t s = 0; s < steps; s++) {
            const bool high = s >= low_steps;
            const uint32_t rb = ctt_tile_row_block(s, low_steps);
            const uint32_t *w = ys + ctt_tile_window(t, rb, high, f), *x = as + C * rb;
            for (unsigned u = 0; u < C; u++) {
                const uint32_t hi = row(acc, x[u], w + C - u);
                const uint64_t top = ((uint64_t)acc[C + 1] << 32 | acc[C]) + hi;
                acc[C] = (uint32_t)top;
                acc[C + 1] = (uint32_t)(top >> 32);
            }
            if (s + 1 == low_steps || s + 1 == steps)
                ctt_tile_flush(r, ov, acc, high ? tiles + t : t, n);
        }
    }
    /* The block-wide addition: word i gets the overflow word i mod C of the tile below. */
    uint32_t carry = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t s = (uint64_t)r[i] + ctt_tile_overflow(ov, i) + carry;
        r[i] = (uint32_t)s;
        carry = (uint32_t)(s >> 32);
    }
    free(sh);
}
