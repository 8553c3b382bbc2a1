/* Test-only fault injection, so that the gpu suite can show that a wrong result is caught
 * wherever it was made (issue 36): MPGPU_TEST_SPOIL=SITE:N asks the place named SITE to spoil
 * one result of its N-th instance (a GPU worker, a chunk) after the device computed it, as a
 * faulty kernel would. Unset, or naming another place, nothing happens. */
#ifndef MPGPU_TEST_HOOK_H
#define MPGPU_TEST_HOOK_H

#include <stdbool.h>
#include <stdint.h>

/* Whether instance n of site should spoil a result now. */
bool test_hook_spoil(const char *site, uint64_t n);

#endif
