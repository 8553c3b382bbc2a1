/* cpu suite: libmpgpu's fixed-precision calls that need no GPU (mpgpu.h): the built precisions
 * against the build's list (fixed_bits.h), the operations' names and shapes, the Montgomery
 * constants of mpgpu_fixed_modulus_set against GMP's (cpu_ref/fixed_ref.c) for moduli of every
 * built precision, the layouts of mpgpu_fixed_pack and _unpack against the kernels' indexing,
 * ptxas's records, and every argument check of every call, which must return its code before
 * any CUDA call (so the same codes come back on a machine without a GPU or driver). */
#include <stdio.h>
#include <string.h>

#include "fixed_bits.h"
#include "fixed_ref.h"
#include "mpgpu.h"
#include "random_words.h"
#include "test_seed.h"

static const unsigned built[] = {MPGPU_FIXED_BITS};
#define N_BUILT (sizeof built / sizeof built[0])
#define MAX_WORDS MPGPU_FIXED_MAX_WORDS

static void test_bits(void)
{
    CHECK(mpgpu_fixed_bits_count() == N_BUILT, "%zu precisions, the build has %zu",
          mpgpu_fixed_bits_count(), N_BUILT);
    for (size_t i = 0; i < N_BUILT; i++) {
        unsigned bits = 0;
        CHECK(mpgpu_fixed_bits_get(i, &bits) == MPGPU_OK && bits == built[i],
              "precision %zu: %u, the build's %u", i, bits, built[i]);
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
            CHECK(mpgpu_fixed_check((mpgpu_fixed_op)op, built[i]) == MPGPU_OK, "op %d at %u bits",
                  op, built[i]);
    }
    unsigned bits;
    CHECK(mpgpu_fixed_bits_get(N_BUILT, &bits) == MPGPU_ERR_BAD_ARGUMENT, "index past the end");
    CHECK(mpgpu_fixed_bits_get(0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL bits");
    /* 200 is in no default build (test_cli_fixed.sh counts on that too). */
    CHECK(mpgpu_fixed_check(MPGPU_FIXED_ADD, 200) == MPGPU_ERR_UNSUPPORTED_SIZE, "200 bits");
    CHECK(mpgpu_fixed_check(MPGPU_FIXED_ADD, 0) == MPGPU_ERR_UNSUPPORTED_SIZE, "0 bits");
    CHECK(mpgpu_fixed_check((mpgpu_fixed_op)MPGPU_FIXED_N_OPS, 256) == MPGPU_ERR_UNKNOWN_METHOD,
          "op past the last");
    CHECK(mpgpu_fixed_check((mpgpu_fixed_op)-1, 256) == MPGPU_ERR_UNKNOWN_METHOD, "op -1");
    /* fp64 and hybrid have montmul and powm alone; ptx and c every op. */
    for (int op = 0; op < MPGPU_FIXED_N_OPS; op++) {
        const mpgpu_status montgomery = op == MPGPU_FIXED_MONTMUL || op == MPGPU_FIXED_POWM
                                            ? MPGPU_OK
                                            : MPGPU_ERR_UNKNOWN_METHOD;
        CHECK(mpgpu_fixed_impl_check((mpgpu_fixed_op)op, MPGPU_FIXED_IMPL_PTX) == MPGPU_OK &&
                  mpgpu_fixed_impl_check((mpgpu_fixed_op)op, MPGPU_FIXED_IMPL_C) == MPGPU_OK &&
                  mpgpu_fixed_impl_check((mpgpu_fixed_op)op, MPGPU_FIXED_IMPL_FP64) == montgomery &&
                  mpgpu_fixed_impl_check((mpgpu_fixed_op)op, MPGPU_FIXED_IMPL_HYBRID) == montgomery,
              "the impls of op %d", op);
    }
    CHECK(mpgpu_fixed_impl_check(MPGPU_FIXED_MONTMUL, (mpgpu_fixed_impl)MPGPU_FIXED_N_IMPLS) ==
              MPGPU_ERR_BAD_ARGUMENT, "impl past the last");
    CHECK(mpgpu_fixed_impl_check((mpgpu_fixed_op)MPGPU_FIXED_N_OPS, MPGPU_FIXED_IMPL_FP64) ==
              MPGPU_ERR_UNKNOWN_METHOD, "op past the last, fp64");
}

static void test_ops(void)
{
    static const char *const names[] = {"add", "sub", "addm", "subm", "mul", "karatsuba",
                                        "montred", "montmul", "powm"};
    for (int op = 0; op < MPGPU_FIXED_N_OPS; op++) {
        const mpgpu_fixed_op o = (mpgpu_fixed_op)op;
        for (unsigned bits = MPGPU_FIXED_MIN_BITS; bits <= MPGPU_FIXED_MAX_BITS; bits += 61) {
            mpgpu_fixed_op_info info;
            const unsigned n = (bits + 31) / 32;
            CHECK(mpgpu_fixed_op_get(o, bits, &info) == MPGPU_OK, "op %d at %u bits", op, bits);
            CHECK(!strcmp(info.name, names[op]) && info.summary && *info.summary,
                  "op %d is '%s', want '%s'", op, info.name, names[op]);
            CHECK(info.words == n && info.a_words == (o == MPGPU_FIXED_MONTRED ? 2 * n : n) &&
                      info.b_words == (o == MPGPU_FIXED_MONTRED ? 0 : n) &&
                      info.r_words ==
                          (o == MPGPU_FIXED_MUL || o == MPGPU_FIXED_KARATSUBA ? 2 * n : n),
                  "%s at %u bits: words %u, %u, %u, %u", names[op], bits, info.words,
                  info.a_words, info.b_words, info.r_words);
            CHECK(info.modular == (o == MPGPU_FIXED_ADDM || o == MPGPU_FIXED_SUBM ||
                                   o >= MPGPU_FIXED_MONTRED) &&
                      info.montgomery == (o >= MPGPU_FIXED_MONTRED),
                  "%s: modular %d, montgomery %d", names[op], info.modular, info.montgomery);
        }
        mpgpu_fixed_op found;
        CHECK(mpgpu_fixed_op_find(names[op], &found) == MPGPU_OK && found == o, "find %s",
              names[op]);
    }
    mpgpu_fixed_op_info info;
    mpgpu_fixed_op found;
    CHECK(mpgpu_fixed_op_get(MPGPU_FIXED_ADD, 256, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
    CHECK(mpgpu_fixed_op_get((mpgpu_fixed_op)9, 256, &info) == MPGPU_ERR_UNKNOWN_METHOD, "op 9");
    CHECK(mpgpu_fixed_op_get(MPGPU_FIXED_ADD, 63, &info) == MPGPU_ERR_UNSUPPORTED_SIZE, "63 bits");
    CHECK(mpgpu_fixed_op_get(MPGPU_FIXED_ADD, 1025, &info) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "1025 bits");
    CHECK(mpgpu_fixed_op_find("div", &found) == MPGPU_ERR_UNKNOWN_METHOD, "unknown name");
    CHECK(mpgpu_fixed_op_find("", &found) == MPGPU_ERR_UNKNOWN_METHOD, "empty name");
    CHECK(mpgpu_fixed_op_find(NULL, &found) == MPGPU_ERR_BAD_ARGUMENT, "NULL name");
    CHECK(mpgpu_fixed_op_find("add", NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL op");
}

/* mod against GMP's R^2 mod m and -m^-1 mod 2^32 (for odd m). */
static void check_modulus(unsigned bits, const uint32_t *m, const char *what)
{
    const unsigned n = (bits + 31) / 32;
    mpgpu_fixed_modulus mod;
    uint32_t r2[MAX_WORDS] = {0};
    CHECK(mpgpu_fixed_modulus_set(&mod, bits, m) == MPGPU_OK, "%u bits, %s", bits, what);
    fixed_r2(n, m, r2);
    CHECK(mod.bits == bits && !memcmp(mod.m, m, n * 4) && !memcmp(mod.r2, r2, sizeof r2),
          "%u bits, %s: m or R^2 mod m differs from GMP's", bits, what);
    for (unsigned j = n; j < MAX_WORDS; j++)
        CHECK(mod.m[j] == 0, "%u bits, %s: m word %u above n", bits, what, j);
    CHECK(m[0] & 1 ? (uint32_t)(mod.m_inv * m[0]) == ~0u : mod.m_inv == 0,
          "%u bits, %s: m_inv %08x", bits, what, mod.m_inv);
}

static void test_modulus(void)
{
    for (size_t i = 0; i < N_BUILT + 2; i++) {
        /* the built precisions, and the extremes any build may have */
        const unsigned bits = i < N_BUILT ? built[i] : i == N_BUILT ? MPGPU_FIXED_MIN_BITS
                                                                     : MPGPU_FIXED_MAX_BITS;
        const unsigned n = (bits + 31) / 32;
        const uint32_t top = bits % 32 ? (1u << (bits % 32)) - 1 : ~0u;
        uint32_t m[MAX_WORDS] = {0};
        for (uint64_t k = 0; k < 8; k++) {
            fixed_random_modulus(bits, seed + k, m);
            check_modulus(bits, m, "a random odd modulus");
            m[0] &= ~1u;
            check_modulus(bits, m, "a random even modulus");
        }
        for (unsigned j = 0; j < n; j++) /* 2^P - 1 */
            m[j] = j + 1 < n ? ~0u : top;
        check_modulus(bits, m, "2^P - 1");
        memset(m, 0, sizeof m);
        m[0] = 3;
        check_modulus(bits, m, "3");
        m[0] = 4;
        check_modulus(bits, m, "4");
        m[0] = 1;
        m[n - 1] |= 1u << ((bits - 1) % 32);
        check_modulus(bits, m, "2^(P-1) + 1");

        mpgpu_fixed_modulus mod;
        memset(m, 0, sizeof m);
        m[0] = 2;
        CHECK(mpgpu_fixed_modulus_set(&mod, bits, m) == MPGPU_ERR_BAD_ARGUMENT, "%u bits: m = 2",
              bits);
        m[0] = 0;
        CHECK(mpgpu_fixed_modulus_set(&mod, bits, m) == MPGPU_ERR_BAD_ARGUMENT, "%u bits: m = 0",
              bits);
        if (bits % 32) {
            m[n - 1] = 1u << (bits % 32);
            CHECK(mpgpu_fixed_modulus_set(&mod, bits, m) == MPGPU_ERR_BAD_ARGUMENT,
                  "%u bits: m = 2^P", bits);
        }
    }
    mpgpu_fixed_modulus mod;
    const uint32_t m[MAX_WORDS] = {5};
    CHECK(mpgpu_fixed_modulus_set(NULL, 256, m) == MPGPU_ERR_BAD_ARGUMENT, "NULL mod");
    CHECK(mpgpu_fixed_modulus_set(&mod, 256, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL m");
    CHECK(mpgpu_fixed_modulus_set(&mod, 63, m) == MPGPU_ERR_UNSUPPORTED_SIZE, "63 bits");
    CHECK(mpgpu_fixed_modulus_set(&mod, 1025, m) == MPGPU_ERR_UNSUPPORTED_SIZE, "1025 bits");
}

/* mpgpu_fixed_pack and _unpack against the kernels' index (fixed_kernels.cu's Layout::index):
 * word j of element p at (coalesced ? j * count + p : p * words + j) * step, b's array at +1
 * when interleaved. */
static void test_layouts(void)
{
    enum { COUNT = 5, BITS = 109, N = 4 };
    static uint32_t a[COUNT * 2 * N], b[COUNT * N], packed[COUNT * 3 * N], back[COUNT * 2 * N];
    random_words(seed, 1, a, COUNT * 2 * N);
    random_words(seed, 2, b, COUNT * N);
    for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
        for (int layout = 0; layout < 4; layout++) {
            mpgpu_fixed_options o = mpgpu_fixed_default_options();
            o.interleaved = layout & 1;
            o.coalesced = layout >> 1;
            mpgpu_fixed_op_info info;
            mpgpu_fixed_op_get((mpgpu_fixed_op)op, BITS, &info);
            const int inter = o.interleaved && info.b_words;
            size_t aw, bw, rw;
            CHECK(mpgpu_fixed_layout_words((mpgpu_fixed_op)op, BITS, COUNT, &o, &aw, &bw, &rw) ==
                          MPGPU_OK &&
                      aw == (size_t)COUNT * (info.a_words + (inter ? info.b_words : 0)) &&
                      bw == (inter ? 0 : (size_t)COUNT * info.b_words) &&
                      rw == (size_t)COUNT * info.r_words,
                  "%s layout %d: words %zu, %zu, %zu", info.name, layout, aw, bw, rw);
            memset(packed, 0, sizeof packed);
            CHECK(mpgpu_fixed_pack((mpgpu_fixed_op)op, BITS, COUNT, &o, a, info.b_words ? b : NULL,
                                   packed, bw ? packed + aw : NULL) == MPGPU_OK,
                  "%s layout %d: pack", info.name, layout);
            const unsigned step = inter ? 2 : 1;
            int same = 1;
            for (unsigned p = 0; p < COUNT; p++) {
                for (unsigned j = 0; j < info.a_words; j++) {
                    size_t k = (o.coalesced ? (size_t)j * COUNT + p : p * info.a_words + j) * step;
                    same &= packed[k] == a[p * info.a_words + j];
                }
                for (unsigned j = 0; j < info.b_words; j++) {
                    size_t k = (o.coalesced ? (size_t)j * COUNT + p : p * info.b_words + j) * step;
                    same &= (inter ? packed[k + 1] : packed[aw + k]) == b[p * info.b_words + j];
                }
            }
            CHECK(same, "%s layout %d: packed words not where the kernels read them", info.name,
                  layout);
            /* the results' layout: word j of element p as the kernels write it */
            for (unsigned p = 0; p < COUNT; p++)
                for (unsigned j = 0; j < info.r_words; j++)
                    packed[o.coalesced ? (size_t)j * COUNT + p : p * info.r_words + j] =
                        a[p * info.r_words + j];
            CHECK(mpgpu_fixed_unpack((mpgpu_fixed_op)op, BITS, COUNT, &o, packed, back) == MPGPU_OK &&
                      !memcmp(back, a, (size_t)COUNT * info.r_words * 4),
                  "%s layout %d: unpack", info.name, layout);
            if (op != MPGPU_FIXED_MONTMUL)
                continue;
            /* one modulus per element: laid out as n-word results are */
            CHECK(mpgpu_fixed_pack_moduli(BITS, COUNT, &o, b, packed) == MPGPU_OK,
                  "layout %d: pack_moduli", layout);
            same = 1;
            for (unsigned p = 0; p < COUNT; p++)
                for (unsigned j = 0; j < N; j++)
                    same &= packed[o.coalesced ? (size_t)j * COUNT + p : p * N + j] == b[p * N + j];
            CHECK(same, "layout %d: moduli not where the kernels read them", layout);
        }
}

/* mpgpu_fixed_device_moduli and _pack_moduli refuse before any CUDA call. */
static void test_moduli_arguments(void)
{
    static uint32_t a[64], b[64], r[64], m[64];
    mpgpu_fixed_options fp64 = mpgpu_fixed_default_options();
    fp64.impl = MPGPU_FIXED_IMPL_FP64;
    const struct {
        const char *what;
        mpgpu_fixed_op op;
        const mpgpu_fixed_options *opts;
        const uint32_t *d_m;
        uint32_t *d_r;
        size_t count;
        mpgpu_status want;
    } cases[] = {
        {"add takes no modulus", MPGPU_FIXED_ADD, NULL, m, r, 1, MPGPU_ERR_UNKNOWN_METHOD},
        {"mul takes no modulus", MPGPU_FIXED_MUL, NULL, m, r, 1, MPGPU_ERR_UNKNOWN_METHOD},
        {"fp64 addm", MPGPU_FIXED_ADDM, &fp64, m, r, 1, MPGPU_ERR_UNKNOWN_METHOD},
        {"no moduli", MPGPU_FIXED_MONTMUL, NULL, NULL, r, 1, MPGPU_ERR_BAD_ARGUMENT},
        {"misaligned moduli", MPGPU_FIXED_MONTMUL, NULL, (const uint32_t *)((const char *)m + 2),
         r, 1, MPGPU_ERR_BAD_ARGUMENT},
        {"moduli overlap the results", MPGPU_FIXED_POWM, &fp64, r + 4, r, 1, MPGPU_ERR_BAD_ARGUMENT},
        {"count 0", MPGPU_FIXED_POWM, NULL, NULL, NULL, 0, MPGPU_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mpgpu_status st = mpgpu_fixed_device_moduli(cases[i].op, 256, cases[i].count,
                                                          cases[i].opts, cases[i].d_m, a, b,
                                                          cases[i].d_r, NULL);
        CHECK(st == cases[i].want, "mpgpu_fixed_device_moduli, %s: %s, want %s", cases[i].what,
              mpgpu_status_string(st), mpgpu_status_string(cases[i].want));
    }
    CHECK(mpgpu_fixed_pack_moduli(256, 2, NULL, m, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "pack_moduli: NULL output");
    CHECK(mpgpu_fixed_pack_moduli(256, 2, NULL, m, m + 4) == MPGPU_ERR_BAD_ARGUMENT,
          "pack_moduli: overlapping");
    CHECK(mpgpu_fixed_pack_moduli(32, 2, NULL, m, r) == MPGPU_ERR_UNSUPPORTED_SIZE,
          "pack_moduli: 32 bits");
}

static void test_resources(void)
{
    const size_t n = mpgpu_fixed_resources_count();
    /* (9 operations x 2 implementations + fp64's and hybrid's montmul and powm) x 2 memories
     * per precision */
    CHECK(n == N_BUILT * (MPGPU_FIXED_N_OPS * 2 + 4) * 2, "%zu ptxas records", n);
    int seen[N_BUILT][MPGPU_FIXED_N_OPS][MPGPU_FIXED_N_IMPLS][2] = {{{{0}}}};
    for (size_t i = 0; i < n; i++) {
        mpgpu_fixed_resources k;
        CHECK(mpgpu_fixed_resources_get(i, &k) == MPGPU_OK, "record %zu", i);
        size_t s = 0;
        while (s < N_BUILT && built[s] != k.bits)
            s++;
        const int ok = s < N_BUILT && (unsigned)k.op < MPGPU_FIXED_N_OPS &&
                       (unsigned)k.impl < MPGPU_FIXED_N_IMPLS &&
                       (unsigned)k.global_mem < 2 && k.registers > 0 && k.registers <= 255;
        CHECK(ok, "record %zu: %u bits, op %d, impl %d, mem %d, %u registers", i, k.bits,
              (int)k.op, (int)k.impl, k.global_mem, k.registers);
        if (ok)
            seen[s][k.op][k.impl][k.global_mem]++;
    }
    for (size_t s = 0; s < N_BUILT; s++)
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++)
            for (int i = 0; i < 2 * MPGPU_FIXED_N_IMPLS; i++) {
                const int want = mpgpu_fixed_impl_check((mpgpu_fixed_op)op,
                                                        (mpgpu_fixed_impl)(i >> 1)) == MPGPU_OK;
                CHECK(seen[s][op][i >> 1][i & 1] == want, "%u bits op %d impl %d mem %d: %d records",
                      built[s], op, i >> 1, i & 1, seen[s][op][i >> 1][i & 1]);
            }
    mpgpu_fixed_resources k;
    CHECK(mpgpu_fixed_resources_get(n, &k) == MPGPU_ERR_BAD_ARGUMENT, "index past the end");
    CHECK(mpgpu_fixed_resources_get(0, NULL) == MPGPU_ERR_BAD_ARGUMENT, "NULL info");
}

typedef mpgpu_status (*fixed_call)(mpgpu_fixed_op, unsigned, size_t, const mpgpu_fixed_options *,
                                   const mpgpu_fixed_modulus *, const uint32_t *,
                                   const uint32_t *, uint32_t *);

static mpgpu_status device_default_stream(mpgpu_fixed_op op, unsigned bits, size_t count,
                                          const mpgpu_fixed_options *opts,
                                          const mpgpu_fixed_modulus *mod, const uint32_t *a,
                                          const uint32_t *b, uint32_t *r)
{
    return mpgpu_fixed_device(op, bits, count, opts, mod, a, b, r, NULL);
}

/* The pointers are never dereferenced: every case fails its checks, or has count 0. */
static void test_arguments(const char *name, fixed_call call)
{
    static uint32_t a[64], b[64], r[64];
    const uint32_t odd[MAX_WORDS] = {0x12345677u, 0, 0, 0, 0, 0, 0, 0x80000000u};
    uint32_t even[MAX_WORDS];
    memcpy(even, odd, sizeof even);
    even[0]--;
    mpgpu_fixed_modulus m256, m256_even, m384;
    uint32_t m384_words[MAX_WORDS] = {0};
    m384_words[0] = 7;
    CHECK(mpgpu_fixed_modulus_set(&m256, 256, odd) == MPGPU_OK &&
              mpgpu_fixed_modulus_set(&m256_even, 256, even) == MPGPU_OK &&
              mpgpu_fixed_modulus_set(&m384, 384, m384_words) == MPGPU_OK,
          "%s: the moduli", name);
    const mpgpu_fixed_options dflt = mpgpu_fixed_default_options();
    mpgpu_fixed_options bad_impl = dflt, bad_chain = dflt, bad_block = dflt, big_block = dflt,
                        bad_grid = dflt, bad_flag = dflt, inter = dflt, fp64 = dflt,
                        hybrid = dflt;
    bad_impl.impl = (mpgpu_fixed_impl)MPGPU_FIXED_N_IMPLS;
    fp64.impl = MPGPU_FIXED_IMPL_FP64;
    hybrid.impl = MPGPU_FIXED_IMPL_HYBRID;
    bad_chain.chain = 0;
    bad_block.block = 0;
    big_block.block = 1025;
    bad_grid.grid = 0x80000000u;
    bad_flag.coalesced = 2;
    inter.interleaved = 1;
    const struct {
        const char *what;
        mpgpu_fixed_op op;
        unsigned bits;
        size_t count;
        const mpgpu_fixed_options *opts;
        const mpgpu_fixed_modulus *mod;
        const uint32_t *a, *b;
        uint32_t *r;
        mpgpu_status want;
    } cases[] = {
        {"unknown op", (mpgpu_fixed_op)9, 256, 1, NULL, &m256, a, b, r, MPGPU_ERR_UNKNOWN_METHOD},
        {"bits not built", MPGPU_FIXED_ADD, 200, 1, NULL, NULL, a, b, r,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"bits 0", MPGPU_FIXED_ADD, 0, 1, NULL, NULL, a, b, r, MPGPU_ERR_UNSUPPORTED_SIZE},
        {"impl 4", MPGPU_FIXED_ADD, 256, 1, &bad_impl, NULL, a, b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"fp64 add", MPGPU_FIXED_ADD, 256, 1, &fp64, NULL, a, b, r, MPGPU_ERR_UNKNOWN_METHOD},
        {"fp64 montred", MPGPU_FIXED_MONTRED, 256, 1, &fp64, &m256, a, NULL, r,
         MPGPU_ERR_UNKNOWN_METHOD},
        {"hybrid mul", MPGPU_FIXED_MUL, 256, 1, &hybrid, NULL, a, b, r, MPGPU_ERR_UNKNOWN_METHOD},
        {"hybrid addm", MPGPU_FIXED_ADDM, 256, 1, &hybrid, &m256, a, b, r,
         MPGPU_ERR_UNKNOWN_METHOD},
        {"chain 0", MPGPU_FIXED_ADD, 256, 1, &bad_chain, NULL, a, b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"block 0", MPGPU_FIXED_ADD, 256, 1, &bad_block, NULL, a, b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"block 1025", MPGPU_FIXED_ADD, 256, 1, &big_block, NULL, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"grid 2^31", MPGPU_FIXED_ADD, 256, 1, &bad_grid, NULL, a, b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"coalesced 2", MPGPU_FIXED_ADD, 256, 1, &bad_flag, NULL, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"addm without a modulus", MPGPU_FIXED_ADDM, 256, 1, NULL, NULL, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"montmul, modulus of 384 bits", MPGPU_FIXED_MONTMUL, 256, 1, NULL, &m384, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"montred, even modulus", MPGPU_FIXED_MONTRED, 256, 1, NULL, &m256_even, a, NULL, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"montmul, even modulus", MPGPU_FIXED_MONTMUL, 256, 1, NULL, &m256_even, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"powm, even modulus", MPGPU_FIXED_POWM, 256, 1, NULL, &m256_even, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"count overflows", MPGPU_FIXED_MUL, 256, SIZE_MAX / 64, NULL, NULL, a, b, r,
         MPGPU_ERR_BAD_ARGUMENT},
        {"NULL a", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, NULL, b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL b", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, a, NULL, r, MPGPU_ERR_BAD_ARGUMENT},
        {"NULL r", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, a, b, NULL, MPGPU_ERR_BAD_ARGUMENT},
        {"r overlaps a", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, a, b, a + 7, MPGPU_ERR_BAD_ARGUMENT},
        {"r overlaps b", MPGPU_FIXED_MUL, 256, 1, NULL, NULL, a, b, (uint32_t *)b + 4,
         MPGPU_ERR_BAD_ARGUMENT},
        {"a misaligned", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, (const uint32_t *)((const char *)a + 2),
         b, r, MPGPU_ERR_BAD_ARGUMENT},
        {"r misaligned", MPGPU_FIXED_ADD, 256, 1, NULL, NULL, a, b, (uint32_t *)((char *)r + 1),
         MPGPU_ERR_BAD_ARGUMENT},
        {"count 0, NULL arrays", MPGPU_FIXED_MONTMUL, 256, 0, NULL, &m256, NULL, NULL, NULL,
         MPGPU_OK},
        {"count 0, unknown op", (mpgpu_fixed_op)9, 256, 0, NULL, NULL, NULL, NULL, NULL,
         MPGPU_ERR_UNKNOWN_METHOD},
        {"count 0, bits not built", MPGPU_FIXED_ADD, 200, 0, NULL, NULL, NULL, NULL, NULL,
         MPGPU_ERR_UNSUPPORTED_SIZE},
        {"count 0, powm without a modulus", MPGPU_FIXED_POWM, 256, 0, NULL, NULL, NULL, NULL,
         NULL, MPGPU_ERR_BAD_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpgpu_status got = call(cases[i].op, cases[i].bits, cases[i].count, cases[i].opts,
                                cases[i].mod, cases[i].a, cases[i].b, cases[i].r);
        CHECK(got == cases[i].want, "%s, %s: status %d (%s), want %d", name, cases[i].what,
              (int)got, mpgpu_status_string(got), (int)cases[i].want);
    }
    /* Interleaved operands: the device call takes both in d_a, so refuses a d_b; the host
     * call's arrays stay element-major, so it needs b. */
    if (call == device_default_stream) {
        CHECK(call(MPGPU_FIXED_ADD, 256, 1, &inter, NULL, a, b, r) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: interleaved with a d_b", name);
        CHECK(call(MPGPU_FIXED_MONTRED, 256, 1, NULL, &m256, a, b, r) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: montred with a d_b", name);
    } else
        CHECK(call(MPGPU_FIXED_ADD, 256, 1, &inter, NULL, a, NULL, r) == MPGPU_ERR_BAD_ARGUMENT,
              "%s: interleaved without b", name);
    /* No CUDA call was made, so none failed. */
    mpgpu_error_info info;
    mpgpu_last_error(&info);
    CHECK(info.cuda_error == 0 && !strcmp(info.cuda_call, ""), "%s: a CUDA failure was recorded",
          name);
}

/* mpgpu_fixed_layout_words, _pack and _unpack refuse what they cannot lay out. */
static void test_layout_arguments(void)
{
    static uint32_t a[64], b[64], packed[256];
    size_t aw;
    mpgpu_fixed_options bad = mpgpu_fixed_default_options(), inter = bad;
    bad.chain = 0;
    inter.interleaved = 1;
    CHECK(mpgpu_fixed_layout_words((mpgpu_fixed_op)9, 256, 1, NULL, &aw, NULL, NULL) ==
              MPGPU_ERR_UNKNOWN_METHOD, "layout_words: op 9");
    CHECK(mpgpu_fixed_layout_words(MPGPU_FIXED_ADD, 1025, 1, NULL, &aw, NULL, NULL) ==
              MPGPU_ERR_UNSUPPORTED_SIZE, "layout_words: 1025 bits");
    CHECK(mpgpu_fixed_layout_words(MPGPU_FIXED_ADD, 256, 1, &bad, &aw, NULL, NULL) ==
              MPGPU_ERR_BAD_ARGUMENT, "layout_words: chain 0");
    CHECK(mpgpu_fixed_layout_words(MPGPU_FIXED_ADD, 256, SIZE_MAX / 32, NULL, &aw, NULL, NULL) ==
              MPGPU_ERR_BAD_ARGUMENT, "layout_words: count overflows");
    CHECK(mpgpu_fixed_layout_words(MPGPU_FIXED_ADD, 200, 1, NULL, &aw, NULL, NULL) == MPGPU_OK &&
              aw == 7, "layout_words: 200 bits need not be built");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, NULL, a, b, packed, NULL) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: separate, no packed_b");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, &inter, a, b, packed, packed + 16) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: interleaved with a packed_b");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, NULL, a, NULL, packed, packed + 8) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: NULL b");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, NULL, NULL, b, packed, packed + 8) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: NULL a");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, NULL, a, b, a + 4, packed) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: packed_a overlaps a");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 1, NULL, a, b, packed, packed + 4) ==
              MPGPU_ERR_BAD_ARGUMENT, "pack: packed_b overlaps packed_a");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_MONTRED, 256, 1, &inter, a, NULL, packed, NULL) == MPGPU_OK,
          "pack: montred ignores interleaved");
    CHECK(mpgpu_fixed_pack(MPGPU_FIXED_ADD, 256, 0, NULL, NULL, NULL, NULL, NULL) == MPGPU_OK,
          "pack: count 0");
    CHECK(mpgpu_fixed_unpack(MPGPU_FIXED_MUL, 256, 1, NULL, NULL, a) == MPGPU_ERR_BAD_ARGUMENT,
          "unpack: NULL packed_r");
    CHECK(mpgpu_fixed_unpack(MPGPU_FIXED_MUL, 256, 1, NULL, packed, NULL) == MPGPU_ERR_BAD_ARGUMENT,
          "unpack: NULL r");
    CHECK(mpgpu_fixed_unpack(MPGPU_FIXED_MUL, 256, 1, NULL, packed, packed + 15) ==
              MPGPU_ERR_BAD_ARGUMENT, "unpack: r overlaps packed_r");
    CHECK(mpgpu_fixed_unpack(MPGPU_FIXED_MUL, 256, 1, &bad, packed, a) == MPGPU_ERR_BAD_ARGUMENT,
          "unpack: chain 0");
    const mpgpu_fixed_options d = mpgpu_fixed_default_options();
    CHECK(d.impl == MPGPU_FIXED_IMPL_PTX && !d.global_mem && !d.interleaved && d.coalesced &&
              d.chain == 1 && d.grid == 0 && d.block == 256,
          "the default options are `mpgpu fixed`'s");
}

int main(void)
{
    seed = test_seed();
    test_bits();
    test_ops();
    test_modulus();
    test_layouts();
    test_resources();
    test_layout_arguments();
    test_moduli_arguments();
    test_arguments("mpgpu_fixed_device", device_default_stream);
    test_arguments("mpgpu_fixed_host", mpgpu_fixed_host);
    return test_finish("test_mpgpu_fixed_api");
}
