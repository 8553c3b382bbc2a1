#include "hostmem.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

uint64_t hostmem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    uint64_t kib = 0;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1)
                break;
        fclose(f);
    }
    return kib ? kib * 1024 : UINT64_MAX;
}

void hostmem_format(char *out, size_t len, uint64_t bytes)
{
    if (bytes >= (UINT64_C(1) << 30))
        snprintf(out, len, "%.2f GiB", bytes / 1073741824.0);
    else if (bytes >= (UINT64_C(1) << 20))
        snprintf(out, len, "%.2f MiB", bytes / 1048576.0);
    else
        snprintf(out, len, "%" PRIu64 " bytes", bytes);
}

void hostmem_require(uint64_t bytes, const char *what)
{
    hostmem_require_lower(bytes, what, NULL);
}

void hostmem_require_lower(uint64_t bytes, const char *what, const char *lower)
{
    const uint64_t avail = hostmem_available();
    /* A tenth is left for the process itself, the CUDA runtime and the page cache. */
    if (avail != UINT64_MAX && bytes > avail / 10 * 9) {
        char need[32], have[32];
        hostmem_format(need, sizeof need, bytes);
        hostmem_format(have, sizeof have, avail);
        cli_bad_input("%s needs %s (%" PRIu64 " bytes) of host memory; %s are available%s%s", what,
                      need, bytes, have, lower ? "; lower " : "", lower ? lower : "");
    }
}
