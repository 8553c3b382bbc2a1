/* The reference twin of warp-tensor-toeplitz; tensor_toeplitz_ref.h says what it shares with
 * the kernel and what it checks besides. Lane l of the warp is (g, s) = (l / 4, l % 4), as in
 * the PTX fragment layouts. */
#include "tensor_toeplitz_ref.h"

#include <stdlib.h>
#include <string.h>

#include "tensor_toeplitz_plan.h"

#define LANES 32
#define MAX_TILES (TT_MAX_WORDS / 16)
#define MAX_B_REGS (2 * (TT_MAX_WORDS / 8 + 4))

static uint32_t byteswap(uint32_t x)
{
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

static unsigned byte_of(uint32_t x, unsigned e) { return (x >> (8 * e)) & 0xffu; }

/* Byte i of an operand of w words, zero outside it. */
static unsigned operand_byte(const uint32_t *x, unsigned w, long i)
{
    return i < 0 || i >= 4 * (long)w ? 0 : byte_of(x[i / 4], (unsigned)(i % 4));
}

/* Word i of an operand of w words, zero outside it. */
static uint32_t operand_word(const uint32_t *x, unsigned w, long i)
{
    return i < 0 || i >= (long)w ? 0 : x[i];
}

struct warp_state {
    uint32_t b[LANES][MAX_B_REGS];  /* every B tile, two registers each */
    int64_t acc[MAX_TILES][LANES][4]; /* the s32 accumulators, wide to catch an overflow */
};

/* One mma.m16n8k32.row.col.s32.u8.u8.s32 across the warp: D += A X from the lanes' registers.
 * Returns 0, or -2 when the registers do not form the tiles A_d and X_j. */
static int mma(int64_t (*acc)[4], uint32_t (*afrag)[4], const uint32_t *const *bfrag_lo,
               const uint32_t *const *bfrag_hi, const uint32_t *a, const uint32_t *b,
               unsigned w, int d, int j)
{
    unsigned am[16][32], xm[32][8];
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned e = 0; e < 4; e++) {
            const unsigned g = l / 4, s = l % 4;
            for (unsigned r = 0; r < 4; r++)
                am[g + 8 * (r & 1)][4 * s + 16 * (r >> 1) + e] = byte_of(afrag[l][r], e);
            xm[4 * s + e][g] = byte_of(bfrag_lo[l][0], e);
            xm[4 * s + 16 + e][g] = byte_of(bfrag_hi[l][0], e);
        }
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 32; k++)
            if (am[m][k] != operand_byte(a, w, 32L * d + m - k))
                return -2;
    for (int k = 0; k < 32; k++)
        for (int n = 0; n < 8; n++)
            if (xm[k][n] != operand_byte(b, w, 32L * j + 16 * n + k))
                return -2;
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned i = 0; i < 4; i++) {
            const unsigned row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + (i & 1);
            int64_t sum = 0;
            for (unsigned k = 0; k < 32; k++)
                sum += (int64_t)am[row][k] * xm[k][col];
            acc[l][i] += sum;
        }
    return 0;
}

/* The carry pass: columns (in their swizzled slots) to the 2 N words of the product in out.
 * Returns 0, or -2 when a carry would leave the top lane. */
static int carry_pass(uint32_t *out, const uint32_t *slots, unsigned n, unsigned *lane_carries)
{
    const unsigned cols = n / 4, words = n / 16;
    uint32_t carry_out[LANES];
    for (unsigned l = 0; l < LANES; l++) {
        uint64_t run = 0;
        for (unsigned i = 0; i < words; i++) {
            const unsigned f = l * cols + 4 * i;
            run += (uint64_t)slots[tt_column_slot(f)] + ((uint64_t)slots[tt_column_slot(f + 1)] << 8) +
                   ((uint64_t)slots[tt_column_slot(f + 2)] << 16) +
                   ((uint64_t)slots[tt_column_slot(f + 3)] << 24);
            out[l * words + i] = (uint32_t)run;
            run >>= 32;
        }
        if (run >> 32)
            return -2;
        carry_out[l] = (uint32_t)run;
    }
    /* The carry out of lane l - 1 enters lane l's lowest word; what that leaves is one bit. */
    uint64_t generate = 0, propagate = 0;
    for (unsigned l = 0; l < LANES; l++) {
        uint64_t run = l ? carry_out[l - 1] : 0;
        uint32_t all = 0xffffffffu;
        for (unsigned i = 0; i < words; i++) {
            run += out[l * words + i];
            out[l * words + i] = (uint32_t)run;
            all &= (uint32_t)run;
            run >>= 32;
        }
        generate |= run << l;
        propagate |= (uint64_t)(all == 0xffffffffu) << l;
    }
    if (carry_out[LANES - 1])
        return -2;
    /* mp::lookahead_carries: bit l is the carry into lane l. */
    const uint64_t gp = generate | propagate, carries = (generate + gp) ^ generate ^ gp;
    if (carries >> LANES)
        return -2;
    *lane_carries = (unsigned)__builtin_popcountll(carries);
    for (unsigned l = 0; l < LANES; l++) {
        uint64_t run = (carries >> l) & 1;
        for (unsigned i = 0; i < words; i++) {
            run += out[l * words + i];
            out[l * words + i] = (uint32_t)run;
            run >>= 32;
        }
    }
    return 0;
}

int ref_mul_tensor_toeplitz(uint32_t *c, const uint32_t *a, const uint32_t *b, unsigned w,
                            struct tt_ref_stats *stats)
{
    if (w < 1 || w > TT_MAX_WORDS)
        return -1;
    const unsigned n = tt_padded_words(w), rev_words = tt_rev_words(n);
    struct tt_ref_stats st = {n, 0, 0, 0, 0};
    struct warp_state *ws = calloc(1, sizeof *ws);
    uint32_t *rev = malloc(rev_words * sizeof *rev), *slots = malloc(8 * n * sizeof *slots),
             *out = malloc(2 * n * sizeof *out);
    int status = -1;
    if (!ws || !rev || !slots || !out)
        goto done;
    status = 0;
    for (unsigned q = 0; q < rev_words; q++)
        rev[q] = byteswap(operand_word(a, w, (long)n + 3 - (long)q));
    for (unsigned l = 0; l < LANES; l++)
        for (int u = 0; u < tt_b_regs(n); u++)
            ws->b[l][u] = operand_word(b, w, tt_b_word(u, l));

    for (int d = 0; d <= tt_d_last(n) && !status; d++) {
        uint32_t afrag[LANES][4];
        for (unsigned l = 0; l < LANES; l++) {
            static const int offset[4] = {0, -2, 4, 2};
            const unsigned h = tt_rev_shift(l);
            for (unsigned r = 0; r < 4; r++) {
                const int q = tt_rev_q0(n, l) - 8 * d + offset[r];
                if (q < 0 || q + 1 >= (int)rev_words) {
                    status = -2;
                    goto done;
                }
                const uint64_t pair = ((uint64_t)rev[q + 1] << 32) | rev[q];
                afrag[l][r] = (uint32_t)(pair >> (8 * h));
            }
        }
        st.toeplitz++;
        for (int t = 0; t < tt_tiles(n) && !status; t++) {
            const int j = 4 * t - d;
            if (!tt_live(n, t, j))
                continue;
            const uint32_t *lo[LANES], *hi[LANES];
            for (unsigned l = 0; l < LANES; l++) {
                lo[l] = &ws->b[l][2 * j + 8];
                hi[l] = &ws->b[l][2 * j + 9];
            }
            status = mma(ws->acc[t], afrag, lo, hi, a, b, w, d, j);
            st.mmas++;
        }
    }
    if (status)
        goto done;
    for (int t = 0; t < tt_tiles(n); t++)
        for (unsigned l = 0; l < LANES; l++)
            for (unsigned i = 0; i < 4; i++) {
                const int64_t v = ws->acc[t][l][i];
                if (v < 0 || v > INT32_MAX) {
                    status = -2;
                    goto done;
                }
                if ((uint32_t)v > st.max_column)
                    st.max_column = (uint32_t)v;
                slots[tt_column_slot(tt_column(t, l, i))] = (uint32_t)v;
            }
    status = carry_pass(out, slots, n, &st.lane_carries);
    if (status == 0)
        memcpy(c, out, 2 * w * sizeof *c);
done:
    if (stats && status == 0)
        *stats = st;
    free(ws);
    free(rev);
    free(slots);
    free(out);
    return status;
}
