/* Host driver of the Lehmer GCD kernel (kernels/gcd_lehmer.cu; beyond 002): one pair a launch,
 * one thread block, the numbers in shared memory while they fit (about 800 Kibit a number on
 * Hopper), else in device memory. */
#ifndef MPGPU_GCD_LEHMER_DEVICE_H
#define MPGPU_GCD_LEHMER_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include <gmp.h>

#include "gcd_lehmer_kernel.h"

struct gcd_lehmer_device {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    size_t cap;                  /* words an array of the buffers holds */
    uint32_t *d_u, *d_v, *d_work, *d_out, *h_words;
    struct gcd_lehmer_result *d_result, *h_result;
    struct gcd_lehmer_stats stats; /* of the launches since the caller last zeroed it */
    double kernel_ms;              /* likewise */
    uint32_t chunk_words;          /* 0, or chunks of this many words where they fit in one
                                    * block (tests: 2 makes ripple rounds common) */
    uint32_t chunk, threads;       /* of the last launch (threads: the block, producer included) */
    bool in_shared;                /* likewise */
    const char *failed_call;       /* the CUDA call that failed, for the error message */
};

/* Device bytes a pair of `words` words needs. */
uint64_t gcd_lehmer_device_bytes(size_t words);

cudaError_t gcd_lehmer_device_open(struct gcd_lehmer_device *d);
void gcd_lehmer_device_close(struct gcd_lehmer_device *d);

/* g = gcd(a, b) as mpz_gcd gives it (zeros and signs as GMP, on the host), the reduction on the
 * GPU; its statistics added to d->stats and its kernel time to d->kernel_ms. Returns
 * cudaErrorAssert, with failed_call saying so, when the kernel reports a broken bound. */
cudaError_t gcd_lehmer_device_gcd(struct gcd_lehmer_device *d, mpz_t g, const mpz_t a,
                                  const mpz_t b);

#endif
