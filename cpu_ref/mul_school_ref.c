#include "mul_school_ref.h"

void ref_mul_school(uint32_t *c, const uint32_t *a, unsigned wa, const uint32_t *b, unsigned wb)
{
    for (unsigned i = 0; i < wa + wb; i++)
        c[i] = 0;
    for (unsigned j = 0; j < wb; j++) {
        uint64_t u = 0;
        for (unsigned i = 0; i < wa; i++) {
            uint64_t uv = (uint64_t)a[i] * b[j] + c[i + j] + u;
            c[i + j] = (uint32_t)uv;
            u = uv >> 32;
        }
        c[wa + j] = (uint32_t)u;
    }
}
