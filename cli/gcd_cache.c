#include "gcd_cache.h"

#include <stdio.h>
#include <stdlib.h>

const char *gcd_moduli_cache_dir(char *out, size_t len)
{
    static const char *const vars[] = {"MPGPU_CACHE", "XDG_CACHE_HOME", "HOME"};
    static const char *const below[] = {"", "/mpgpu", "/.cache/mpgpu"};
    for (int i = 0; i < 3; i++) {
        const char *env = getenv(vars[i]);
        if (env && *env) {
            snprintf(out, len, "%s%s", env, below[i]);
            return vars[i];
        }
    }
    if (len)
        out[0] = '\0';
    return NULL;
}
