/* Schoolbook multiplication of one computation by one thread: 003 Algorithm B.1. */
#include "ctt_ref.h"

void ctt_mul_schoolbook(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
    for (uint32_t i = 0; i < na; i++) {
        const uint64_t w1 = a[i];
        uint32_t c = 0;
        /* B.1 adds into result memory that the host zeroed; here row 0 reads nothing and row i
         * reads only words i .. i + nb - 1, which row i - 1 wrote, so the result space needs no
         * zeroing. B.1's "while j < s2 or c != 0" ends at j = nb, where c < 2^32 is one word:
         * the row writes it unconditionally. */
        for (uint32_t j = 0; j < nb; j++) {
            const uint64_t t = w1 * b[j] + (i ? r[i + j] : 0) + c; /* < 2^64 */
            r[i + j] = (uint32_t)t;
            c = (uint32_t)(t >> 32);
        }
        r[i + nb] = c;
    }
}
