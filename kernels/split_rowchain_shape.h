/* The shape of split-rowchain (kernels/mul_split_rowchain.cu), shared by its kernel, the method
 * registry and its CPU twin (cpu_ref/split_rowchain_ref.c): operands are zero-padded to N words,
 * a power of two from 8 to 128 (256 to 4096 bits), and T threads take a product. */
#ifndef MPGPU_SPLIT_ROWCHAIN_SHAPE_H
#define MPGPU_SPLIT_ROWCHAIN_SHAPE_H

#define SPLIT_ROWCHAIN_WARPS_PER_BLOCK 4u
#define SPLIT_ROWCHAIN_MAX_WORDS 128u

#define SPLIT_ROWCHAIN_PADDED_WORDS(w)                                                      \
    ((w) <= 8 ? 8u : (w) <= 16 ? 16u : (w) <= 32 ? 32u : (w) <= 64 ? 64u : 128u)

/* Threads per product at N padded words (a power of two dividing N / 2, at most 32): the fastest
 * of T = 2 .. 32 at 10240 products on an H200 (held kernel time, us; T=4/8/16 at 1024 bits
 * 8.48/8.00/8.80, at 2048 bits 18.0/16.2/16.9, T=8/16/32 at 4096 bits 50.3/44.3/48.6; at 256 and
 * 512 bits T=2/4/8 within 2% of each other from T=4 up). */
#define SPLIT_ROWCHAIN_THREADS(n) ((n) <= 16 ? 4u : (n) <= 64 ? 8u : 16u)

#endif
