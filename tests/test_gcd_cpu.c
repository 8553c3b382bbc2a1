/* cpu suite: the CPU foundation of `mpgpu gcd` (002, Weber and Brew's modular integer GCD).
 * - the sieve of L-bit primes (L = 16, 20: whole; L = 32: windows) against mpz_nextprime, the
 *   cheap-category filter against an independent GMP evaluation of its criterion, and the counts
 *   (pi(2^L) - pi(2^(L-1)) for the unfiltered sets);
 * - the fast remainder (both paths) against % on random and edge numerators, and a rejected
 *   prime's cheap remainder failing at the numerator the criterion names;
 * - the float-reciprocal quotient and the modular inverse against mpz_invert;
 * - gcd_moduli_count's table against the sieve (L = 16..26 and 32);
 * - the moduli cache: round trip, every kind of damage found and rebuilt with a message, a cache
 *   that cannot be written reported as such, no cache at all, and the folder's variables;
 * - the CPU twin of Fig. 2 against mpz_gcd on random pairs, planted common factors, U = V, V | U,
 *   V = 1, unequal lengths, one to a few words, zeros and signs, moduli dividing the inputs, the
 *   shortage of moduli (retry path), a sweep of N_Q that must never give a wrong answer, and
 *   inputs too large for M. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcd_cache.h"
#include "gcd_cases.h"
#include "gcd_fermat.h"
#include "gcd_modinv.h"
#include "gcd_modular_ref.h"
#include "gcd_moduli.h"
#include "random_words.h"
#include "test_seed.h"

/* pi(2^L) - pi(2^(L-1)), from the published values of pi(2^n) (OEIS A007053). */
#define PRIMES_16 3030u
#define PRIMES_20 38635u
#define PRIMES_32 98182656u
/* The L = 32 primes of the cheap category, as this code counts them (the paper: "roughly 30
 * million of the 98 million 32-bit primes are not useable", 002 section 3.1). The windows below
 * check how the set is formed; this number guards against a change of the whole. */
#define CHEAP_32 68181070u

/* The GPU's thread block size the twin rounds N_Q to (002 section 2). */
#define BLOCK 64u

static uint64_t rng;
static uint64_t rand64(void)
{
    return splitmix64(rng++);
}

static gmp_randstate_t gmp_rng;

/* The cheap-category criterion evaluated independently with GMP: m = ceil(2^(63+L) / q) fits 64
 * bits, and floor(x m / 2^(63+L)) = floor(x / q) at x = the largest x < 2^64 with x mod q =
 * q - 1 (the worst numerator, gcd_moduli.h). Also returns m. */
static int cheap_by_gmp(uint32_t q, unsigned L, mpz_t m)
{
    mpz_t x, t, a;
    mpz_inits(x, t, a, NULL);
    mpz_set_ui(t, 0);
    mpz_setbit(t, 63 + L);
    mpz_cdiv_q_ui(m, t, q);
    mpz_set_ui(x, 0);
    mpz_setbit(x, 64);
    mpz_sub_ui(x, x, 1);
    unsigned long r = mpz_fdiv_ui(x, q);
    mpz_sub_ui(x, x, (r + 1) % q);
    mpz_mul(a, x, m);
    mpz_fdiv_q_2exp(a, a, 63 + L);
    mpz_fdiv_q_ui(t, x, q);
    int ok = mpz_sizeinbase(m, 2) <= 64 && mpz_cmp(a, t) == 0;
    mpz_clears(x, t, a, NULL);
    return ok;
}

static uint64_t mpz_get_u64(const mpz_t x)
{
    uint64_t w[2] = {0, 0};
    mpz_export(w, NULL, -1, sizeof w[0], 0, 0, x);
    return w[0];
}

/* The first index of the descending list whose modulus is < hi. */
static uint64_t first_below(const struct gcd_moduli *M, uint64_t hi)
{
    uint64_t lo = 0, top = M->count;
    while (lo < top) {
        uint64_t mid = lo + (top - lo) / 2;
        if (M->q[mid] >= hi)
            lo = mid + 1;
        else
            top = mid;
    }
    return lo;
}

/* Every prime of [lo, hi) (inside (2^(L-1), 2^L)) by mpz_nextprime: `all` must list each, in
 * order, and `cheap` exactly those that pass the GMP criterion. For the primes it rejects, the
 * cheap remainder with their (64-bit) multiplier must indeed fail at the worst numerator. */
static void check_window(const struct gcd_moduli *all, const struct gcd_moduli *cheap,
                         uint64_t lo, uint64_t hi)
{
    const unsigned L = all->L;
    uint64_t ia = first_below(all, hi), ic = first_below(cheap, hi);
    mpz_t p, m;
    mpz_inits(p, m, NULL);
    uint32_t *primes = malloc(((hi - lo) / 2 + 1) * sizeof *primes);
    uint64_t found = 0;
    mpz_set_ui(p, lo - 1);
    for (mpz_nextprime(p, p); mpz_cmp_ui(p, hi) < 0; mpz_nextprime(p, p))
        primes[found++] = (uint32_t)mpz_get_ui(p);
    /* The lists are descending: walk the window from its top. */
    for (uint64_t k = found; k-- > 0;) {
        uint32_t q = primes[k];
        CHECK(ia < all->count && all->q[ia] == q, "L=%u all: expected %u at index %llu, got %u", L,
              q, (unsigned long long)ia, ia < all->count ? all->q[ia] : 0);
        ia++;
        int is_cheap = cheap_by_gmp(q, L, m);
        CHECK(gcd_fastrem_is_cheap(q, L) == is_cheap, "L=%u q=%u: criterion %d, GMP %d", L, q,
              gcd_fastrem_is_cheap(q, L), is_cheap);
        CHECK(gcd_fastrem_exact_for_all(q, L), "L=%u q=%u: exact path not exact", L, q);
        if (is_cheap) {
            CHECK(ic < cheap->count && cheap->q[ic] == q, "L=%u cheap: expected %u at %llu, got %u",
                  L, q, (unsigned long long)ic, ic < cheap->count ? cheap->q[ic] : 0);
            CHECK(gcd_fastrem_multiplier(q, L, GCD_FILTER_CHEAP) == mpz_get_u64(m),
                  "L=%u q=%u: multiplier differs from GMP's ceil(2^(63+L)/q)", L, q);
            ic++;
        } else if (mpz_sizeinbase(m, 2) <= 64) {
            uint64_t x = UINT64_MAX - (UINT64_MAX % q + 1);
            CHECK(gcd_fastrem_cheap(x, q, mpz_get_u64(m), L) != x % q,
                  "L=%u q=%u rejected, yet its cheap remainder is right at x = %llu", L, q,
                  (unsigned long long)x);
        }
    }
    uint64_t next_a = first_below(all, lo), next_c = first_below(cheap, lo);
    CHECK(ia == next_a && ic == next_c, "L=%u window [%llu, %llu): lists hold extra moduli", L,
          (unsigned long long)lo, (unsigned long long)hi);
    free(primes);
    mpz_clears(p, m, NULL);
}

/* The fast remainder of both paths against %, on `n` moduli spread over each set. */
static void check_fastrem(const struct gcd_moduli *M, unsigned n, unsigned values)
{
    const unsigned L = M->L;
    for (unsigned k = 0; k < n; k++) {
        uint64_t at = k == 0 ? 0 : k == 1 ? M->count - 1 : rand64() % M->count;
        uint32_t q = M->q[at];
        uint64_t m = gcd_fastrem_multiplier(q, L, M->filter);
        uint64_t edges[] = {0, 1, q - 1, q, (uint64_t)q + 1, 2 * (uint64_t)q - 1,
                            (uint64_t)(q - 1) * (q - 1), (uint64_t)q * q - 1, (uint64_t)q * q,
                            UINT64_MAX - (UINT64_MAX % q + 1), UINT64_MAX - 1, UINT64_MAX,
                            (uint64_t)1 << 63, ((uint64_t)1 << 63) - 1};
        for (unsigned i = 0; i < sizeof edges / sizeof edges[0] + values; i++) {
            uint64_t x = i < sizeof edges / sizeof edges[0] ? edges[i] : rand64();
            /* a third of the random numerators are products of two residues, the use of 002 */
            if (i >= sizeof edges / sizeof edges[0] && i % 3 == 0)
                x = (x % q) * (rand64() % q);
            CHECK(gcd_fastrem(x, q, m, L, M->filter) == x % q,
                  "L=%u %s q=%u x=%llu: %u, expected %llu", L, gcd_filter_name(M->filter), q,
                  (unsigned long long)x, gcd_fastrem(x, q, m, L, M->filter),
                  (unsigned long long)(x % q));
        }
        /* the exact path serves every prime, cheap ones included */
        uint64_t me = gcd_fastrem_multiplier(q, L, GCD_FILTER_ALL);
        for (unsigned i = 0; i < values / 4; i++) {
            uint64_t x = rand64();
            CHECK(gcd_fastrem_exact(x, q, me, L) == x % q, "L=%u q=%u exact path x=%llu", L, q,
                  (unsigned long long)x);
        }
        /* the remainder of a multi-word number (002 section 3.1, last paragraph) */
        uint32_t w[40];
        size_t words = 1 + rand64() % 40;
        random_words(seed, rand64(), w, words);
        mpz_t a;
        mpz_init(a);
        mpz_import(a, words, -1, sizeof w[0], 0, 0, w);
        CHECK(gcd_residue_words(w, words, q, m, L, M->filter) == mpz_fdiv_ui(a, q),
              "L=%u q=%u: residue of a %zu-word number", L, q, words);
        mpz_clear(a);
    }
}

/* The quotient is floor(a/d). The reciprocal's estimate alone (002 section 3.2) is floor(a/d) or,
 * only when d divides a, one less: count those, which the correction must have fixed. */
static unsigned short_estimates;
static void check_quotient(uint32_t a, uint32_t d)
{
    uint32_t estimate = (uint32_t)((double)a * (1.0 / (double)d)), exact = a / d;
    CHECK(gcd_modinv_quotient(a, d) == exact, "quotient %u / %u: %u, exact %u", a, d,
          gcd_modinv_quotient(a, d), exact);
    CHECK(estimate == exact || (estimate + 1 == exact && a % d == 0),
          "estimate of %u / %u: %u, exact %u", a, d, estimate, exact);
    short_estimates += estimate != exact;
}

static void check_modinv(const struct gcd_moduli *M, unsigned n, unsigned values)
{
    mpz_t a, b, r;
    mpz_inits(a, b, r, NULL);
    for (unsigned k = 0; k < n; k++) {
        uint32_t q = M->q[k == 0 ? 0 : rand64() % M->count];
        uint32_t edges[] = {1, 2, 3, q - 1, q - 2, (q - 1) / 2, (q + 1) / 2, q / 3};
        for (unsigned i = 0; i < sizeof edges / sizeof edges[0] + values; i++) {
            uint32_t v = i < sizeof edges / sizeof edges[0] ? edges[i]
                                                            : (uint32_t)(1 + rand64() % (q - 1));
            mpz_set_ui(a, v);
            mpz_set_ui(b, q);
            mpz_invert(r, a, b);
            CHECK(gcd_modinv(v, q) == mpz_get_ui(r), "inverse of %u mod %u: %u, GMP %lu", v, q,
                  gcd_modinv(v, q), mpz_get_ui(r));
            CHECK(gcd_modinv_fermat(v, q) == mpz_get_ui(r), "Fermat inverse of %u mod %u: %u, "
                  "GMP %lu", v, q, gcd_modinv_fermat(v, q), mpz_get_ui(r));
            /* The Montgomery product a b R^-1 against GMP, with a = v and b = the inverse's
             * neighbour, both below q. */
            const uint32_t w = (uint32_t)(rand64() % q), qinv = gcd_mont_qinv(q);
            mpz_set_ui(a, v);
            mpz_mul_ui(a, a, w);
            mpz_set_ui(r, 1);
            mpz_mul_2exp(r, r, 32);
            mpz_invert(r, r, b);
            mpz_mul(a, a, r);
            mpz_mod(a, a, b);
            CHECK(qinv * q == UINT32_MAX && gcd_montmul(v, w, q, qinv) == mpz_get_ui(a),
                  "Montgomery product %u x %u mod %u: %u, GMP %lu (qinv %u)", v, w, q,
                  gcd_montmul(v, w, q, qinv), mpz_get_ui(a), qinv);
        }
    }
    mpz_clears(a, b, r, NULL);
}

static void check_quotients(unsigned n)
{
    const uint32_t top[] = {1, 2, 3, 0xffffu, 0x10000u, UINT32_MAX / 2, UINT32_MAX - 1, UINT32_MAX};
    for (unsigned i = 0; i < sizeof top / sizeof top[0]; i++)
        for (unsigned j = 0; j < sizeof top / sizeof top[0]; j++)
            check_quotient(top[i], top[j]);
    /* divisors of every length, at exact multiples (where the estimate may fall one short),
     * just below and just above them, and anywhere */
    for (unsigned i = 0; i < n; i++) {
        uint32_t d = 1 + (uint32_t)(rand64() >> (32 + rand64() % 32));
        uint64_t k = 1 + rand64() % (UINT32_MAX / d);
        uint64_t a = k * d;
        check_quotient((uint32_t)a, d);
        check_quotient((uint32_t)(a - 1), d);
        if (a + d - 1 <= UINT32_MAX)
            check_quotient((uint32_t)(a + d - 1), d);
        check_quotient((uint32_t)rand64(), d);
    }
    check_quotient(49, 49);
    CHECK(short_estimates > 0, "no estimate was one too small: the correction went untested");
}

/* ---- the moduli cache ---- */

static char tmpdir[256];

static char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static int same_moduli(const struct gcd_moduli *a, const struct gcd_moduli *b)
{
    if (a->L != b->L || a->filter != b->filter || a->count != b->count)
        return 0;
    return a->count == 0 || memcmp(a->q, b->q, a->count * sizeof *a->q) == 0;
}

/* Damages byte `at` of the file (or truncates it when at < 0, by -at bytes). */
static void damage(const char *path, long at)
{
    FILE *fp = fopen(path, "r+b");
    CHECK(fp != NULL, "cannot open %s to damage it", path);
    if (!fp)
        return;
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fclose(fp);
    if (at < 0) {
        CHECK(truncate(path, size + at) == 0, "truncate %s", path);
        return;
    }
    fp = fopen(path, "r+b");
    fseek(fp, at, SEEK_SET);
    int c = fgetc(fp);
    fseek(fp, at, SEEK_SET);
    fputc(c ^ 0x5a, fp);
    fclose(fp);
}

/* The cache read after `how` must fail, and gcd_moduli_load must rebuild it with a message that
 * names the file, leaving a clean cache behind. */
static void check_damaged(const struct gcd_moduli *ref, const char *path, const char *how)
{
    struct gcd_moduli r;
    char why[200];
    CHECK(gcd_moduli_cache_read(path, ref->L, ref->filter, &r, why, sizeof why) != 0,
          "cache %s: read succeeded", how);
    FILE *log = tmpfile();
    int rc = gcd_moduli_load(path, ref->L, ref->filter, &r, log);
    char msg[400] = "";
    rewind(log);
    size_t got = fread(msg, 1, sizeof msg - 1, log);
    msg[got] = 0;
    fclose(log);
    CHECK(rc == 1 && same_moduli(&r, ref), "cache %s: not rebuilt (rc %d)", how, rc);
    CHECK(strstr(msg, path) && strstr(msg, "building"), "cache %s: message \"%s\"", how, msg);
    gcd_moduli_free(&r);
    CHECK(gcd_moduli_cache_read(path, ref->L, ref->filter, &r, why, sizeof why) == 0 &&
              same_moduli(&r, ref),
          "cache %s: rebuilt file does not read back", how);
    gcd_moduli_free(&r);
}

static void check_cache(const struct gcd_moduli *ref, const struct gcd_moduli *other_L)
{
    char name[64];
    gcd_moduli_cache_name(name, sizeof name, ref->L, ref->filter);
    char path[512];
    snprintf(path, sizeof path, "%s", tmp_path(name));
    struct gcd_moduli r;
    char why[200];
    CHECK(gcd_moduli_cache_write(path, ref) == 0, "write %s", path);
    CHECK(gcd_moduli_cache_read(path, ref->L, ref->filter, &r, why, sizeof why) == 0 &&
              same_moduli(&r, ref),
          "cache round trip L=%u %s", ref->L, gcd_filter_name(ref->filter));
    gcd_moduli_free(&r);
    CHECK(gcd_moduli_cache_read(path, ref->L, 1 - ref->filter, &r, why, sizeof why) != 0 &&
              strstr(why, "expected"),
          "cache of the other filter accepted");
    CHECK(gcd_moduli_cache_read(path, other_L->L, ref->filter, &r, why, sizeof why) != 0,
          "cache of L=%u read as L=%u", ref->L, other_L->L);

    damage(path, 44 + 7);
    check_damaged(ref, path, "payload byte");
    damage(path, 20);
    check_damaged(ref, path, "count byte");
    damage(path, 40);
    check_damaged(ref, path, "checksum byte");
    damage(path, 0);
    check_damaged(ref, path, "magic byte");
    damage(path, -3);
    check_damaged(ref, path, "truncated");
    /* a file of the other L under this name */
    CHECK(gcd_moduli_cache_write(path, other_L) == 0, "write %s", path);
    check_damaged(ref, path, "of another L");
    remove(path);
    check_damaged(ref, path, "missing");
    remove(path);
}

/* gcd_moduli_count against the sieve: the sets already built here, and L = 17..26 (milliseconds
 * each; L = 27..31 would take as long as the rest of this program). */
static void check_counts(const struct gcd_moduli *const *built, int n_built)
{
    for (int i = 0; i < n_built; i++)
        CHECK(gcd_moduli_count(built[i]->L, built[i]->filter) == built[i]->count,
              "gcd_moduli_count(%u, %s) = %llu, the sieve %llu", built[i]->L,
              gcd_filter_name(built[i]->filter),
              (unsigned long long)gcd_moduli_count(built[i]->L, built[i]->filter),
              (unsigned long long)built[i]->count);
    for (unsigned L = 17; L <= 26; L++)
        for (int f = GCD_FILTER_CHEAP; f <= GCD_FILTER_ALL; f++) {
            struct gcd_moduli m;
            CHECK(gcd_moduli_build(&m, L, (enum gcd_filter)f) == 0 &&
                      m.count == gcd_moduli_count(L, (enum gcd_filter)f),
                  "gcd_moduli_count(%u, %s) = %llu, the sieve %llu", L,
                  gcd_filter_name((enum gcd_filter)f),
                  (unsigned long long)gcd_moduli_count(L, (enum gcd_filter)f),
                  (unsigned long long)m.count);
            gcd_moduli_free(&m);
        }
    CHECK(gcd_moduli_count(15, GCD_FILTER_ALL) == 0 && gcd_moduli_count(33, GCD_FILTER_ALL) == 0,
          "gcd_moduli_count of an L outside 16..32 is not 0");
}

/* A cache that cannot be written is said to be so (gcd_moduli_load returns 2, not 1, and names
 * the file: the command line must not claim it "sieved into" it), and path NULL sieves with no
 * cache at all. */
static void check_uncached(const struct gcd_moduli *ref)
{
    char blocker[512], path[600];
    snprintf(blocker, sizeof blocker, "%s", tmp_path("a_file"));
    FILE *fp = fopen(blocker, "w");
    CHECK(fp != NULL, "cannot create %s", blocker);
    if (fp)
        fclose(fp);
    /* a folder under a regular file: no one, root included, can write there */
    snprintf(path, sizeof path, "%s/gcd_moduli.bin", blocker);
    struct gcd_moduli r;
    FILE *log = tmpfile();
    const int rc = gcd_moduli_load(path, ref->L, ref->filter, &r, log);
    char msg[1000] = "";
    rewind(log);
    msg[fread(msg, 1, sizeof msg - 1, log)] = 0;
    fclose(log);
    CHECK(rc == 2 && same_moduli(&r, ref), "unwritable cache: rc %d (want 2, sieved, not cached)",
          rc);
    CHECK(strstr(msg, path) && strstr(msg, "cannot be written (Not a directory)") &&
              strstr(msg, "not cached"),
          "unwritable cache: message \"%s\"", msg);
    gcd_moduli_free(&r);
    CHECK(gcd_moduli_load(NULL, ref->L, ref->filter, &r, stdout) == 2 && same_moduli(&r, ref),
          "no cache: not sieved, or said to be cached");
    gcd_moduli_free(&r);
    remove(blocker);
}

/* expect NULL: none of the variables may choose a folder. */
static void check_dir_choice(const char *expect_var, const char *expect_dir)
{
    char dir[256] = "unchanged";
    const char *var = gcd_moduli_cache_dir(dir, sizeof dir);
    CHECK(expect_var ? var && !strcmp(var, expect_var) && !strcmp(dir, expect_dir)
                     : !var && dir[0] == '\0',
          "cache folder: %s '%s', expected %s '%s'", var ? var : "none", dir,
          expect_var ? expect_var : "none", expect_dir);
}

/* $MPGPU_CACHE, else $XDG_CACHE_HOME/mpgpu, else $HOME/.cache/mpgpu, else none (never the
 * current folder); a variable set to "" counts as unset. */
static void check_cache_dir(void)
{
    static const char *const vars[] = {"MPGPU_CACHE", "XDG_CACHE_HOME", "HOME"};
    char *saved[3];
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        saved[i] = v ? strdup(v) : NULL;
    }
    setenv("MPGPU_CACHE", "/m", 1);
    setenv("XDG_CACHE_HOME", "/x", 1);
    setenv("HOME", "/h", 1);
    check_dir_choice("MPGPU_CACHE", "/m");
    setenv("MPGPU_CACHE", "", 1);
    check_dir_choice("XDG_CACHE_HOME", "/x/mpgpu");
    unsetenv("XDG_CACHE_HOME");
    check_dir_choice("HOME", "/h/.cache/mpgpu");
    unsetenv("HOME");
    check_dir_choice(NULL, "");
    unsetenv("MPGPU_CACHE");
    check_dir_choice(NULL, "");
    for (int i = 0; i < 3; i++) {
        if (saved[i])
            setenv(vars[i], saved[i], 1);
        else
            unsetenv(vars[i]);
        free(saved[i]);
    }
}

/* ---- the twin of Fig. 2 ---- */

static int runs_ok, retried, shortage_paper, shortage_bound;

/* gcd(a, b) by the twin, from first_nq moduli (0: the formula), against mpz_gcd. */
static void check_gcd(const struct gcd_moduli *M, const mpz_t a, const mpz_t b, size_t first_nq,
                      const char *what)
{
    mpz_t g, e;
    mpz_inits(g, e, NULL);
    mpz_gcd(e, a, b);
    struct gcd_run run;
    gcd_modular(g, a, b, M, BLOCK, first_nq, &run);
    CHECK(run.status == GCD_OK && mpz_cmp(g, e) == 0,
          "%s (L=%u %s, %zu and %zu bits, first N_Q %zu): status %d, %s GMP's", what, M->L,
          gcd_filter_name(M->filter), mpz_sizeinbase(a, 2), mpz_sizeinbase(b, 2), first_nq,
          (int)run.status, mpz_cmp(g, e) ? "differs from" : "equal to");
    runs_ok += run.status == GCD_OK;
    retried += run.attempts > 1;
    mpz_clears(g, e, NULL);
}

static void random_bits(mpz_t x, unsigned bits)
{
    gcd_case_bits(x, gmp_rng, bits);
}

static void twin_case(void *M, const mpz_t a, const mpz_t b, const char *what)
{
    check_gcd(M, a, b, 0, what);
}

/* Issue 10's cases (gcd_cases.h) up to max_bits, and a modulus as V with U a product of two. */
static void check_twin(const struct gcd_moduli *M, unsigned max_bits, unsigned pairs)
{
    const uint32_t q[3] = {M->q[0], M->q[1], M->q[5]};
    gcd_cases(gmp_rng, max_bits, pairs, 20, q, twin_case, (void *)M);
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    mpz_set_ui(b, M->q[2]);
    mpz_mul_ui(a, b, M->q[3]);
    check_gcd(M, a, b, 0, "V a modulus, U two");
    mpz_clears(a, b, NULL);
}

/* Too few moduli: from 1, 2, 8 moduli the retries must reach the answer. */
static void check_retry(const struct gcd_moduli *M, unsigned bits)
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    for (size_t first = 1; first <= 8; first *= 2) {
        random_bits(a, bits);
        random_bits(b, bits);
        int before = retried;
        check_gcd(M, a, b, first, "shortage then retry");
        CHECK(retried == before + 1, "%zu moduli for %u bits did not retry", first, bits);
    }
    mpz_clears(a, b, NULL);
}

/* Every N_Q from 1 up: an attempt either ends in GCD_SHORTAGE or gives GMP's answer. Near the
 * smallest N_Q that works, Fig. 2's own test (line 16) alone lets wrong answers through; both
 * tests must fire somewhere in the sweep. */
static void check_sweep(const struct gcd_moduli *M, unsigned bits, unsigned common_bits)
{
    mpz_t a, b, u, v, g, e;
    mpz_inits(a, b, u, v, g, e, NULL);
    gcd_case_planted(a, b, gmp_rng, bits, 3, common_bits);
    mpz_gcd(e, a, b);
    CHECK(!gcd_modular_prepare(u, v, g, a, b), "sweep inputs are not trivial");
    unsigned ok = 0, wrong = 0;
    size_t top = gcd_modular_nq_formula(mpz_sizeinbase(u, 2), M->L);
    for (size_t n = 1; n <= top && n <= M->count; n++) {
        struct gcd_run run;
        mpz_set_ui(g, 0);
        if (gcd_modular_attempt(g, u, v, M, n, &run) == GCD_OK) {
            ok++;
            wrong += mpz_cmp(g, e) != 0;
            CHECK(mpz_cmp(g, e) == 0, "sweep, %u bits, N_Q = %zu: wrong answer", bits, n);
        } else {
            shortage_paper += run.shortage == GCD_SHORT_PAPER_TEST;
            shortage_bound += run.shortage == GCD_SHORT_BOUND;
        }
    }
    CHECK(ok > 0 && wrong == 0, "sweep, %u bits: %u answers, %u wrong", bits, ok, wrong);
    mpz_clears(a, b, u, v, g, e, NULL);
}

/* An attempt whose V is a multiple of the product of Q never enters the reduction loop; only
 * the bound test can see it. */
static void check_hidden_v(const struct gcd_moduli *M)
{
    mpz_t u, v, g;
    mpz_inits(u, v, g, NULL);
    mpz_set_ui(v, 1);
    for (int i = 0; i < 4; i++)
        mpz_mul_ui(v, v, M->q[i]);
    random_bits(u, 200);
    mpz_mul_2exp(u, u, 60);
    struct gcd_run run;
    mpz_set_ui(g, 7);
    CHECK(gcd_modular_attempt(g, u, v, M, 4, &run) == GCD_SHORTAGE &&
              run.shortage == GCD_SHORT_BOUND && run.steps == 0 && mpz_cmp_ui(g, 7) == 0,
          "V = 0 mod every q of Q: status %d, shortage %d, %llu steps", (int)run.status,
          (int)run.shortage, (unsigned long long)run.steps);
    mpz_clears(u, v, g, NULL);
}

/* Fig. 2 line 3 and the end of the retries: inputs past M fail cleanly, g untouched. */
static void check_too_large(const struct gcd_moduli *M)
{
    mpz_t a, b, g;
    mpz_inits(a, b, g, NULL);
    random_bits(a, 30000);
    random_bits(b, 29000);
    mpz_set_ui(g, 7);
    struct gcd_run run;
    gcd_modular(g, a, b, M, BLOCK, 0, &run);
    CHECK(run.status == GCD_TOO_LARGE && run.attempts == 0 && mpz_cmp_ui(g, 7) == 0,
          "30000 bits with %llu moduli: status %d", (unsigned long long)M->count, (int)run.status);
    size_t n;
    CHECK(gcd_modular_nq(30000, M->L, BLOCK, M->count, &n) == GCD_TOO_LARGE, "gcd_modular_nq");
    CHECK(gcd_modular_retry_nq(M->count, BLOCK, M->count) == 0, "retry past M");
    CHECK(gcd_modular_retry_nq(3, BLOCK, M->count) == BLOCK, "retry rounds to the block");
    CHECK(gcd_modular_nq(1, 32, BLOCK, 1000, &n) == GCD_OK && n == BLOCK, "N_Q of U = 1: %zu", n);
    CHECK(gcd_modular_nq_formula(1, 32) == gcd_modular_nq_formula(2, 32), "clamp of N_u = 1");
    mpz_clears(a, b, g, NULL);
}

int main(void)
{
    seed = test_seed();
    rng = seed;
    gmp_randinit_default(gmp_rng);
    gmp_randseed_ui(gmp_rng, (unsigned long)seed);
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/mpgpu_gcd_XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        printf("cannot create a directory under %s\n", base ? base : "/tmp");
        return 1;
    }

    /* L = 16 and 20: the whole of M against mpz_nextprime. */
    struct gcd_moduli all16, cheap16, all20, cheap20;
    CHECK(gcd_moduli_build(&all16, 16, GCD_FILTER_ALL) == 0, "build L=16");
    CHECK(gcd_moduli_build(&cheap16, 16, GCD_FILTER_CHEAP) == 0, "build L=16 cheap");
    CHECK(gcd_moduli_build(&all20, 20, GCD_FILTER_ALL) == 0, "build L=20");
    CHECK(gcd_moduli_build(&cheap20, 20, GCD_FILTER_CHEAP) == 0, "build L=20 cheap");
    CHECK(all16.count == PRIMES_16 && all20.count == PRIMES_20, "counts %llu %llu",
          (unsigned long long)all16.count, (unsigned long long)all20.count);
    check_window(&all16, &cheap16, (1u << 15) + 1, 1u << 16);
    check_window(&all20, &cheap20, (1u << 19) + 1, 1u << 20);
    struct gcd_moduli bad;
    CHECK(gcd_moduli_build(&bad, 15, GCD_FILTER_ALL) != 0 &&
              gcd_moduli_build(&bad, 33, GCD_FILTER_ALL) != 0,
          "L outside 16..32 accepted");
    printf("L=16: %llu primes, %llu cheap; L=20: %llu primes, %llu cheap\n",
           (unsigned long long)all16.count, (unsigned long long)cheap16.count,
           (unsigned long long)all20.count, (unsigned long long)cheap20.count);

    /* L = 32: the cheap set through the cache (built, then read back), the whole set in memory. */
    char name[64];
    gcd_moduli_cache_name(name, sizeof name, 32, GCD_FILTER_CHEAP);
    char path32[512];
    snprintf(path32, sizeof path32, "%s", tmp_path(name));
    struct gcd_moduli cheap32, cheap32_read, all32;
    double t0 = test_seconds();
    CHECK(gcd_moduli_load(path32, 32, GCD_FILTER_CHEAP, &cheap32, NULL) == 1, "L=32 build");
    double t_build = test_seconds() - t0;
    t0 = test_seconds();
    CHECK(gcd_moduli_load(path32, 32, GCD_FILTER_CHEAP, &cheap32_read, stdout) == 0 &&
              same_moduli(&cheap32, &cheap32_read),
          "L=32 cache read back");
    double t_read = test_seconds() - t0;
    gcd_moduli_free(&cheap32_read);
    t0 = test_seconds();
    CHECK(gcd_moduli_build(&all32, 32, GCD_FILTER_ALL) == 0, "L=32 all build");
    double t_all = test_seconds() - t0;
    CHECK(all32.count == PRIMES_32 && cheap32.count == CHEAP_32, "L=32: %llu primes, %llu cheap",
          (unsigned long long)all32.count, (unsigned long long)cheap32.count);
    printf("L=32: %llu primes, %llu cheap (%.2f %%); cheap set sieved, filtered and cached in "
           "%.2f s, read back in %.2f s; whole set sieved in %.2f s\n",
           (unsigned long long)all32.count, (unsigned long long)cheap32.count,
           100.0 * (double)cheap32.count / (double)all32.count, t_build, t_read, t_all);
    const uint64_t lo32 = ((uint64_t)1 << 31) + 1, hi32 = (uint64_t)1 << 32;
    check_window(&all32, &cheap32, lo32, lo32 + 100000);
    check_window(&all32, &cheap32, hi32 - 100000, hi32);
    for (int i = 0; i < 4; i++) {
        uint64_t at = lo32 + rand64() % ((uint64_t)1 << 31);
        at = at + 50000 > hi32 ? hi32 - 50000 : at;
        check_window(&all32, &cheap32, at, at + 50000);
    }

    const struct gcd_moduli *sets[] = {&all16, &cheap16, &all20, &cheap20, &all32, &cheap32};
    for (int i = 0; i < 6; i++) {
        check_fastrem(sets[i], 48, 3000);
        check_modinv(sets[i], 16, 300);
    }
    check_quotients(200000);

    check_counts(sets, 6);
    check_cache(&all20, &all16);
    check_cache(&cheap16, &cheap20);
    check_uncached(&cheap16);
    check_cache_dir();

    /* The twin: L = 32 (the paper's), and the other paths at small sizes. */
    t0 = test_seconds();
    check_twin(&cheap32, 8192, 3);
    check_twin(&all32, 1024, 2);
    check_twin(&cheap20, 1024, 2);
    check_twin(&all16, 512, 2);
    check_twin(&cheap16, 512, 2);
    check_retry(&cheap32, 2048);
    check_retry(&all16, 512);
    check_sweep(&cheap32, 512, 1);
    check_sweep(&cheap32, 300, 200);
    check_sweep(&all16, 300, 20);
    check_sweep(&cheap16, 256, 1);
    CHECK(shortage_paper > 0 && shortage_bound > 0,
          "sweeps: %d shortages by Fig. 2 line 16, %d by the bound; both must occur",
          shortage_paper, shortage_bound);
    check_hidden_v(&cheap32);
    check_too_large(&cheap16);
    printf("twin: %d runs equal to mpz_gcd, %d after a retry; sweeps: %d shortages by Fig. 2 "
           "line 16, %d by the bound only (%.1f s)\n",
           runs_ok, retried, shortage_paper, shortage_bound, test_seconds() - t0);

    for (int i = 0; i < 6; i++)
        gcd_moduli_free((struct gcd_moduli *)sets[i]);
    remove(path32);
    rmdir(tmpdir);
    gmp_randclear(gmp_rng);
    return test_finish("test_gcd_cpu");
}
