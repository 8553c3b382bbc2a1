#include "test_hook.h"

#include <stdlib.h>
#include <string.h>

bool test_hook_spoil(const char *site, uint64_t n)
{
    const char *want = getenv("MPGPU_TEST_SPOIL");
    if (!want)
        return false;
    const size_t len = strlen(site);
    if (strncmp(want, site, len) != 0 || want[len] != ':')
        return false;
    char *end = NULL;
    const unsigned long long k = strtoull(want + len + 1, &end, 10);
    return end != want + len + 1 && *end == '\0' && k == n;
}
