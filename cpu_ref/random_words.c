#include "random_words.h"

void random_words(uint64_t seed, uint64_t stream, uint32_t *out, size_t n)
{
    uint64_t base = splitmix64(seed ^ splitmix64(stream));
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint64_t x = splitmix64(base + i);
        out[i] = (uint32_t)x;
        out[i + 1] = (uint32_t)(x >> 32);
    }
    if (n & 1)
        out[n - 1] = (uint32_t)splitmix64(base + n - 1);
}
