#include "sumrotate_model.h"

#include <string.h>

#define MODEL_LANES 32u

/* The registers of the lanes of one segment. */
struct warp_model {
    unsigned lanes;
    uint32_t a[MODEL_LANES], b[MODEL_LANES];
    uint32_t t[MODEL_LANES], u[MODEL_LANES], v[MODEL_LANES], c_prime[MODEL_LANES];
    struct sumrotate_model_stats *stats;
};

/* shfl(x, (i + 1) % w) on every lane i at once. */
static void rotate_right(uint32_t *x, unsigned lanes)
{
    uint32_t first = x[0];
    memmove(x, x + 1, (lanes - 1) * sizeof *x);
    x[lanes - 1] = first;
}

/* shfl(x, (i + w - 1) % w) on every lane i at once. */
static void rotate_left(uint32_t *x, unsigned lanes)
{
    uint32_t last = x[lanes - 1];
    memmove(x + 1, x, (lanes - 1) * sizeof *x);
    x[0] = last;
}

static int any_nonzero(const uint32_t *x, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++)
        if (x[i])
            return 1;
    return 0;
}

/* 000 Algorithm 3, lines 5-15, with the multiplicand words in m->a and the multiplier words in
 * m->b. The carry chain of line 7 (mad.lo.cc, madc.hi.cc, addc) and of line 14 (add.cc, addc)
 * is spelled out word by word, as the PTX instructions compute it. */
static void model_rows(struct warp_model *m)
{
    const unsigned w = m->lanes;
    for (unsigned j = 0; j < w; j++) {
        uint32_t b_prime[MODEL_LANES];
        for (unsigned i = 0; i < w; i++) /* line 6: broadcast b from lane j */
            b_prime[i] = m->b[j];
        for (unsigned i = 0; i < w; i++) { /* line 7: {t, u, v} = a * b' + {u, v} */
            uint64_t product = (uint64_t)m->a[i] * b_prime[i];
            uint64_t low = (uint64_t)m->v[i] + (uint32_t)product;
            uint64_t high = (uint64_t)m->u[i] + (product >> 32) + (low >> 32);
            m->v[i] = (uint32_t)low;
            m->u[i] = (uint32_t)high;
            m->t[i] = (uint32_t)(high >> 32);
        }
        rotate_right(m->v, w);       /* line 8 */
        rotate_right(m->c_prime, w); /* line 9 */
        m->c_prime[w - 1] = m->v[w - 1]; /* lines 10-12 */
        m->v[w - 1] = 0;
        for (unsigned i = 0; i < w; i++) { /* line 14: {u, v} = {t, u} + v */
            uint64_t sum = (uint64_t)m->u[i] + m->v[i];
            m->v[i] = (uint32_t)sum;
            m->u[i] = m->t[i] + (uint32_t)(sum >> 32);
            if (m->u[i] > m->stats->max_row_u)
                m->stats->max_row_u = m->u[i];
        }
    }
}

/* 000 Algorithm 3, lines 16-19. */
static void model_carry_loop(struct warp_model *m)
{
    const unsigned w = m->lanes;
    m->stats->carry_iterations = 0;
    while (any_nonzero(m->u, w)) {
        rotate_left(m->u, w); /* line 17 */
        for (unsigned i = 0; i < w; i++) { /* line 18: {u, v} = u + v */
            uint64_t sum = (uint64_t)m->u[i] + m->v[i];
            m->v[i] = (uint32_t)sum;
            m->u[i] = (uint32_t)(sum >> 32);
        }
        m->stats->carry_iterations++;
    }
}

/* Algorithm 3 as printed, on w <= 32 lanes. */
static void model_segment(struct warp_model *m, uint32_t *c, const uint32_t *a, const uint32_t *b)
{
    const unsigned w = m->lanes;
    for (unsigned i = 0; i < w; i++) { /* lines 2-4 */
        m->u[i] = m->v[i] = m->c_prime[i] = 0;
        m->a[i] = a[i];
        m->b[i] = b[i];
    }
    model_rows(m);
    model_carry_loop(m);
    for (unsigned i = 0; i < w; i++) { /* lines 20-21 */
        c[i] = m->c_prime[i];
        c[i + w] = m->v[i];
    }
}

/* The Comba method over 1024-bit blocks, as sumrotate::mul_blocks runs it. */
static void model_blocks(struct warp_model *m, uint32_t *c, const uint32_t *a, const uint32_t *b,
                         unsigned w)
{
    const unsigned n = (w + MODEL_LANES - 1) / MODEL_LANES;
    uint32_t pending_u[MODEL_LANES] = {0}, pending_v[MODEL_LANES] = {0};
    for (unsigned s = 0; s + 1 < 2 * n; s++) {
        const unsigned k_lo = s < n ? 0 : s - n + 1, k_hi = s < n ? s : n - 1;
        uint32_t hi_u[MODEL_LANES] = {0}, hi_v[MODEL_LANES] = {0};
        for (unsigned k = k_lo; k <= k_hi; k++) {
            for (unsigned i = 0; i < MODEL_LANES; i++) {
                unsigned ia = k * MODEL_LANES + i, ib = (s - k) * MODEL_LANES + i;
                m->a[i] = ia < w ? a[ia] : 0; /* zero padding past w */
                m->b[i] = ib < w ? b[ib] : 0;
                if (k == k_lo) { /* the column starts from the previous column's pending sum */
                    m->u[i] = pending_u[i];
                    m->v[i] = pending_v[i];
                } else { /* later passes start from the column's exact low words */
                    m->u[i] = 0;
                    m->v[i] = m->c_prime[i];
                }
            }
            model_rows(m);
            for (unsigned i = 0; i < MODEL_LANES; i++) {
                uint64_t sum = ((uint64_t)hi_u[i] << 32 | hi_v[i]) +
                               ((uint64_t)m->u[i] << 32 | m->v[i]);
                hi_u[i] = (uint32_t)(sum >> 32);
                hi_v[i] = (uint32_t)sum;
            }
        }
        for (unsigned i = 0; i < MODEL_LANES; i++) {
            if (s * MODEL_LANES + i < 2 * w)
                c[s * MODEL_LANES + i] = m->c_prime[i];
            pending_u[i] = hi_u[i];
            pending_v[i] = hi_v[i];
            if (hi_u[i] > m->stats->max_pending_u)
                m->stats->max_pending_u = hi_u[i];
        }
    }
    memcpy(m->u, pending_u, sizeof pending_u);
    memcpy(m->v, pending_v, sizeof pending_v);
    model_carry_loop(m);
    for (unsigned i = 0; i < MODEL_LANES; i++)
        if ((2 * n - 1) * MODEL_LANES + i < 2 * w)
            c[(2 * n - 1) * MODEL_LANES + i] = m->v[i];
}

void sumrotate_model_mul(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                         struct sumrotate_model_stats *stats)
{
    struct warp_model m;
    memset(&m, 0, sizeof m);
    memset(stats, 0, sizeof *stats);
    m.stats = stats;
    m.lanes = w <= MODEL_LANES ? w : MODEL_LANES;
    stats->lanes = m.lanes;
    if (w <= MODEL_LANES)
        model_segment(&m, c, a, b);
    else
        model_blocks(&m, c, a, b, w);
}
