/* The interface of the GCD kernel (kernels/gcd_modular.cu) between its host driver
 * (kernels/gcd_device.c) and the CUDA file: plain C, no GMP. */
#ifndef MPGPU_GCD_KERNEL_H
#define MPGPU_GCD_KERNEL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The paper's threads per block: the first attempt's N_Q is rounded up to a multiple of it
 * (002 section 2). The kernel's blocks are sized per launch (gcd_device.c). */
#define GCD_BLOCK_THREADS 256u

/* Clusters beyond 8 blocks are "non-portable"; Hopper schedules 16. */
#define GCD_MAX_CLUSTER 16u

/* Grid-wide synchronisation of the reduction and recovery loops (002 section 4.1). */
enum gcd_barrier {
    GCD_BARRIER_COOP = 0,    /* cooperative groups grid sync */
    GCD_BARRIER_CLUSTER = 1, /* one thread-block cluster (<= 16 blocks), distributed shared memory */
    GCD_BARRIER_CUSTOM = 2,  /* the paper's barrier: a 4 x grid array of posted words */
};
#define GCD_N_BARRIERS 3

/* "coop", "cluster", "custom". */
const char *gcd_barrier_name(enum gcd_barrier b);

/* The modular inverse of the reduction and recovery steps. */
enum gcd_inverse {
    GCD_INVERSE_EUCLID = 0, /* 002 section 3.2: extended Euclid, quotients from a reciprocal */
    GCD_INVERSE_FERMAT = 1, /* beyond 002: a^(q-2) in Montgomery form (cpu_ref/gcd_fermat.h) */
};
#define GCD_N_INVERSES 2

/* "euclid", "fermat". */
const char *gcd_inverse_name(enum gcd_inverse i);

/* The kernels of a barrier, by where the moduli's state lives (kernels/gcd_modular.cu): each
 * thread owns `per_thread` moduli, kept in registers (resident) or streamed through device
 * memory that many at a time, in blocks of at most max_block threads. */
struct gcd_shape {
    unsigned per_thread;
    unsigned resident;
    unsigned max_block;
};
#define GCD_SHAPES 5
extern const struct gcd_shape gcd_shapes[GCD_SHAPES];

/* What one launch reports (written by block 0, thread 0). */
struct gcd_kernel_result {
    int64_t left;      /* moduli still in Q when the reduction loop ended */
    uint64_t steps;    /* reduction-loop iterations (Fig. 2 lines 10-20) */
    uint64_t digits;   /* mixed-radix digits found (k - 1 at line 29) */
    int32_t shortage;  /* enum gcd_shortage */
    int32_t reserved;
};

/* The kernel's arguments (kernels/gcd_modular.cu). */
struct gcd_kernel_params {
    const uint32_t *q;       /* the n largest moduli of M */
    uint64_t *m;             /* their fast-remainder multipliers, computed by the kernel */
    uint32_t *u, *v;         /* residues in [0, q) */
    uint8_t *active;         /* q still in Q */
    const uint32_t *uw, *vw; /* U and V, 32-bit words, least significant first */
    uint32_t uw_n, vw_n;
    uint32_t n;              /* N_Q */
    uint32_t chunk;          /* moduli per block: per_thread x the block's threads */
    uint32_t L;
    uint32_t cheap;          /* 1: cheap-category remainders, 0: the exact path */
    uint32_t inverse;        /* enum gcd_inverse */
    uint32_t percent;        /* 1: every remainder by %, not the fast remainder (002 3.1's
                                comparison) */
    int64_t n_u, n_v;        /* Fig. 2 line 1 */
    unsigned long long *slots; /* the grid exchange's words (coop: 2 rows, custom: 4 rows) */
    uint32_t *digit_p;       /* (p_k, g_k) of the recovery loop, in the order found */
    int32_t *digit_g;
    struct gcd_kernel_result *result;
};

/* Largest grid of `block`-thread blocks the kernel of (barrier, shape) can run with all blocks
 * resident (occupancy API; cluster: the largest cluster this GPU schedules, at most 16), or 0
 * with *why set when it cannot run here. */
cudaError_t gcd_modular_max_grid(enum gcd_barrier b, unsigned shape, unsigned block,
                                 unsigned *max_grid, const char **why);

/* Launches one attempt of the kernel of (barrier, shape) on `stream` with `grid` blocks of
 * `block` threads (custom: the slots must be zero). */
cudaError_t gcd_modular_launch(enum gcd_barrier b, unsigned shape,
                               const struct gcd_kernel_params *p, unsigned grid, unsigned block,
                               cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
