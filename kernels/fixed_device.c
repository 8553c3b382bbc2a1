#include "fixed_device.h"

#include "fixed_bits.h"

/* One launcher per built precision, each in its own library (kernels/meson.build). */
extern fixed_launch_fn MPGPU_FIXED_LAUNCHERS;
static const unsigned built_bits[] = {MPGPU_FIXED_BITS};
static fixed_launch_fn *const launchers[] = {MPGPU_FIXED_LAUNCHERS};
#define N_BUILT (sizeof built_bits / sizeof built_bits[0])

const unsigned *fixed_built_bits(size_t *n)
{
    *n = N_BUILT;
    return built_bits;
}

fixed_launch_fn *fixed_launcher(unsigned bits)
{
    for (size_t i = 0; i < N_BUILT; i++)
        if (built_bits[i] == bits)
            return launchers[i];
    return NULL;
}
