/* libmpgpu's Toom-k products (mpgpu.h): Toom-k is the product method "toom-<k>" of the
 * registry (mul_registry.c), so these calls name it and hand over to the products'. */
#include "mpgpu_internal.h"
#include "toom_points.h"

unsigned mpgpu_toom_k_min(void)
{
    return TOOM_K_MIN;
}

unsigned mpgpu_toom_k_max(void)
{
    return TOOM_K_MAX;
}

mpgpu_status mpgpu_toom_method(unsigned k, const char **method)
{
    static const char *const names[TOOM_K_MAX - TOOM_K_MIN + 1] = {
        "toom-2", "toom-3", "toom-4", "toom-5", "toom-6", "toom-7", "toom-8", "toom-9"};
    _Static_assert(TOOM_K_MIN == 2 && TOOM_K_MAX == 9, "names: one for each k built");
    if (!method || k < TOOM_K_MIN || k > TOOM_K_MAX)
        return MPGPU_ERR_BAD_ARGUMENT;
    *method = names[k - TOOM_K_MIN];
    return MPGPU_OK;
}

mpgpu_status mpgpu_toom_check(unsigned k, unsigned bits)
{
    const char *method;
    mpgpu_status st = mpgpu_toom_method(k, &method);
    return st != MPGPU_OK ? st : mpgpu_mul_check(method, bits);
}

mpgpu_status mpgpu_toom_device(unsigned k, unsigned bits, size_t count, const uint32_t *d_a,
                               const uint32_t *d_b, uint32_t *d_c, mpgpu_stream stream)
{
    const char *method;
    mpgpu_status st = mpgpu_toom_method(k, &method);
    return st != MPGPU_OK ? st : mpgpu_mul_device(method, bits, count, d_a, d_b, d_c, stream);
}

mpgpu_status mpgpu_toom_host(unsigned k, unsigned bits, size_t count, const uint32_t *a,
                             const uint32_t *b, uint32_t *c)
{
    const char *method;
    mpgpu_status st = mpgpu_toom_method(k, &method);
    return st != MPGPU_OK ? st : mpgpu_mul_host(method, bits, count, a, b, c);
}
