/* PTX carry-chain primitives: the one place mpgpu writes inline assembly for multiple-precision
 * carries (000 section 3.3.3: C has no access to the carry flag, PTX does), plus the one L2
 * prefetch that CUDA C does not offer.
 *
 * A chain starts with a *_cc primitive (sets the carry flag), continues with *c_cc primitives
 * (consume and set it) and ends with a *c primitive (consumes it). No other instruction that
 * touches the carry flag may stand between two links of one chain; these wrappers are
 * `volatile` so the compiler keeps them in order. */
#ifndef MPGPU_PTX_CARRY_CUH
#define MPGPU_PTX_CARRY_CUH

#include <stdint.h>

namespace ptx {

__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* lo(a * b) + c, sets the carry flag. */
__device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* lo(a * b) + c + carry, sets the carry flag. */
__device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* hi(a * b) + c, sets the carry flag. */
__device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* hi(a * b) + c + carry, sets the carry flag. */
__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
/* hi(a * b) + c + carry, ends the chain (cannot overflow when the caller knows the bound). */
__device__ __forceinline__ uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

/* Asks L2 to fetch the 128-byte line holding p; nothing waits for it. */
__device__ __forceinline__ void prefetch_l2(const void *p) {
    asm volatile("prefetch.global.L2 [%0];" : : "l"(p));
}

/* {t, u, v} += a * b: the three-word column accumulator of the Comba method (000 Algorithm 2,
 * line 4); with t = 0, the {t, u, v} = a b' + {u, v} of sum-rotate (000 Algorithm 3, line 7). */
__device__ __forceinline__ void mac3(uint32_t &t, uint32_t &u, uint32_t &v, uint32_t a, uint32_t b) {
    v = mad_lo_cc(a, b, v);
    u = madc_hi_cc(a, b, u);
    t = addc(t, 0);
}

/* {hi, lo} += x for a 96-bit accumulator. Written as a 128-bit sum in C rather than as PTX
 * carry chains, because ptxas compiles this form (and not mac3's) to one add that sets a carry
 * flag, and gathers those flags into hi two at a time by one IADD3.X (sm_90). */
__device__ __forceinline__ void add96(uint64_t &lo, uint32_t &hi, uint64_t x) {
    const unsigned __int128 t = (unsigned __int128)lo + x;
    lo = (uint64_t)t;
    hi += (uint32_t)(t >> 64);
}

/* {hi, lo} += a * b: the same 96-bit column accumulator as mac3 with its low 64 bits in one
 * register pair, which ptxas compiles to one IMAD.WIDE.U32 that adds the product into lo and
 * sets the carry flag that add96 gathers. */
__device__ __forceinline__ void mac96(uint64_t &lo, uint32_t &hi, uint32_t a, uint32_t b) {
    add96(lo, hi, (uint64_t)a * b);
}

} // namespace ptx

#endif
