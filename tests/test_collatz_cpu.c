/* cpu suite: the Collatz tables against 000 Table 4.1 and the paper's rules, S sizes against an
 * independent count, the CPU twins of convergence and delay against plain 3x+1 iteration, delay
 * records against the published list, the overflow path, additivity and checkpoint/resume, and
 * bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collatz_checkpoint.h"
#include "collatz_published.h"
#include "collatz_convergence.h"
#include "collatz_delay.h"
#include "collatz_plain.h"
#include "collatz_tables.h"
#include "random_words.h"
#include "test_seed.h"



/* 000 Table 4.1: B, C and S for base bits 4. */
static const uint32_t table41_b[16] = {1, 9, 9, 9, 3, 3, 9, 27, 3, 27, 3, 27, 9, 9, 27, 81};
static const uint32_t table41_c[16] = {0, 1, 2, 2, 1, 1, 4, 13, 2, 17, 2, 20, 8, 8, 26, 80};
static const uint64_t table41_s[3] = {7, 11, 15};

/* 000 Table 4.3, base bits 3..20 (small enough to check every time). */
static const uint64_t table43_small[] = {2, 3, 4, 8, 13, 19, 38, 64, 128, 226, 367, 734, 1295,
                                         2114, 4228, 7495, 14990, 27328};

/* |S| of `bits` base bits (collatz_s_counts without progress); 0 when memory is short. */
static uint64_t s_count(unsigned bits, int threads)
{
    uint64_t counts[COLLATZ_PREFIX_MAX_BITS + 1];
    return collatz_s_counts(bits, threads, NULL, NULL, counts) == MPGPU_OK ? counts[bits] : 0;
}

/* A of `bits` base bits without progress; NULL when memory is short or bits out of range. */
static uint16_t *a_table(unsigned bits, int threads)
{
    uint16_t *a = NULL;
    collatz_a_build(&a, bits, threads, NULL, NULL);
    return a;
}

static void test_table41(void)
{
    struct mpgpu_collatz_bc_table t;
    CHECK(collatz_bc_build(&t, 4) == 0, "collatz_bc_build(4) failed");
    for (int i = 0; i < 16; i++)
        CHECK(t.bc[2 * i] == table41_b[i] && t.bc[2 * i + 1] == table41_c[i],
              "Table 4.1 row %d: B=%u C=%u, paper B=%u C=%u", i, t.bc[2 * i], t.bc[2 * i + 1],
              table41_b[i], table41_c[i]);
    collatz_bc_free(&t);
    struct mpgpu_collatz_s_table s;
    uint64_t n = s_count(4, 1);
    CHECK(n == 3 && collatz_s_build(&s, 4, n, 1, NULL, NULL) == MPGPU_OK, "S for 4 bits: %llu residues",
          (unsigned long long)n);
    if (n == 3) {
        collatz_list_sort(&(struct mpgpu_collatz_list){s.residues, s.count, s.count});
        for (int i = 0; i < 3; i++)
            CHECK(s.residues[i] == table41_s[i], "Table 4.1 S[%d] = %llu, paper %llu", i,
                  (unsigned long long)s.residues[i], (unsigned long long)table41_s[i]);
        collatz_s_free(&s);
    }
}

/* The even and odd rules of 000 section 4.3.1, literally: b = 2^d, c = n_L; while b is even,
 * halve both when c is even, else b = 3b and c = 3c + 1. */
static void paper_rules(uint32_t nl, unsigned d, uint64_t *b, uint64_t *c, unsigned *rules, int *mandatory)
{
    uint64_t bb = (uint64_t)1 << d, cc = nl;
    unsigned r = 0;
    int mand = 1;
    while (!(bb & 1)) {
        if (cc & 1) {
            bb *= 3;
            cc = 3 * cc + 1;
        } else {
            bb /= 2;
            cc /= 2;
        }
        r++;
        if (bb < ((uint64_t)1 << d))
            mand = 0;
    }
    *b = bb;
    *c = cc;
    *rules = r;
    *mandatory = mand;
}

static void test_bc_against_rules(void)
{
    for (unsigned d = COLLATZ_BC_MIN_BITS; d <= 14; d++) {
        struct mpgpu_collatz_bc_table t;
        CHECK(collatz_bc_build(&t, d) == 0, "collatz_bc_build(%u) failed", d);
        unsigned bad = 0, mand = 0;
        for (uint32_t i = 0; i < (1u << d); i++) {
            uint64_t b, c;
            unsigned rules;
            int m;
            paper_rules(i, d, &b, &c, &rules, &m);
            bad += t.bc[2 * i] != b || t.bc[2 * i + 1] != c || t.ops[i] != rules;
            mand += m;
            bad += m != collatz_s_is_mandatory(i, d);
        }
        CHECK(bad == 0, "d=%u: %u entries of B, C, J or S differ from the paper's rules", d, bad);
        CHECK(s_count(d, 1) == mand, "d=%u: |S| = %llu, the rules give %u", d,
              (unsigned long long)s_count(d, 1), mand);
        collatz_bc_free(&t);
    }
}

/* |S_k| by an independent route: the parities of the first k steps are in bijection with the
 * residues mod 2^k (Terras 1976), so |S_k| counts 0/1 sequences whose prefix sums j_i keep
 * 3^(j_i) > 2^i. */
static uint64_t s_count_lattice(unsigned k)
{
    uint64_t cnt[COLLATZ_PREFIX_MAX_BITS + 2] = {1}, next[COLLATZ_PREFIX_MAX_BITS + 2];
    for (unsigned i = 1; i <= k; i++) {
        memset(next, 0, sizeof next);
        for (unsigned j = 0; j < i; j++)
            for (unsigned x = 0; x < 2; x++)
                if (collatz_pow3(j + x) > ((uint64_t)1 << i))
                    next[j + x] += cnt[j];
        memcpy(cnt, next, sizeof cnt);
    }
    uint64_t total = 0;
    for (unsigned j = 0; j <= k; j++)
        total += cnt[j];
    return total;
}

static void test_s_sizes(void)
{
    for (unsigned k = 3; k <= 20; k++)
        CHECK(s_count(k, 0) == table43_small[k - 3], "|S_%u| = %llu, Table 4.3 says %llu",
              k, (unsigned long long)s_count(k, 0), (unsigned long long)table43_small[k - 3]);
    for (unsigned k = 1; k <= 34; k++)
        CHECK(s_count(k, 0) == s_count_lattice(k), "|S_%u| = %llu, the lattice count %llu",
              k, (unsigned long long)s_count(k, 0), (unsigned long long)s_count_lattice(k));
    /* Every built residue is mandatory, none repeats, and there are |S| of them. */
    for (unsigned k = 0; k <= 22; k += 11) {
        struct mpgpu_collatz_s_table s;
        uint64_t n = s_count(k, 0);
        CHECK(collatz_s_build(&s, k, n, 0, NULL, NULL) == MPGPU_OK, "collatz_s_build(%u) failed", k);
        struct mpgpu_collatz_list l = {s.residues, s.count, s.count};
        collatz_list_sort(&l);
        unsigned bad = 0;
        for (uint64_t i = 0; i < s.count; i++)
            bad += !collatz_s_is_mandatory(s.residues[i], k) || s.residues[i] >> k ||
                   (i && s.residues[i] == s.residues[i - 1]);
        CHECK(bad == 0, "S_%u: %u residues not mandatory, out of range or repeated", k, bad);
        collatz_s_free(&s);
    }
}

static void test_a_table(void)
{
    const unsigned bits = 16;
    uint16_t *a = a_table(bits, 0);
    CHECK(a != NULL, "collatz_a_build(%u) failed", bits);
    if (!a)
        return;
    unsigned bad = 0;
    for (uint64_t n = 1; n < ((uint64_t)1 << bits); n++) {
        uint32_t d;
        bad += collatz_plain_delay(n, &d) != 0 || d != a[n];
    }
    CHECK(bad == 0, "A: %u of 2^%u entries differ from plain iteration", bad, bits);
    CHECK(a[27] == 111, "A[27] = %u, want 111", a[27]);
    free(a);
}

/* Counts the odd/even operations from m up to the first `evens` even operations. */
static unsigned plain_ops_for_evens(uint64_t m, unsigned evens)
{
    unsigned __int128 v = m;
    unsigned ops = 0;
    for (unsigned e = 0; e < evens; ops++) {
        if (v & 1) {
            v = 3 * v + 1;
        } else {
            v >>= 1;
            e++;
        }
    }
    return ops;
}

static void test_table_prefix(void)
{
    for (unsigned d = 1; d <= COLLATZ_BC_MAX_BITS; d += 3) {
        struct mpgpu_collatz_bc_table t;
        collatz_bc_build(&t, d);
        unsigned bad = 0, compared = 0;
        for (unsigned ops = 0; ops * d <= 40; ops++)
            for (int x = 0; x < 20; x++) {
                uint64_t m = splitmix64(seed + 1000 * d + 10 * ops + x) | 1;
                unsigned y = ops * d;
                uint64_t p3, c, lo, hi;
                uint32_t count;
                collatz_table_prefix(&t, m & (((uint64_t)1 << y) - 1), ops, &p3, &c, &count);
                unsigned __int128 v = (unsigned __int128)p3 * (m >> y) + c;
                if (collatz_plain_after_evens(m, y, &lo, &hi) != 0)
                    continue;
                compared++;
                bad += (uint64_t)v != lo || (uint64_t)(v >> 64) != hi;
                bad += count != plain_ops_for_evens(m, y);
            }
        for (int x = 0; x < 200; x++) {
            uint64_t r = splitmix64(seed + 77 * x + d);
            unsigned bits = (unsigned)(r % (COLLATZ_PREFIX_MAX_BITS + 1)), j;
            uint64_t p3, c, c0;
            collatz_jump_state(&t, r, bits, &p3, &c);
            collatz_prefix_state(r, bits, &j, &c0);
            bad += p3 != collatz_pow3(j) || c != c0;
        }
        CHECK(bad == 0 && compared > 0, "d=%u: %u shared prefixes or jump states differ from plain iteration "
              "(%u prefixes compared; plain iteration passed 2^126 on the others)", d, bad, compared);
        collatz_bc_free(&t);
    }
}

/* One starting value as the fast paths iterate it, against plain iteration of the same number of
 * even operations: same last value, below m unless it overflowed. */
static void test_conv_one(void)
{
    static const unsigned ds[] = {4, 8, 12, 18, 20};
    static const unsigned ks[] = {0, 8, 16, 24, 32, 37};
    for (size_t di = 0; di < sizeof ds / sizeof ds[0]; di++) {
        struct mpgpu_collatz_bc_table t;
        collatz_bc_build(&t, ds[di]);
        unsigned bad = 0, compared = 0;
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
            for (int mode = 0; mode < 2; mode++)
                for (int x = 0; x < 200; x++) {
                    uint64_t m = splitmix64(seed ^ (di << 40 | ki << 32 | (uint64_t)mode << 16 | (uint64_t)x));
                    if (x % 3 == 0)
                        m >>= x % 60;
                    if (m < 3)
                        m = 3;
                    unsigned k = ks[ki];
                    uint64_t steps, lo, hi, plo, phi;
                    int over = collatz_conv_one(m, &t, k, mode, &steps, &lo, &hi);
                    unsigned evens = (unsigned)steps * t.bits + (mode == COLLATZ_FIRST_JUMP ? k : 0);
                    if (collatz_plain_after_evens(m, evens, &plo, &phi) != 0)
                        continue;
                    compared++;
                    bad += plo != lo || phi != hi;
                    bad += !over && (hi || lo >= m);
                    bad += over && (hi >> 32) == 0;
                }
        CHECK(bad == 0 && compared > 0, "d=%u: %u of %u starting values compared iterate differently from "
              "plain iteration", ds[di], bad, compared);
        collatz_bc_free(&t);
    }
}

struct conv_setup {
    struct mpgpu_collatz_bc_table bc;
    struct mpgpu_collatz_s_table s;
};

static void conv_setup(struct conv_setup *c, unsigned d, unsigned k)
{
    collatz_bc_build(&c->bc, d);
    collatz_s_build(&c->s, k, s_count(k, 0), 0, NULL, NULL);
}

static void conv_teardown(struct conv_setup *c)
{
    collatz_bc_free(&c->bc);
    collatz_s_free(&c->s);
}

/* A pass over a range equals the sum over its starting values of collatz_conv_one; the right
 * values are skipped; every overflow descends under plain iteration; threads do not matter. */
static void check_conv_range(unsigned d, unsigned k, enum collatz_first_step mode, uint64_t first,
                             uint64_t last)
{
    struct conv_setup c;
    conv_setup(&c, d, k);
    struct mpgpu_collatz_conv_totals t1 = {0, 0, 0}, tn = {0, 0, 0}, want = {0, 0, 0};
    struct mpgpu_collatz_list ov1 = {0}, ovn = {0}, ovw = {0};
    CHECK(collatz_conv_cpu(&c.s, &c.bc, mode, first, last, 1, &t1, &ov1) == 0, "pass failed");
    CHECK(collatz_conv_cpu(&c.s, &c.bc, mode, first, last, 0, &tn, &ovn) == 0, "pass failed");
    unsigned plain_bad = 0;
    for (uint64_t m = first;; m++) {
        int below = k > 0 && m < (uint64_t)1 << k;
        if (m >= 3 && (below || collatz_s_is_mandatory(m & (((uint64_t)1 << k) - 1), k))) {
            uint64_t steps, lo, hi;
            want.mandatory++;
            if (collatz_conv_one(m, &c.bc, below ? 0 : k, mode, &steps, &lo, &hi)) {
                want.overflows++;
                collatz_list_push(&ovw, m);
            }
            want.steps += steps;
        } else if (m >= 2 && (m - first) % 97 == 0) {
            plain_bad += !collatz_plain_descends(m, NULL); /* a skipped value does descend */
        }
        if (m == last)
            break;
    }
    collatz_list_sort(&ov1);
    collatz_list_sort(&ovn);
    CHECK(t1.mandatory == want.mandatory && t1.steps == want.steps && t1.overflows == want.overflows,
          "d=%u k=%u mode=%d [%llu, %llu]: pass (%llu, %llu, %llu), one by one (%llu, %llu, %llu)",
          d, k, mode, (unsigned long long)first, (unsigned long long)last,
          (unsigned long long)t1.mandatory, (unsigned long long)t1.steps, (unsigned long long)t1.overflows,
          (unsigned long long)want.mandatory, (unsigned long long)want.steps, (unsigned long long)want.overflows);
    CHECK(memcmp(&t1, &tn, sizeof t1) == 0 && ov1.n == ovn.n &&
              (ov1.n == 0 || memcmp(ov1.v, ovn.v, ov1.n * 8) == 0),
          "d=%u k=%u: one thread and all threads differ", d, k);
    CHECK(collatz_conv_expected(&c.s, first, last, 0) == want.mandatory, "expected count %llu, want %llu",
          (unsigned long long)collatz_conv_expected(&c.s, first, last, 0), (unsigned long long)want.mandatory);
    CHECK(ov1.n == ovw.n && (ov1.n == 0 || memcmp(ov1.v, ovw.v, ov1.n * 8) == 0), "overflow lists differ");
    CHECK(collatz_plain_verify_descents(ov1.v, ov1.n, 0) == ov1.n, "an overflow does not descend");
    CHECK(plain_bad == 0, "%u skipped values do not descend", plain_bad);
    collatz_list_free(&ov1);
    collatz_list_free(&ovn);
    collatz_list_free(&ovw);
    conv_teardown(&c);
}

static void test_conv_ranges(void)
{
    for (int mode = 0; mode < 2; mode++) {
        check_conv_range(4, 8, mode, 1, 1 << 16);
        check_conv_range(12, 16, mode, 3, 1 << 18);
        check_conv_range(8, 20, mode, ((uint64_t)1 << 40) - 5000, ((uint64_t)1 << 40) + (1 << 21));
        /* 2^62 - 1 climbs to about 3^62 > 2^98: the overflow path. */
        check_conv_range(12, 16, mode, ((uint64_t)1 << 62) - (1 << 19), ((uint64_t)1 << 62) + 100);
        check_conv_range(18, 24, mode, UINT64_MAX - (1 << 22), UINT64_MAX);
    }
    /* Overflows are present where they must be. */
    struct conv_setup c;
    conv_setup(&c, 12, 16);
    struct mpgpu_collatz_conv_totals t = {0, 0, 0};
    struct mpgpu_collatz_list ov = {0};
    collatz_conv_cpu(&c.s, &c.bc, COLLATZ_FIRST_JUMP, ((uint64_t)1 << 62) - 10, ((uint64_t)1 << 62) + 10, 0, &t, &ov);
    int found = 0;
    for (size_t i = 0; i < ov.n; i++)
        found |= ov.v[i] == ((uint64_t)1 << 62) - 1;
    CHECK(found, "2^62 - 1 did not overflow 96 bits (%zu overflows)", ov.n);
    collatz_list_free(&ov);
    conv_teardown(&c);
}

/* Passes over adjacent ranges add up to one pass over their union. */
static void test_additivity(void)
{
    struct conv_setup c;
    conv_setup(&c, 10, 24);
    uint64_t a = ((uint64_t)1 << 50) + 12345, m = a + (1 << 25) + 77, b = m + (1 << 26);
    struct mpgpu_collatz_conv_totals whole = {0, 0, 0}, parts = {0, 0, 0};
    struct mpgpu_collatz_list ov = {0};
    collatz_conv_cpu(&c.s, &c.bc, COLLATZ_FIRST_JUMP, a, b, 0, &whole, &ov);
    collatz_conv_cpu(&c.s, &c.bc, COLLATZ_FIRST_JUMP, a, m, 0, &parts, &ov);
    collatz_conv_cpu(&c.s, &c.bc, COLLATZ_FIRST_JUMP, m + 1, b, 0, &parts, &ov);
    CHECK(memcmp(&whole, &parts, sizeof whole) == 0, "convergence totals are not additive");
    collatz_list_free(&ov);
    conv_teardown(&c);

    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, 9);
    uint16_t *at = a_table(12, 0);
    struct mpgpu_collatz_delay_totals dw = {0, 0, 0, 0, 0}, dp = {0, 0, 0, 0, 0}, d2 = {0, 0, 0, 0, 0};
    struct mpgpu_collatz_list dov = {0};
    a = ((uint64_t)1 << 45) + 999;
    m = a + (1 << 20) + 3;
    b = m + (1 << 21);
    collatz_delay_cpu(&bc, at, 12, a, b, 0, 0, &dw, NULL, &dov);
    collatz_delay_cpu(&bc, at, 12, a, m, 0, 0, &dp, NULL, &dov);
    collatz_delay_cpu(&bc, at, 12, m + 1, b, 0, 0, &d2, NULL, &dov);
    collatz_delay_add(&dp, &d2);
    CHECK(dw.numbers == dp.numbers && dw.sum == dp.sum && dw.max == dp.max && dw.argmax == dp.argmax &&
              dw.overflows == dp.overflows, "delay totals are not additive");
    collatz_list_free(&dov);
    free(at);
    collatz_bc_free(&bc);
}

/* Delays of a range by the CPU twin against plain iteration, number by number. */
static void check_delay_range(unsigned d, unsigned a_bits, uint64_t first, uint64_t last)
{
    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, d);
    uint16_t *a = a_table(a_bits, 0);
    struct mpgpu_collatz_delay_totals t = {0, 0, 0, 0, 0}, want = {0, 0, 0, 0, 0};
    struct mpgpu_collatz_list ov = {0};
    struct mpgpu_collatz_pairs cand = {0};
    CHECK(collatz_delay_cpu(&bc, a, a_bits, first, last, 0, 0, &t, &cand, &ov) == 0, "delay pass failed");
    uint64_t runaway = 0;
    CHECK(collatz_delay_resolve(&ov, 0, 0, &t, &cand, &runaway) == 0, "resolving overflows failed");
    CHECK(t.overflows == ov.n, "%llu overflows counted, %zu listed", (unsigned long long)t.overflows, ov.n);
    unsigned ops = collatz_delay_prefix_ops(d, first, last - first + 1), bad_one = 0;
    for (uint64_t n = first;; n++) {
        uint32_t pd, fd;
        collatz_plain_delay(n, &pd);
        want.numbers++;
        want.sum += pd;
        if (want.numbers == 1 || pd > want.max) {
            want.max = pd;
            want.argmax = n;
        }
        if (collatz_delay_one(n, &bc, a, a_bits, ops, &fd) == 0)
            bad_one += fd != pd;
        if (n == last)
            break;
    }
    CHECK(t.numbers == want.numbers && t.sum == want.sum && t.max == want.max && t.argmax == want.argmax,
          "delay d=%u a=%u [%llu, %llu]: numbers %llu sum %llu max %u at %llu; plain: %llu %llu %u at %llu",
          d, a_bits, (unsigned long long)first, (unsigned long long)last, (unsigned long long)t.numbers,
          (unsigned long long)t.sum, t.max, (unsigned long long)t.argmax, (unsigned long long)want.numbers,
          (unsigned long long)want.sum, want.max, (unsigned long long)want.argmax);
    CHECK(bad_one == 0, "delay d=%u a=%u: %u single delays differ from plain iteration", d, a_bits, bad_one);
    CHECK(cand.n == want.numbers - (first == 1), "floor 0: %zu candidates for %llu numbers", cand.n,
          (unsigned long long)want.numbers);
    collatz_pairs_free(&cand);
    collatz_list_free(&ov);
    free(a);
    collatz_bc_free(&bc);
}

static void test_delay(void)
{
    uint32_t d;
    CHECK(collatz_plain_delay(27, &d) == 0 && d == 111, "plain D(27) = %u, want 111", d);
    CHECK(collatz_plain_delay(837799, &d) == 0 && d == 524, "plain D(837799) = %u, want 524", d);
    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, 9);
    uint16_t *a = a_table(12, 0);
    CHECK(collatz_delay_one(27, &bc, a, 12, 0, &d) == 0 && d == 111, "table D(27) = %u, want 111", d);
    CHECK(collatz_delay_one(837799, &bc, a, 12, 1, &d) == 0 && d == 524, "table D(837799) = %u, want 524", d);
    free(a);
    collatz_bc_free(&bc);
    check_delay_range(4, 5, 1, 1 << 15);
    check_delay_range(9, 12, 1, 1 << 17);
    check_delay_range(11, 16, ((uint64_t)1 << 40) - 3333, ((uint64_t)1 << 40) + (1 << 16));
    check_delay_range(12, 20, ((uint64_t)1 << 62) - (1 << 16), ((uint64_t)1 << 62) + 200);
    check_delay_range(20, 23, UINT64_MAX - (1 << 16), UINT64_MAX);
}

/* The records of [1, limit] from the CPU twin (all cores) and, for a smaller limit, from plain
 * iteration, against the published list. */
static void test_records(void)
{
    const uint64_t limit = 20000000, plain_limit = 300000;
    struct mpgpu_collatz_bc_table bc;
    collatz_bc_build(&bc, 11);
    uint16_t *a = a_table(20, 0);
    int64_t floor = -1;
    struct mpgpu_collatz_pairs records = {0};
    /* Ranges in growing pieces, the floor carried from one to the next, as `mpgpu delay` does. */
    for (uint64_t lo = 1; lo <= limit;) {
        uint64_t hi = lo * 4 < limit ? lo * 4 : limit;
        struct mpgpu_collatz_delay_totals t = {0, 0, 0, 0, 0};
        struct mpgpu_collatz_pairs cand = {0};
        struct mpgpu_collatz_list ov = {0};
        uint64_t runaway;
        collatz_delay_cpu(&bc, a, 20, lo, hi, floor, 0, &t, &cand, &ov);
        collatz_delay_resolve(&ov, floor, 0, &t, &cand, &runaway);
        collatz_records_extract(&cand, &floor, &records);
        collatz_pairs_free(&cand);
        collatz_list_free(&ov);
        lo = hi + 1;
    }
    size_t want = 0;
    while (want < N_PUBLISHED && published_records[want].n <= limit)
        want++;
    int same = records.n == want;
    for (size_t i = 0; same && i < want; i++)
        same = records.v[i].n == published_records[i].n && records.v[i].delay == published_records[i].delay;
    CHECK(same, "delay records up to %llu: %zu found, %zu published, or they differ",
          (unsigned long long)limit, records.n, want);
    collatz_pairs_free(&records);
    free(a);
    collatz_bc_free(&bc);

    uint32_t best = 0;
    size_t at = 0;
    int ok = 1;
    for (uint64_t n = 1; n <= plain_limit; n++) {
        uint32_t dn;
        collatz_plain_delay(n, &dn);
        if (n == 1 || dn > best) {
            ok &= at < N_PUBLISHED && published_records[at].n == n && published_records[at].delay == dn;
            at++;
            best = dn;
        }
    }
    CHECK(ok, "plain iteration: delay records up to %llu differ from the published list",
          (unsigned long long)plain_limit);
}

static void test_checkpoint(void)
{
    char path[] = "/tmp/mpgpu_ckpt_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0)
        return;
    close(fd);
    struct checkpoint c, r;
    memset(&c, 0, sizeof c);
    snprintf(c.command, sizeof c.command, "delay");
    snprintf(c.params, sizeof c.params, "bc_bits=9;a_bits=12");
    c.start = 1;
    c.done = 123456789;
    checkpoint_set(&c, "sum", UINT64_MAX);
    checkpoint_set(&c, "max", 524);
    collatz_pairs_push(&c.records, 27, 111);
    collatz_pairs_push(&c.records, 837799, 524);
    char why[256];
    CHECK(checkpoint_write(path, &c) == 0, "checkpoint_write failed");
    CHECK(checkpoint_read(path, &r, why, sizeof why) == 1, "checkpoint_read of a good file: %s", why);
    uint64_t v;
    CHECK(!strcmp(r.command, "delay") && !strcmp(r.params, c.params) && r.start == 1 &&
              r.done == 123456789 && checkpoint_get(&r, "sum", &v) == 0 && v == UINT64_MAX &&
              r.records.n == 2 && r.records.v[1].n == 837799 && r.records.v[1].delay == 524,
          "checkpoint round trip lost data");
    checkpoint_free(&r);

    /* Damage: a flipped digit, a truncation, a foreign file, an unknown key. */
    FILE *f = fopen(path, "r+");
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf, f);
    char *done = strstr(buf, "done 1");
    done[6] = done[6] == '9' ? '8' : '9';
    rewind(f);
    fwrite(buf, 1, len, f);
    fclose(f);
    CHECK(checkpoint_read(path, &r, why, sizeof why) == -1 && strstr(why, "checksum"),
          "a flipped digit was not detected (%s)", why);
    f = fopen(path, "w");
    fwrite(buf, 1, len / 2, f);
    fclose(f);
    CHECK(checkpoint_read(path, &r, why, sizeof why) == -1, "a truncated file was accepted");
    f = fopen(path, "w");
    fputs("hello\n", f);
    fclose(f);
    CHECK(checkpoint_read(path, &r, why, sizeof why) == -1, "a foreign file was accepted");
    unlink(path);
    CHECK(checkpoint_read(path, &r, why, sizeof why) == 0, "a missing file is not 'absent'");
    checkpoint_free(&c);
}

/* A progress function that records its last call and asks to stop once `stop_at` is done. */
struct progress_log {
    uint64_t done, total, stop_at;
    unsigned calls;
};

static int log_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct progress_log *l = ctx;
    l->done = done;
    l->total = total;
    l->calls++;
    return done >= l->stop_at;
}

/* The table builds report their progress to the end, and stop when asked, leaving nothing. */
static void test_table_progress(void)
{
    uint64_t counts[COLLATZ_PREFIX_MAX_BITS + 1];
    struct progress_log whole = {.stop_at = UINT64_MAX};
    CHECK(collatz_s_counts(24, 0, log_progress, &whole, counts) == MPGPU_OK && counts[24] == s_count(24, 0) &&
          whole.calls > 1 && whole.done == whole.total,
          "S count of 24 bits: %u progress calls, the last %llu of %llu", whole.calls,
          (unsigned long long)whole.done, (unsigned long long)whole.total);
    struct progress_log stop = {.stop_at = 1};
    CHECK(collatz_s_counts(30, 0, log_progress, &stop, counts) == MPGPU_ERR_CANCELLED && stop.done < stop.total,
          "S count of 30 bits not stopped at its first progress call (%llu of %llu done)",
          (unsigned long long)stop.done, (unsigned long long)stop.total);
    struct mpgpu_collatz_s_table s;
    stop = (struct progress_log){.stop_at = 1};
    CHECK(collatz_s_build(&s, 24, s_count(24, 0), 0, log_progress, &stop) == MPGPU_ERR_CANCELLED &&
          s.residues == NULL, "S of 24 bits not stopped, or its residues left behind");
    whole = (struct progress_log){.stop_at = UINT64_MAX};
    uint16_t *a = NULL;
    CHECK(collatz_a_build(&a, 22, 0, log_progress, &whole) == MPGPU_OK && whole.done == whole.total &&
          whole.total == (UINT64_C(1) << 22) - 2, "A of 22 bits: progress ended at %llu of %llu",
          (unsigned long long)whole.done, (unsigned long long)whole.total);
    free(a);
    stop = (struct progress_log){.stop_at = 1};
    a = NULL;
    CHECK(collatz_a_build(&a, 24, 0, log_progress, &stop) == MPGPU_ERR_CANCELLED && a == NULL &&
          stop.done < stop.total, "A of 24 bits not stopped at its first progress call");
}

static void test_bad_input(void)
{
    struct mpgpu_collatz_bc_table t;
    CHECK(collatz_bc_build(&t, 0) == -1, "B/C base bits 0 accepted");
    CHECK(collatz_bc_build(&t, COLLATZ_BC_MAX_BITS + 1) == -1, "B/C base bits 21 accepted");
    CHECK(a_table(COLLATZ_A_MAX_BITS + 1, 1) == NULL, "A base bits 33 accepted");
    CHECK(a_table(1, 1) == NULL, "A base bits 1 accepted");
}

int main(void)
{
    seed = test_seed();
    test_table41();
    test_bc_against_rules();
    test_s_sizes();
    test_a_table();
    test_table_prefix();
    test_conv_one();
    test_conv_ranges();
    test_additivity();
    test_delay();
    test_records();
    test_checkpoint();
    test_table_progress();
    test_bad_input();
    return test_finish("test_collatz_cpu");
}
