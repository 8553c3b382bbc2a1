#include "hexio.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int hex_digit(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    ch = tolower(ch);
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    return -1;
}

/* Parses one hex token into words (least significant first), with n words of room.
 * Returns the number of significant bits, or -1 for a bad token. */
static long parse_hex(const char *tok, size_t len, uint32_t *out, size_t n)
{
    if (len >= 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
        tok += 2;
        len -= 2;
    }
    if (len == 0)
        return -1;
    while (len > 1 && *tok == '0') {
        tok++;
        len--;
    }
    for (size_t i = 0; i < len; i++)
        if (hex_digit((unsigned char)tok[i]) < 0)
            return -1;
    long bits = (long)len * 4;
    int top = hex_digit((unsigned char)tok[0]);
    for (int b = 3; b >= 0 && !(top >> b & 1); b--)
        bits--;
    if (out) {
        memset(out, 0, n * sizeof *out);
        for (size_t i = 0; i < len && i / 8 < n; i++) {
            int d = hex_digit((unsigned char)tok[len - 1 - i]);
            out[i / 8] |= (uint32_t)d << (4 * (i % 8));
        }
    }
    return bits;
}

struct line_tokens {
    const char *a, *b;
    size_t alen, blen;
};

/* Splits a line into exactly two tokens; returns 0, 1 for a line to skip, or -1. */
static int split_line(char *line, struct line_tokens *t)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0' || *p == '#')
        return 1;
    t->a = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    t->alen = (size_t)(p - t->a);
    while (isspace((unsigned char)*p))
        p++;
    t->b = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    t->blen = (size_t)(p - t->b);
    while (isspace((unsigned char)*p))
        p++;
    return (t->blen == 0 || *p) ? -1 : 0;
}

void hex_pairs_read(const char *path, unsigned words_wanted, unsigned max_words,
                    struct hex_pairs *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cli_bad_input("--input '%s' cannot be opened for reading: %s; accepted: a readable file of "
                      "'HEX_A HEX_B' lines", path, strerror(errno));
    /* fopen opens a directory for reading; its first read would fail with EISDIR. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
        cli_bad_input("--input '%s' is a directory; accepted: a readable file of 'HEX_A HEX_B' lines",
                      path);
    char *line = NULL;
    size_t cap = 0, lineno = 0, count = 0;
    long max_bits = 1;
    struct line_tokens t;
    /* First pass: validate every line and find the widest operand. */
    while (getline(&line, &cap, f) != -1) {
        lineno++;
        int r = split_line(line, &t);
        if (r == 1)
            continue;
        long ba = r ? -1 : parse_hex(t.a, t.alen, NULL, 0);
        long bb = r ? -1 : parse_hex(t.b, t.blen, NULL, 0);
        if (ba < 0 || bb < 0)
            cli_bad_input("--input %s line %zu is not two hexadecimal operands; accepted: "
                          "'HEX_A HEX_B'", path, lineno);
        if (ba > (long)max_words * 32 || bb > (long)max_words * 32)
            cli_bad_input("--input %s line %zu: operand of %ld bits; accepted: at most %u bits",
                          path, lineno, ba > bb ? ba : bb, max_words * 32);
        if (words_wanted && (ba > (long)words_wanted * 32 || bb > (long)words_wanted * 32))
            cli_bad_input("--input %s line %zu: operand of %ld bits does not fit --bits %u", path,
                          lineno, ba > bb ? ba : bb, words_wanted * 32);
        if (ba > max_bits)
            max_bits = ba;
        if (bb > max_bits)
            max_bits = bb;
        count++;
    }
    if (ferror(f))
        cli_bad_input("--input '%s' cannot be read: %s", path, strerror(errno));
    if (count == 0)
        cli_bad_input("--input %s holds no operand pairs; accepted: lines 'HEX_A HEX_B'", path);
    unsigned words = words_wanted ? words_wanted : (unsigned)((max_bits + 31) / 32);
    if (words < 2)
        words = 2;
    out->count = count;
    out->words = words;
    out->a = malloc(count * words * sizeof(uint32_t));
    out->b = malloc(count * words * sizeof(uint32_t));
    if (!out->a || !out->b)
        cli_bad_input("--input %s: %zu pairs of %u bits do not fit in host memory", path, count,
                      words * 32);
    rewind(f);
    size_t p = 0;
    while (getline(&line, &cap, f) != -1) {
        if (split_line(line, &t) != 0)
            continue;
        parse_hex(t.a, t.alen, out->a + p * words, words);
        parse_hex(t.b, t.blen, out->b + p * words, words);
        p++;
    }
    free(line);
    fclose(f);
}

void hex_pairs_free(struct hex_pairs *p)
{
    free(p->a);
    free(p->b);
    p->a = p->b = NULL;
}

void hex_write_number(FILE *f, const uint32_t *x, size_t n)
{
    size_t top = n;
    while (top > 0 && x[top - 1] == 0)
        top--;
    if (top == 0) {
        fputs("0\n", f);
        return;
    }
    fprintf(f, "%x", x[top - 1]);
    for (size_t i = top - 1; i-- > 0;)
        fprintf(f, "%08x", x[i]);
    fputc('\n', f);
}
