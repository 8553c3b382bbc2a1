/* Host memory, checked before work starts: malloc does not return NULL under Linux's overcommit,
 * so a run that would not fit is refused up front (naming the bytes needed and available)
 * instead of being killed by the kernel part-way. */
#ifndef MPGPU_HOSTMEM_H
#define MPGPU_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

/* Bytes the host can still give (MemAvailable), UINT64_MAX when unknown. */
uint64_t hostmem_available(void);

/* cli_bad_input when `bytes` exceed 90 % of what the host can give, naming what needs them. */
void hostmem_require(uint64_t bytes, const char *what);

/* hostmem_require, the line ending with "; lower " and `lower`: the options to give less of. */
void hostmem_require_lower(uint64_t bytes, const char *what, const char *lower);

/* "1.50 GiB" */
void hostmem_format(char *out, size_t len, uint64_t bytes);

#endif
