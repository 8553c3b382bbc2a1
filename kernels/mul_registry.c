/* The GPU multiplication methods of `mpgpu mul`, in the order --help lists them. */
#include "mul.h"

#define LAUNCH(fn)                                                                          \
    cudaError_t fn(const uint32_t *a, const uint32_t *b, uint32_t *c, unsigned words,       \
                   size_t count, void *scratch, cudaStream_t stream)

LAUNCH(mul_thread_comba_launch);

static const struct mul_method methods[] = {
    {"thread-comba", "one thread per product, Comba column order (000 Table 3.3, 001 Table II)",
     MUL_MIN_WORDS, MUL_MAX_WORDS, 1, MUL_LAYOUT_WORD_MAJOR, mul_thread_comba_launch, NULL},
};

const struct mul_method *mul_methods(size_t *n)
{
    *n = sizeof methods / sizeof methods[0];
    return methods;
}
