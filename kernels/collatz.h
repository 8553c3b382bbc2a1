/* Collatz convergence and delay on the GPU (000 chapter 4): the device copies of the tables and
 * one call per range, behind the library's mpgpu_collatz_* (mpgpu_collatz.c). Each call runs one
 * persistent kernel over the range and returns the same totals and lists as the CPU twins
 * (cpu_ref/collatz_convergence.h, cpu_ref/collatz_delay.h), so the two can be compared exactly.
 *
 * Interim values are 96 bits in three registers (000 section 4.4.1); a starting value whose
 * value would pass 2^96 is reported back and settled on the host by plain iteration at any
 * length (collatz_plain.h). */
#ifndef MPGPU_COLLATZ_H
#define MPGPU_COLLATZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "collatz_pass.h"
#include "collatz_tables.h"

/* Where B, C (and J) live during a pass (000 section 4.4.2, Tables 4.4 and 4.5). */
enum collatz_table_memory { COLLATZ_TABLES_SHARED, COLLATZ_TABLES_GLOBAL };

struct collatz_device {
    cudaStream_t stream;  /* the caller's: every copy and kernel of the calls below is on it */
    int sm_count;
    size_t shared_limit;  /* shared memory one block may use (opt-in maximum) */
    unsigned bc_bits;
    uint32_t *d_bc;       /* B, C interleaved, as collatz_bc_table.bc */
    uint8_t *d_ops;       /* J */
    unsigned s_bits;
    uint64_t s_count;
    uint64_t *d_s;        /* S with the jump state of each residue: 2 words per entry,
                             (s | j << 58, c) with n = 3^j * m_H + c after the k bits of s */
    uint64_t *d_s_all;    /* the one-residue table {0} (j = 0, c = 0), for values below 2^k */
    unsigned a_bits;
    uint16_t *d_a;        /* A */
    size_t list_cap;      /* overflowed starting values one launch can report */
    uint64_t *d_list;
    size_t cand_cap;      /* record candidates one launch can report */
    uint64_t *d_cand_n;
    uint32_t *d_cand_delay;
    unsigned long long *d_counts; /* [0] overflows, [1] candidates */
    unsigned max_blocks;
    unsigned long long *d_partials; /* per block: 2 (convergence) or 3 (delay) words */
    unsigned long long *h_partials;
    uint64_t launches;    /* kernel launches so far (a launch whose lists overflowed is redone
                             on halves) */
    const char *failed_call; /* the CUDA call that failed, for the error message */
};

/* list_cap and cand_cap bound the overflows and record candidates of one launch; a launch that
 * finds more is redone on the two halves of its range, so nothing is lost. The device state
 * works on `stream`, which stays the caller's (collatz_device_close leaves it). */
cudaError_t collatz_device_open(struct collatz_device *g, size_t list_cap, size_t cand_cap,
                                cudaStream_t stream);
void collatz_device_close(struct collatz_device *g);

/* Shared memory the B/C tables of base bits d need in a block, and whether this GPU has it. */
size_t collatz_device_shared_bytes(unsigned d, bool with_ops);
bool collatz_device_shared_fits(const struct collatz_device *g, unsigned d, bool with_ops);

/* Device bytes S of `count` residues takes while it is set (the residues and their jump states). */
uint64_t collatz_device_s_bytes(uint64_t count);

/* The grid of a persistent kernel, which runs a whole range in one launch: as many blocks of
 * `threads` threads as stay resident on every SM at once, at most g->max_blocks. A kernel whose
 * tables take more than the default 48 KiB of shared memory (smem bytes) is opted in first. */
cudaError_t collatz_device_grid(struct collatz_device *g, const void *kernel, unsigned threads,
                                size_t smem, unsigned *blocks);
/* Appends the first n overflowed starting values the last launch reported (g->d_list) to *list. */
cudaError_t collatz_device_fetch_overflows(struct collatz_device *g, struct mpgpu_collatz_list *list,
                                           size_t n);

/* Copies tables to the device (replacing earlier ones). */
cudaError_t collatz_device_set_bc(struct collatz_device *g, const struct mpgpu_collatz_bc_table *t, bool with_ops);
cudaError_t collatz_device_set_s(struct collatz_device *g, const struct mpgpu_collatz_s_table *s);
cudaError_t collatz_device_set_a(struct collatz_device *g, const uint16_t *a, unsigned a_bits);

/* Convergence of [first, last] (000 Algorithm 5) with the tables set: adds to *totals and
 * appends the overflowed starting values to *overflows (unsorted), like collatz_conv_cpu.
 * Values below 2^k are all iterated. Returns cudaSuccess or the error of the failed call
 * (named in g->failed_call); -1 as cudaErrorMemoryAllocation when host memory is short. */
cudaError_t collatz_device_convergence(struct collatz_device *g, enum collatz_table_memory mem,
                                       enum collatz_first_step first_step, unsigned interleave,
                                       uint64_t first, uint64_t last, struct mpgpu_collatz_conv_totals *totals,
                                       struct mpgpu_collatz_list *overflows);

/* Starting values one thread keeps in flight (--interleave): independent table loads that hide
 * each other's latency. */
#define COLLATZ_MAX_INTERLEAVE 2u

/* Fills jump[2i], jump[2i+1] = (s_i | j << 58, c) for the residues s[0..count) of k bits
 * (collatz_convergence.cu); asynchronous on stream. */
cudaError_t collatz_s_jump_build(uint64_t *jump, const uint64_t *s, uint64_t count, unsigned k,
                                 cudaStream_t stream);

/* Delays of [first, last] (000 Algorithm 6) with B, C, J and A set (a_bits > bc_bits): adds to
 * *totals all numbers except the overflowed ones, which go to *overflows, like
 * collatz_delay_cpu. When candidates is not NULL it receives every n with D(n) > floor that can
 * still be a record (a subset of the CPU twin's candidates when a launch had to be split). */
cudaError_t collatz_device_delay(struct collatz_device *g, enum collatz_table_memory mem,
                                 unsigned interleave, uint64_t first, uint64_t last, int64_t floor,
                                 struct mpgpu_collatz_delay_totals *totals,
                                 struct mpgpu_collatz_pairs *candidates, struct mpgpu_collatz_list *overflows);

#ifdef __cplusplus
}
#endif
#endif
