/* `mpgpu gcd --shared-factors FILE`: which of the moduli in FILE share a factor with another
 * (libmpgpu's mpgpu_shared_factors_*), timed and checked by the one run loop; and `mpgpu gcd
 * --make-moduli N`: RSA-like moduli with planted relations to search (docs/shared-factors.md). */
#ifndef MPGPU_GCD_SHARED_H
#define MPGPU_GCD_SHARED_H

#include <stdint.h>

#include "cli.h"

struct gcd_shared_args {
    const char *moduli_path; /* --shared-factors */
    uint64_t make_count;     /* --make-moduli; 0: not asked */
    const char *plants;      /* --plant; NULL: none */
    const char *output;      /* --output */
    const char *checkpoint;  /* --checkpoint (pairs-gpu); NULL: none */
    bool threads_given, verify_given, reps_given, warmup_given, device_given;
};

/* Each runs the whole command and returns its exit status. */
int gcd_shared_factors(struct cli_common *opt, const struct gcd_shared_args *a);
int gcd_make_moduli(const struct cli_common *opt, const struct gcd_shared_args *a);

#endif
