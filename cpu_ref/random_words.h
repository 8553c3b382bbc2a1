/* Seeded, counter-based random words: word i of stream s depends only on (seed, s, i), so any
 * batch or thread can generate its part of an input alone and the input never depends on how
 * the work is split. */
#ifndef MPGPU_RANDOM_WORDS_H
#define MPGPU_RANDOM_WORDS_H

#include <stddef.h>
#include <stdint.h>

/* SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijection with good avalanche. */
static inline uint64_t splitmix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Fills out[0..n) with words of stream `stream` under `seed`. */
void random_words(uint64_t seed, uint64_t stream, uint32_t *out, size_t n);

#endif
