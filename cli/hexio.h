/* The I/O mode of `mpgpu mul`: operands and products as hexadecimal text, one per line. */
#ifndef MPGPU_HEXIO_H
#define MPGPU_HEXIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Operand pairs read from a file: product-major arrays of `words`-word operands. */
struct hex_pairs {
    size_t count;
    unsigned words;
    uint32_t *a, *b;
};

/* Reads "HEX_A HEX_B" lines (optional 0x prefixes; blank lines and lines starting with '#' are
 * skipped). words_wanted 0 picks the smallest multiple of 32 bits, at least 64, that holds the
 * largest operand. Any unreadable line or operand wider than words_wanted exits with status 2
 * naming the file and line; a path that cannot be read (missing, no permission, a directory)
 * exits with status 2 naming it and the reason. */
void hex_pairs_read(const char *path, unsigned words_wanted, unsigned max_words,
                    struct hex_pairs *out);
void hex_pairs_free(struct hex_pairs *p);

/* Writes an n-word number as lowercase hex without leading zeros ("0" for zero) and a newline. */
void hex_write_number(FILE *f, const uint32_t *x, size_t n);

#endif
