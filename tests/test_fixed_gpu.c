/* gpu suite: every `mpgpu fixed` kernel against GMP, through libmpgpu's device call
 * (mpgpu_fixed_device) as the command line makes it: every built precision x operation x
 * --impl (ptx, c, and fp64 and hybrid for montmul and powm) x --operands (separate, interleaved) x --word-order (coalesced, contiguous),
 * --mem local (one element a thread, and a grid of 16 threads that loop over the elements) and
 * global, --chain 1 and 3 (powm 1), three moduli (a random odd one
 * of P bits, 2^P - 1, which is R - 1 when P is a multiple of 32, and 2^(P-1) + 1, the least odd
 * one of P bits), and one modulus per element (mpgpu_fixed_device_moduli, each a random odd one of
 * P bits, its operands below it). Elements 0..3 are boundary
 * operands (fixed_boundary_operands: zeros; all ones or m - 1; one; the largest T = mR - 1 for
 * montred), the rest seeded random; the count is a prime past two blocks so the last block is
 * partial; the results are poisoned before each run. Each element compared is one check. Exits
 * 77 (skipped) without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_ref.h"
#include "mpgpu.h"
#include "test_gpu.h"
#include "test_seed.h"

#define COUNT 641u /* prime, past two blocks of 256 */
#define BLOCK 256u
#define MAX_WORDS MPGPU_FIXED_MAX_WORDS

static const char *const impl_names[MPGPU_FIXED_N_IMPLS] = {"ptx", "c", "fp64", "hybrid"};

static uint32_t a[COUNT * 2 * MAX_WORDS], b[COUNT * MAX_WORDS], r[COUNT * 2 * MAX_WORDS];
static uint32_t packed_ab[COUNT * 3 * MAX_WORDS], packed_r[COUNT * 2 * MAX_WORDS];
static uint32_t moduli_each[COUNT * MAX_WORDS], packed_m[COUNT * MAX_WORDS];

/* One case's device run: operands (and with mod NULL, the moduli of moduli_each) packed into
 * the layout of opts, uploaded, the results poisoned, the kernel, the results back and unpacked;
 * the failed step named in *what_failed. */
static mpgpu_status run_device(mpgpu_fixed_op op, unsigned bits, const mpgpu_fixed_options *opts,
                               const mpgpu_fixed_modulus *mod, const char **what_failed)
{
    size_t aw, bw, rw;
    uint32_t *d_ab = NULL, *d_r = NULL, *d_m = NULL;
    mpgpu_status st = mpgpu_fixed_layout_words(op, bits, COUNT, opts, &aw, &bw, &rw);
    *what_failed = "mpgpu_fixed_layout_words";
    if (st == MPGPU_OK) {
        *what_failed = "mpgpu_fixed_pack";
        st = mpgpu_fixed_pack(op, bits, COUNT, opts, a, b, packed_ab, bw ? packed_ab + aw : NULL);
    }
    cudaError_t err = cudaSuccess;
    if (st == MPGPU_OK) {
        *what_failed = "cudaMalloc, cudaMemcpy or cudaMemset";
        err = cudaMalloc((void **)&d_ab, (aw + bw) * 4);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&d_r, rw * 4);
        if (err == cudaSuccess)
            err = cudaMemcpy(d_ab, packed_ab, (aw + bw) * 4, cudaMemcpyHostToDevice);
        if (err == cudaSuccess)
            err = cudaMemset(d_r, 0xa5, rw * 4);
    }
    if (st == MPGPU_OK && err == cudaSuccess && !mod) {
        *what_failed = "mpgpu_fixed_pack_moduli";
        st = mpgpu_fixed_pack_moduli(bits, COUNT, opts, moduli_each, packed_m);
        if (st == MPGPU_OK) {
            *what_failed = "cudaMalloc or cudaMemcpy of the moduli";
            err = cudaMalloc((void **)&d_m, rw * 4);
            if (err == cudaSuccess)
                err = cudaMemcpy(d_m, packed_m, rw * 4, cudaMemcpyHostToDevice);
        }
    }
    if (st == MPGPU_OK && err == cudaSuccess) {
        *what_failed = mod ? "mpgpu_fixed_device" : "mpgpu_fixed_device_moduli";
        st = mod ? mpgpu_fixed_device(op, bits, COUNT, opts, mod, d_ab, bw ? d_ab + aw : NULL, d_r, NULL)
                 : mpgpu_fixed_device_moduli(op, bits, COUNT, opts, d_m, d_ab, bw ? d_ab + aw : NULL,
                                             d_r, NULL);
    }
    if (st == MPGPU_OK && err == cudaSuccess) {
        *what_failed = "cudaMemcpy of the results";
        err = cudaMemcpy(packed_r, d_r, rw * 4, cudaMemcpyDeviceToHost);
    }
    if (st == MPGPU_OK && err == cudaSuccess) {
        *what_failed = "mpgpu_fixed_unpack";
        st = mpgpu_fixed_unpack(op, bits, COUNT, opts, packed_r, r);
    }
    cudaFree(d_ab);
    cudaFree(d_r);
    cudaFree(d_m);
    if (err != cudaSuccess) {
        printf("%s: %s\n", *what_failed, cudaGetErrorString(err));
        cudaGetLastError();
        return MPGPU_ERR_CUDA;
    }
    return st;
}

/* m NULL: one modulus per element (moduli_each, fixed_element_modulus). */
static void run(mpgpu_fixed_op op, unsigned bits, const mpgpu_fixed_options *opts, const uint32_t *m)
{
    mpgpu_fixed_op_info info;
    mpgpu_fixed_op_get(op, bits, &info);
    const unsigned aw = info.a_words, bw = info.b_words, rw = info.r_words, n = info.words;
    for (unsigned p = 0; p < COUNT; p++) {
        const uint32_t *mp = m ? m : moduli_each + p * n;
        if (!m)
            fixed_element_modulus(bits, seed, p, moduli_each + p * n);
        if (p < FIXED_BOUNDARY_CASES)
            fixed_boundary_operands(op, bits, mp, p, a + p * aw, b + p * bw);
        else
            fixed_random_operands(op, bits, seed, p, mp, a + p * aw, b + p * bw);
    }
    char what[200];
    snprintf(what, sizeof what, "bits=%u op=%s impl=%s operands=%s word-order=%s mem=%s chain=%llu m[0]=%08x (0: one per element)",
             bits, info.name, impl_names[opts->impl],
             opts->interleaved ? "interleaved" : "separate", opts->coalesced ? "coalesced" : "contiguous",
             opts->global_mem ? "global" : "local", (unsigned long long)opts->chain,
             m ? m[0] : 0);
    mpgpu_fixed_modulus mod;
    mpgpu_status st = m ? mpgpu_fixed_modulus_set(&mod, bits, m) : MPGPU_OK;
    const char *failed = "mpgpu_fixed_modulus_set";
    if (st == MPGPU_OK)
        st = run_device(op, bits, opts, m ? &mod : NULL, &failed);
    if (st != MPGPU_OK) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        check_outcome(false);
        printf("FAIL %s: %s: %s%s%s\n", what, failed, mpgpu_status_string(st),
               e.cuda_call[0] ? "; CUDA call " : "", e.cuda_call);
        return;
    }
    unsigned bad = 0, first = COUNT;
    for (unsigned p = 0; p < COUNT; p++) {
        uint32_t expect[2 * MAX_WORDS];
        fixed_ref(op, bits, opts->chain, a + p * aw, b + p * bw, m ? m : moduli_each + p * n, expect);
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
    for (size_t s = 0; s < mpgpu_fixed_bits_count(); s++) {
        unsigned bits;
        mpgpu_fixed_bits_get(s, &bits);
        const unsigned n = (bits + 31) / 32;
        uint32_t moduli[3][MAX_WORDS] = {{0}};
        fixed_random_modulus(bits, seed, moduli[0]);
        for (unsigned j = 0; j < n; j++) /* 2^P - 1 */
            moduli[1][j] = 32 * j + 32 <= bits ? ~0u : (1u << (bits % 32)) - 1;
        moduli[2][0] = 1; /* 2^(P-1) + 1 */
        moduli[2][(bits - 1) / 32] |= 1u << ((bits - 1) % 32);
        const int before = checks, failed = failures;
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++) {
            mpgpu_fixed_op_info info;
            mpgpu_fixed_op_get((mpgpu_fixed_op)op, bits, &info);
            for (int mi = 0; mi < (info.modular ? 4 : 1); mi++) /* 3: one per element */
                for (int v = 0; v < MPGPU_FIXED_N_IMPLS * 12; v++) {
                    /* mem 2: registers, on a grid smaller than the elements, so that each
                     * thread loops over several (004's launch sweep): the loop kernel, which
                     * a modulus per element runs on the full grid too */
                    const int impl = v / 12, layout = v / 3 % 4, mem = v % 3;
                    if (mpgpu_fixed_impl_check((mpgpu_fixed_op)op, (mpgpu_fixed_impl)impl) != MPGPU_OK)
                        continue;
                    for (uint64_t chain = 1; chain <= (op == MPGPU_FIXED_POWM ? 1u : 3u); chain += 2) {
                        const mpgpu_fixed_options opts = {
                            .impl = (mpgpu_fixed_impl)impl, .global_mem = mem == 1,
                            .interleaved = layout & 1, .coalesced = layout >> 1,
                            .chain = chain, .grid = mem == 2 ? 2 : 0, .block = mem == 2 ? 8 : BLOCK,
                        };
                        run((mpgpu_fixed_op)op, bits, &opts, mi < 3 ? moduli[mi] : NULL);
                    }
                }
        }
        printf("bits=%-5u %6d checks, %d failures\n", bits, checks - before, failures - failed);
    }
    return test_finish("fixed_gpu");
}
