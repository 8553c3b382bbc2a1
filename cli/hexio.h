/* The --input files of `mpgpu mul`, `fixed` and `gcd` (pairs of hexadecimal numbers, one pair a
 * line), and the hexadecimal products `mpgpu mul --output` writes. */
#ifndef MPGPU_HEXIO_H
#define MPGPU_HEXIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The one reader of those files: "X Y" lines (optional 0x prefixes; blank lines and lines
 * starting with '#' are skipped), read once from start to end, so that a pipe, a FIFO or
 * /dev/stdin serves as a file does. Any fault exits with status 2 naming the file and the line:
 * a line that is not two hexadecimal numbers >= 0, a number wider than max_bits, a NUL byte, or
 * a line longer than two such numbers can be (so a file without newlines, /dev/zero say, costs
 * bounded memory); so does a path that cannot be read (missing, no permission, a directory). */
struct hex_lines {
    const char *option; /* what named the file in messages: "--input" */
    unsigned numbers;   /* numbers a line: 2 (hex_lines_next) or 1 (hex_lines_next_one) */
    const char *path;
    const char *format; /* the line as help names it, e.g. "'HEX_A HEX_B'" */
    uint64_t max_bits;
    size_t max_len;     /* characters a line may have, from max_bits */
    size_t line;        /* the number of the line in hand, from 1 */
    FILE *f;
    char *buf;          /* buf[start, end) is read and not yet returned */
    size_t cap, start, end, scanned;
    bool eof;
};

void hex_lines_open(struct hex_lines *in, const char *path, const char *format, uint64_t max_bits);
/* The same for a file of one number a line (hex_lines_next_one), named `option` in messages
 * ("--shared-factors"). */
void hex_lines_open_one(struct hex_lines *in, const char *option, const char *path,
                        const char *format, uint64_t max_bits);
/* The next pair's two numbers as NUL-terminated hexadecimal digits (0x dropped) and their sizes
 * in bits (0 for zero); false after the last. The text lives until the next call. */
bool hex_lines_next(struct hex_lines *in, char **x, uint64_t *x_bits, char **y, uint64_t *y_bits);
/* The next line's one number, as hex_lines_next gives two. */
bool hex_lines_next_one(struct hex_lines *in, char **x, uint64_t *x_bits);
void hex_lines_close(struct hex_lines *in);

/* Operand pairs read from a file: product-major arrays of `words`-word operands. */
struct hex_pairs {
    size_t count;
    unsigned words;
    uint32_t *a, *b;
};

/* "HEX_A HEX_B" lines through hex_lines, operands of at most max_words words. words_wanted 0
 * picks the smallest multiple of 32 bits, at least 64, that holds the largest operand; an
 * operand wider than words_wanted exits with status 2 naming the line. */
void hex_pairs_read(const char *path, unsigned words_wanted, unsigned max_words,
                    struct hex_pairs *out);
void hex_pairs_free(struct hex_pairs *p);

/* Writes an n-word number as lowercase hex without leading zeros ("0" for zero) and a newline. */
void hex_write_number(FILE *f, const uint32_t *x, size_t n);

#endif
