/* The tables of 000 section 4.3: B and C (the table operation n <- B[n_L] * n_H + C[n_L]), J (the
 * number of odd/even operations one table operation stands for), S (the mandatory residues of
 * the convergence check) and A (the delays of all n < t).
 *
 * All of them come from one recurrence. Write n = 2^i * q + r with r < 2^i. After the Collatz
 * operations that include exactly i even operations, n has become 3^j * q + c, where j (the odd
 * operations) and c < 3^j depend on r alone (000 section 4.3.1: b = 2^(d-i) * 3^j after i even
 * rules). Bit i of n then decides the next operations: the value is odd when q + c is odd. */
#ifndef MPGPU_COLLATZ_TABLES_H
#define MPGPU_COLLATZ_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

/* The ranges of the base bits (mpgpu.h says why). */
#define COLLATZ_BC_MIN_BITS MPGPU_COLLATZ_BC_MIN_BITS
#define COLLATZ_BC_MAX_BITS MPGPU_COLLATZ_BC_MAX_BITS
#define COLLATZ_PREFIX_MAX_BITS MPGPU_COLLATZ_S_MAX_BITS
#define COLLATZ_A_MIN_BITS MPGPU_COLLATZ_A_MIN_BITS
#define COLLATZ_A_MAX_BITS MPGPU_COLLATZ_A_MAX_BITS

/* Fig. 4.1 of 000: each thread takes 2^8 = 256 starting values that share their low bits. */
#define COLLATZ_RUN_LEN 256u
/* Table operations after which one starting value is handed to the arbitrary-length path as a
 * runaway (a 96-bit value settles in a few hundred), so no pass can spin forever. */
#define COLLATZ_MAX_TABLE_STEPS 65536u
/* The same guard for the delay: a delay past this is resolved by plain iteration. */
#define COLLATZ_MAX_DELAY 100000u

/* 3^j for j <= COLLATZ_PREFIX_MAX_BITS. */
uint64_t collatz_pow3(unsigned j);

/* The state (j, c) of the recurrence above after the low `bits` bits of r (bits <= 40):
 * n = 2^bits * q + (r mod 2^bits) has become 3^j * q + c after `bits` even operations. */
void collatz_prefix_state(uint64_t r, unsigned bits, unsigned *j, uint64_t *c);

/* B, C and J for base bits d: struct mpgpu_collatz_bc_table (mpgpu.h). */
/* The first `ops` table operations of every n = 2^(ops*d) * q + r (r < 2^(ops*d), ops*d <=
 * COLLATZ_PREFIX_MAX_BITS) read the same table entries whatever q is (000 section 4.4.2: the
 * threads of Fig. 4.1 "refer the same address floor(53/d) times"), and turn n into 3^j * q + c.
 * Sets *p3 = 3^j, *c, and *count = the odd/even operations they stand for (the sum of J).
 * Applying them once per residue shares them among all starting values with that residue. */
void collatz_table_prefix(const struct mpgpu_collatz_bc_table *t, uint64_t r, unsigned ops,
                          uint64_t *p3, uint64_t *c, uint32_t *count);

/* The state (j, c) of r's low `bits` bits as collatz_prefix_state gives it, computed with
 * floor(bits/d) table operations (collatz_table_prefix) and the recurrence for the bits left.
 * Sets *p3 = 3^j. */
void collatz_jump_state(const struct mpgpu_collatz_bc_table *t, uint64_t r, unsigned bits, uint64_t *p3,
                        uint64_t *c);

/* Returns 0, or -1 when bits is out of range or memory is short. */
int collatz_bc_build(struct mpgpu_collatz_bc_table *t, unsigned bits);
void collatz_bc_free(struct mpgpu_collatz_bc_table *t);
/* Bytes of B and C (the convergence tables) and of B, C and J (the delay tables). */
size_t collatz_bc_bytes(unsigned bits);
size_t collatz_bcj_bytes(unsigned bits);

/* S: the residues r < 2^k that are mandatory (000 section 4.3.1): b never falls below 2^k
 * while the rules run, i.e. 3^(j_i) > 2^i after every i = 1..k even operations. Every other
 * residue provably reaches a value below n when n_H >= 1. Residues are in no particular order
 * (struct mpgpu_collatz_s_table, mpgpu.h). */
/* counts[k] = |S| of base bits k for every k <= bits (<= 40), on `threads` threads (0: all
 * cores): one search, as long as that of `bits` alone. progress (may be NULL) counts the
 * subtrees of the search. MPGPU_OK, MPGPU_ERR_OUT_OF_HOST_MEMORY or MPGPU_ERR_CANCELLED (counts
 * then unspecified). */
mpgpu_status collatz_s_counts(unsigned bits, int threads, mpgpu_progress_fn progress, void *progress_ctx,
                              uint64_t *counts);
/* Bytes S takes in memory (8 per residue). */
static inline uint64_t collatz_s_bytes(uint64_t count)
{
    return count * 8;
}
/* Builds S with `count` = |S| of `bits`; progress (may be NULL) counts each subtree of the search
 * twice, counted then filled. MPGPU_OK, MPGPU_ERR_OUT_OF_HOST_MEMORY, MPGPU_ERR_BAD_ARGUMENT (count
 * is not |S|) or MPGPU_ERR_CANCELLED; *t holds nothing but on MPGPU_OK. */
mpgpu_status collatz_s_build(struct mpgpu_collatz_s_table *t, unsigned bits, uint64_t count, int threads,
                             mpgpu_progress_fn progress, void *progress_ctx);
/* The one-residue table {0} with k = 0: every n is processed (used below 2^k, where n_H = 0
 * and the skip of 000 section 4.3.1 does not hold). */
void collatz_s_all(struct mpgpu_collatz_s_table *t);
void collatz_s_free(struct mpgpu_collatz_s_table *t);
/* True when r (< 2^bits) is mandatory, by the definition; a direct check for tests and tools. */
bool collatz_s_is_mandatory(uint64_t r, unsigned bits);

/* A: A[n] = D(n), the delay of n, for n < 2^a (A[0] = 0 is unused), into *a; progress (may be
 * NULL) counts the entries built. MPGPU_OK, MPGPU_ERR_UNSUPPORTED_SIZE, MPGPU_ERR_OUT_OF_HOST_MEMORY
 * or MPGPU_ERR_CANCELLED (*a then NULL). */
mpgpu_status collatz_a_build(uint16_t **a, unsigned bits, int threads, mpgpu_progress_fn progress,
                             void *progress_ctx);
static inline uint64_t collatz_a_bytes(unsigned bits)
{
    return ((uint64_t)1 << bits) * sizeof(uint16_t);
}

#endif
