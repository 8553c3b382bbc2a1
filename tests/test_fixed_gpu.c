/* gpu suite: every `mpgpu fixed` kernel against GMP: every built precision x operation x
 * --impl (ptx, c) x --operands (separate, interleaved) x --word-order (coalesced, contiguous),
 * --mem local and global, --chain 1 and 3 (powm 1), two moduli (a random odd one
 * of P bits, and 2^P - 1, which is R - 1 when P is a multiple of 32). Elements 0..3 are boundary
 * operands (zeros; all ones or m - 1; one; the largest T = mR - 1 for montred), the rest seeded
 * random; the count is a prime past two blocks so the last block is partial; the results are
 * poisoned before each run. Each element compared is one check. Exits 77 (skipped) without a
 * GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_device.h"
#include "fixed_ref.h"
#include "gpu.h"
#include "test_gpu.h"
#include "test_seed.h"

#define COUNT 641u /* prime, past two blocks of 256 */
#define BLOCK 256u

static uint32_t a[COUNT * 2 * FIXED_MAX_WORDS], b[COUNT * FIXED_MAX_WORDS], r[COUNT * 2 * FIXED_MAX_WORDS];

/* Element p's boundary operands, p < 4; m is n words. */
static void boundary(enum fixed_op op, unsigned bits, const uint32_t *m, unsigned p, uint32_t *x, uint32_t *y)
{
    const unsigned n = fixed_words(bits), aw = fixed_a_words(op, n);
    memset(x, 0, aw * 4);
    memset(y, 0, n * 4);
    if (p == 0)
        return;
    if (p == 2) {
        x[0] = y[0] = 1;
        return;
    }
    if (op == FIXED_MONTRED) { /* T = mR - 1 = (m - 1) R + R - 1, m odd */
        memcpy(x + n, m, n * 4);
        x[n]--;
        for (unsigned j = 0; j < n; j++)
            x[j] = ~0u;
        return;
    }
    if (fixed_op_modular(op)) { /* m - 1 (odd m); powm: all-ones P-bit exponent */
        memcpy(x, m, n * 4);
        x[0]--;
        memcpy(y, x, n * 4);
        if (op == FIXED_POWM)
            for (unsigned j = 0; j < n; j++)
                y[j] = 32 * j + 32 <= bits ? ~0u : (1u << (bits % 32)) - 1;
        return;
    }
    for (unsigned j = 0; j < n; j++) /* all ones: of n words for add/sub, of P bits for products */
        x[j] = y[j] = op <= FIXED_SUB || 32 * j + 32 <= bits ? ~0u : (1u << (bits % 32)) - 1;
    if (p == 3 && op > FIXED_SUB) /* the top bit alone */
        for (unsigned j = 0; j < n; j++)
            x[j] = 32 * j + 32 < bits ? 0 : 32 * j < bits ? 1u << ((bits - 1) % 32) : 0;
}

static void run(const struct fixed_config *cfg)
{
    const unsigned n = fixed_words(cfg->bits);
    const unsigned aw = fixed_a_words(cfg->op, n), bw = fixed_b_words(cfg->op, n), rw = fixed_r_words(cfg->op, n);
    for (unsigned p = 0; p < COUNT; p++) {
        if (p < 4)
            boundary(cfg->op, cfg->bits, cfg->m, p, a + p * aw, b + p * (bw ? bw : 1));
        else
            fixed_random_operands(cfg->op, cfg->bits, seed, p, cfg->m, a + p * aw, b + p * bw);
    }
    struct fixed_device d;
    cudaError_t err = fixed_device_open(&d, cfg, COUNT);
    if (err == cudaSuccess)
        err = fixed_device_upload(&d, a, b);
    if (err == cudaSuccess)
        err = fixed_device_poison(&d);
    if (err == cudaSuccess)
        err = fixed_device_launch(&d);
    if (err == cudaSuccess)
        err = fixed_device_download(&d, r);
    char what[200];
    snprintf(what, sizeof what, "bits=%u op=%s impl=%s operands=%s word-order=%s mem=%s chain=%llu m[0]=%08x",
             cfg->bits, fixed_op_names[cfg->op], cfg->impl == FIXED_IMPL_PTX ? "ptx" : "c",
             cfg->interleaved ? "interleaved" : "separate", cfg->coalesced ? "coalesced" : "contiguous",
             cfg->global_mem ? "global" : "local", (unsigned long long)cfg->chain, cfg->m[0]);
    if (err != cudaSuccess) {
        check_outcome(false);
        printf("FAIL %s: CUDA call %s failed: %s\n", what, d.failed_call ? d.failed_call : "?",
               cudaGetErrorString(err));
        cudaGetLastError();
        fixed_device_close(&d);
        return;
    }
    fixed_device_close(&d);
    unsigned bad = 0, first = COUNT;
    for (unsigned p = 0; p < COUNT; p++) {
        uint32_t expect[2 * FIXED_MAX_WORDS];
        fixed_ref(cfg->op, cfg->bits, cfg->chain, a + p * aw, b + p * bw, cfg->m, expect);
        if (!check_outcome(memcmp(expect, r + p * rw, rw * 4) == 0) && bad++ == 0)
            first = p;
    }
    if (bad)
        printf("FAIL %s seed=%llu: %u of %u elements differ from GMP, the first %u\n", what,
               (unsigned long long)seed, bad, COUNT, first);
}

int main(void)
{
    seed = test_seed();
    if (test_gpu_open() != 0)
        return 77;
    size_t n_built;
    const unsigned *built = fixed_built_bits(&n_built);
    for (size_t s = 0; s < n_built; s++) {
        const unsigned bits = built[s], n = fixed_words(bits);
        uint32_t moduli[2][FIXED_MAX_WORDS] = {{0}};
        fixed_random_modulus(bits, seed, moduli[0]);
        for (unsigned j = 0; j < n; j++) /* 2^P - 1 */
            moduli[1][j] = 32 * j + 32 <= bits ? ~0u : (1u << (bits % 32)) - 1;
        const int before = checks, failed = failures;
        for (int op = 0; op < FIXED_N_OPS; op++)
            for (int mi = 0; mi < (fixed_op_modular(op) ? 2 : 1); mi++)
                for (int impl = 0; impl < 2; impl++)
                    for (int layout = 0; layout < 4; layout++)
                        for (int mem = 0; mem < 2; mem++)
                            for (uint64_t chain = 1; chain <= (op == FIXED_POWM ? 1u : 3u); chain += 2) {
                                struct fixed_config cfg = {
                                    .bits = bits, .op = (enum fixed_op)op, .impl = (enum fixed_impl)impl,
                                    .global_mem = mem, .interleaved = layout & 1, .coalesced = layout >> 1,
                                    .chain = chain, .grid = 0, .block = BLOCK,
                                };
                                memcpy(cfg.m, moduli[mi], sizeof cfg.m);
                                run(&cfg);
                            }
        printf("bits=%-5u %6d checks, %d failures\n", bits, checks - before, failures - failed);
    }
    /* A grid smaller than the elements: each thread loops over several (004's launch sweep). */
    struct fixed_config cfg = {.bits = built[0], .op = FIXED_MONTMUL, .impl = FIXED_IMPL_PTX,
                               .coalesced = true, .chain = 2, .grid = 2, .block = 8};
    fixed_random_modulus(cfg.bits, seed, cfg.m);
    run(&cfg);
    return test_finish("fixed_gpu");
}
