/* The modular integer GCD of Fig. 2 of 002 (Weber and Brew) on one GPU: the host side of
 * kernels/gcd_modular.cu. One kernel launch is one attempt of Fig. 2 with N_Q moduli; the
 * kernel repeats the CPU twin (cpu_ref/gcd_modular_ref.h) step by step: the same moduli in the
 * same order, the same keys, the same tie rules, the same shortage tests. The mixed-radix digits
 * come back to the host, which forms G with GMP (Fig. 2 line 29, gcd_mixed_radix_to_mpz).
 *
 * Layout. Modulus i (moduli largest first, as struct gcd_moduli) belongs to block
 * i / chunk, thread i mod block of it; chunk is a multiple of the block's threads, so a block
 * owns consecutive moduli, and a thread chunk / block of them. The block's size and where the
 * state lives, registers or device memory (the kernel's shape, gcd_kernel.h), are picked per
 * attempt from N_Q and the GPU (plan in gcd_device.c). */
#ifndef MPGPU_GCD_DEVICE_H
#define MPGPU_GCD_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include <gmp.h>

#include "gcd_kary_host.h"
#include "gcd_kary_kernel.h"
#include "gcd_kernel.h"
#include "gcd_modular.h"
#include "gcd_moduli.h"

/* One launch: the kernel's shape (gcd_kernel.h), its blocks, and the moduli a block holds. */
struct gcd_launch {
    unsigned shape, block, grid;
    uint32_t chunk;
};

/* Which algorithm the device runs: Fig. 2 of 002, or the k-ary reduction (kernels/gcd_kary.h). */
enum gcd_algorithm {
    GCD_ALGORITHM_FIG2 = 0,
    GCD_ALGORITHM_KARY = 1,
};

struct gcd_device {
    const struct gcd_moduli *M;
    enum gcd_algorithm algorithm;
    enum gcd_barrier barrier;
    enum gcd_inverse inverse;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    unsigned sm_count;
    unsigned max_grid;      /* blocks the exchange's words are allocated for */
    unsigned grid_limit;    /* 0, or fewer blocks (tests: several moduli a thread, streaming) */
    unsigned min_per_thread; /* 0, or at least this many moduli a thread in registers */
    bool percent;           /* remainders by %, not the fast remainder */
    size_t cap;             /* moduli the device buffers hold (a prefix of M is uploaded) */
    uint32_t *d_q, *d_u, *d_v, *d_digit_p;
    uint64_t *d_m;
    int32_t *d_digit_g;
    uint8_t *d_active;
    uint32_t *h_digit_p;
    int32_t *h_digit_g;
    size_t words_cap;       /* words of U and V the buffers hold */
    uint32_t *d_uw, *d_vw, *h_uw, *h_vw;
    unsigned long long *d_slots;
    struct gcd_kernel_result *d_result, *h_result;
    /* The k-ary kernel's log (2 cap + 2 entries), answers, common factors and result. */
    int32_t *d_log;
    unsigned long long *d_acks;
    uint32_t *d_common, *h_common;
    struct gcd_kary_result *d_kary, *h_kary;
    struct gcd_kary_stats kary_stats; /* of the attempts since the caller last zeroed it */
    double kernel_ms;       /* kernel time of the attempts since the caller last zeroed it */
    struct gcd_launch last; /* of the last attempt */
    const char *failed_call; /* the CUDA call that failed, for the error message */
};

/* Device bytes an attempt with n moduli on operands of `words` words needs (the exchange's few
 * words a block aside). */
uint64_t gcd_device_bytes(size_t n, size_t words);

/* Opens the device side of `barrier` and `inverse` for the moduli M (kept by reference).
 * Returns cudaErrorNotSupported with failed_call naming why when the barrier cannot run on this
 * GPU. */
cudaError_t gcd_device_open(struct gcd_device *d, const struct gcd_moduli *M,
                            enum gcd_barrier barrier, enum gcd_inverse inverse);
void gcd_device_close(struct gcd_device *d);

/* Opens the device side of the k-ary method for the moduli M (kept by reference). */
cudaError_t gcd_device_open_kary(struct gcd_device *d, const struct gcd_moduli *M);


/* One attempt of Fig. 2 on U >= V > 0 with the n_q largest moduli (gcd_modular_attempt's
 * contract, on the GPU): g set on GCD_OK, untouched on GCD_SHORTAGE; run's n_q, steps, digits,
 * shortage and status filled. */
cudaError_t gcd_device_attempt(struct gcd_device *d, mpz_t g, const mpz_t u, const mpz_t v,
                               size_t n_q, struct gcd_run *run);

/* gcd(a, b) as gcd_modular (cpu_ref/gcd_modular_ref.h) or gcd_kary (gcd_kary_ref.h) gives it,
 * by the device's algorithm, every attempt on the GPU:
 * GMP's conventions for zeros and signs, first_nq moduli (0: the formula rounded to
 * GCD_BLOCK_THREADS), retries with more moduli after a shortage; run->status GCD_TOO_LARGE
 * (g untouched) when M ran out. */
cudaError_t gcd_device_gcd(struct gcd_device *d, mpz_t g, const mpz_t a, const mpz_t b,
                           size_t first_nq, struct gcd_run *run);

#endif
