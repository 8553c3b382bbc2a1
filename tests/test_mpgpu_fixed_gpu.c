/* gpu suite: libmpgpu's fixed-precision calls (mpgpu.h) against GMP (cpu_ref/fixed_ref.c): every
 * operation at every built precision, through mpgpu_fixed_host with the default options and
 * with every other knob turned (C carries, device memory, interleaved, contiguous, chain 2, a
 * grid smaller than the batch), and through mpgpu_fixed_device on a stream of the caller's
 * (default layout) and on the legacy default stream (interleaved, contiguous, C carries), with
 * operands packed by mpgpu_fixed_pack and results unpacked by mpgpu_fixed_unpack. Moduli: a
 * random odd one of P bits and 2^P - 1, and for addm and subm an even one too. Elements 0..3
 * are the worst cases of fixed_boundary_operands (zero; all ones, m - 1 or mR - 1; one; the top
 * bit), the rest seeded random; the count is prime. Results are poisoned before each call (on
 * the same stream for the device calls), so a result never written, or read before the stream
 * got there, fails. Each element compared is one check. Exits 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_ref.h"
#include "mpgpu.h"
#include "test_seed.h"
#define TEST_PROGRAM "test_mpgpu_fixed_gpu"
#include "test_mpgpu_cuda.h"

#define COUNT 97u
#define MAX_WORDS MPGPU_FIXED_MAX_WORDS

static uint32_t a[COUNT * 2 * MAX_WORDS], b[COUNT * MAX_WORDS], r[COUNT * 2 * MAX_WORDS];
static uint32_t packed_ab[COUNT * 3 * MAX_WORDS], packed_r[COUNT * 2 * MAX_WORDS];

/* A device call on `stream`: pack, copy, poison, the call, copy back, unpack, all queued on
 * the stream and waited for once at the end. */
static mpgpu_status run_device(mpgpu_fixed_op op, unsigned bits, const mpgpu_fixed_options *opts,
                               const mpgpu_fixed_modulus *mod, cudaStream_t stream)
{
    size_t aw, bw, rw;
    mpgpu_status st = mpgpu_fixed_layout_words(op, bits, COUNT, opts, &aw, &bw, &rw);
    if (st == MPGPU_OK)
        st = mpgpu_fixed_pack(op, bits, COUNT, opts, a, b, packed_ab, bw ? packed_ab + aw : NULL);
    if (st != MPGPU_OK)
        return st;
    uint32_t *d_ab, *d_r;
    CUDA_OK(cudaMalloc((void **)&d_ab, (aw + bw) * 4));
    CUDA_OK(cudaMalloc((void **)&d_r, rw * 4));
    CUDA_OK(cudaMemcpyAsync(d_ab, packed_ab, (aw + bw) * 4, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemsetAsync(d_r, 0xa5, rw * 4, stream));
    st = mpgpu_fixed_device(op, bits, COUNT, opts, mod, d_ab, bw ? d_ab + aw : NULL, d_r, stream);
    CUDA_OK(cudaMemcpyAsync(packed_r, d_r, rw * 4, cudaMemcpyDeviceToHost, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaFree(d_ab));
    CUDA_OK(cudaFree(d_r));
    if (st == MPGPU_OK)
        st = mpgpu_fixed_unpack(op, bits, COUNT, opts, packed_r, r);
    return st;
}

/* One way of running op on the elements of a and b (mod for modular ops), each result
 * compared with GMP's. */
static void run(const char *how, mpgpu_fixed_op op, unsigned bits, const mpgpu_fixed_options *opts,
                const mpgpu_fixed_modulus *mod, int device, cudaStream_t stream)
{
    mpgpu_fixed_op_info info;
    mpgpu_fixed_op_get(op, bits, &info);
    memset(r, 0xa5, sizeof r);
    mpgpu_status st = device ? run_device(op, bits, opts, mod, stream)
                             : mpgpu_fixed_host(op, bits, COUNT, opts, mod, a, b, r);
    if (st != MPGPU_OK) {
        mpgpu_error_info e;
        mpgpu_last_error(&e);
        check_outcome(false);
        printf("FAIL (seed %llu) %u bits %s, %s, m[0] %08x: %s%s%s\n", (unsigned long long)seed,
               bits, info.name, how, mod->m[0], mpgpu_status_string(st),
               e.cuda_call[0] ? "; CUDA call " : "", e.cuda_call);
        return;
    }
    const uint64_t chain = opts ? opts->chain : 1;
    unsigned bad = 0, first = COUNT;
    for (unsigned p = 0; p < COUNT; p++) {
        uint32_t expect[2 * MAX_WORDS];
        fixed_ref(op, bits, chain, a + p * info.a_words, b + p * info.b_words, mod->m, expect);
        if (!check_outcome(!memcmp(expect, r + p * info.r_words, info.r_words * 4)) && bad++ == 0)
            first = p;
    }
    if (bad)
        printf("FAIL (seed %llu) %u bits %s, %s, m[0] %08x: %u of %u elements differ from GMP, "
               "the first %u\n",
               (unsigned long long)seed, bits, info.name, how, mod->m[0], bad, COUNT, first);
}

static void test_op(mpgpu_fixed_op op, unsigned bits, const uint32_t *m, cudaStream_t stream)
{
    mpgpu_fixed_op_info info;
    mpgpu_fixed_op_get(op, bits, &info);
    for (unsigned p = 0; p < COUNT; p++)
        if (p < FIXED_BOUNDARY_CASES)
            fixed_boundary_operands(op, bits, m, p, a + p * info.a_words, b + p * info.b_words);
        else
            fixed_random_operands(op, bits, seed, p, m, a + p * info.a_words, b + p * info.b_words);
    mpgpu_fixed_modulus mod;
    mpgpu_status st = mpgpu_fixed_modulus_set(&mod, bits, m);
    CHECK(st == MPGPU_OK, "%u bits: mpgpu_fixed_modulus_set: %s", bits, mpgpu_status_string(st));
    mpgpu_fixed_options turned = {.impl = MPGPU_FIXED_IMPL_C, .global_mem = 1, .interleaved = 1,
                                  .coalesced = 0, .chain = op == MPGPU_FIXED_POWM ? 1 : 2,
                                  .grid = 3, .block = 32};
    mpgpu_fixed_options other = mpgpu_fixed_default_options();
    other.impl = MPGPU_FIXED_IMPL_C;
    other.interleaved = 1;
    other.coalesced = 0;
    run("mpgpu_fixed_host, default options", op, bits, NULL, &mod, 0, NULL);
    run("mpgpu_fixed_host, c, global, interleaved, contiguous, chain 2, grid 3 x 32", op, bits,
        &turned, &mod, 0, NULL);
    run("mpgpu_fixed_device on the caller's stream", op, bits, NULL, &mod, 1, stream);
    run("mpgpu_fixed_device on the legacy default stream, c, interleaved, contiguous", op, bits,
        &other, &mod, 1, NULL);
}

int main(void)
{
    seed = test_seed();
    if (test_cuda_skip())
        return 77;
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (size_t s = 0; s < mpgpu_fixed_bits_count(); s++) {
        unsigned bits;
        CHECK(mpgpu_fixed_bits_get(s, &bits) == MPGPU_OK, "precision %zu", s);
        const unsigned n = (bits + 31) / 32;
        uint32_t moduli[3][MAX_WORDS] = {{0}};
        fixed_random_modulus(bits, seed, moduli[0]);
        for (unsigned j = 0; j < n; j++) /* 2^P - 1 */
            moduli[1][j] = 32 * j + 32 <= bits ? ~0u : (1u << (bits % 32)) - 1;
        memcpy(moduli[2], moduli[0], sizeof moduli[2]); /* even, and m - 1 needs no borrow */
        moduli[2][0] = (moduli[2][0] & ~1u) | 2u;
        const int before = checks, failed = failures;
        for (int op = 0; op < MPGPU_FIXED_N_OPS; op++) {
            mpgpu_fixed_op_info info;
            mpgpu_fixed_op_get((mpgpu_fixed_op)op, bits, &info);
            const int n_moduli = !info.modular ? 1 : info.montgomery ? 2 : 3;
            for (int k = 0; k < n_moduli; k++)
                test_op((mpgpu_fixed_op)op, bits, moduli[k], stream);
        }
        printf("bits=%-5u %6d checks, %d failures\n", bits, checks - before, failures - failed);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return test_finish("test_mpgpu_fixed_gpu");
}
