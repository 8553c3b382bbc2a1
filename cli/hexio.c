#include "hexio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Room on a line beyond its two numbers' digits and 0x prefixes: the spaces around them. */
#define HEX_LINE_SLACK 64
/* The first read's size; the buffer doubles from there while a line needs it. */
#define HEX_READ_CHUNK 65536
static const char blanks[] = " \t\r\v\f";

static unsigned hex_digit(char ch)
{
    return ch <= '9' ? (unsigned)(ch - '0') : (unsigned)((ch | 0x20) - 'a' + 10);
}

void hex_lines_open_one(struct hex_lines *in, const char *option, const char *path,
                        const char *format, uint64_t max_bits)
{
    memset(in, 0, sizeof *in);
    in->option = option;
    in->numbers = 1;
    in->path = path;
    in->format = format;
    in->max_bits = max_bits;
    in->max_len = 2 * (2 + (size_t)((max_bits + 3) / 4)) + HEX_LINE_SLACK;
    in->f = !strcmp(path, "-") ? stdin : fopen(path, "r");
    if (!in->f)
        cli_bad_input("%s '%s' cannot be opened for reading: %s; accepted: a readable file of "
                      "%s lines", option, path, strerror(errno), format);
    /* fopen opens a directory for reading; its first read would fail with EISDIR. */
    struct stat st;
    if (fstat(fileno(in->f), &st) == 0 && S_ISDIR(st.st_mode))
        cli_bad_input("%s '%s' is a directory; accepted: a readable file of %s lines", option,
                      path, format);
}

void hex_lines_open(struct hex_lines *in, const char *path, const char *format, uint64_t max_bits)
{
    hex_lines_open_one(in, "--input", path, format, max_bits);
    in->numbers = 2;
}

void hex_lines_close(struct hex_lines *in)
{
    if (in->f && in->f != stdin)
        fclose(in->f);
    free(in->buf);
    in->f = NULL;
    in->buf = NULL;
}

static _Noreturn void line_too_long(const struct hex_lines *in)
{
    char bits[24];
    cli_bad_input("%s %s line %zu has more than %zu characters; accepted: %s lines of %s "
                  "of at most %s bits", in->option, in->path, in->line + 1, in->max_len,
                  in->format, in->numbers == 1 ? "a number" : "two numbers",
                  cli_format_bound(bits, in->max_bits));
}

/* The next line without its newline, NUL-terminated; NULL at the end of the file. A line is held
 * whole in buf, which grows to max_len + 2 at most: a longer line is refused as soon as it is
 * seen to be longer, and a NUL byte as soon as it is read. */
static char *next_line(struct hex_lines *in)
{
    for (;;) {
        char *line = in->buf + in->start;
        const size_t have = in->end - in->start;
        char *nl = have ? memchr(line + in->scanned, '\n', have - in->scanned) : NULL;
        const size_t len = nl ? (size_t)(nl - line) : have;
        /* fgets and the string functions would end the line there, and its rest be lost. */
        if (len > in->scanned && memchr(line + in->scanned, '\0', len - in->scanned))
            cli_bad_input("%s %s line %zu holds a NUL byte; accepted: %s lines of text",
                          in->option, in->path, in->line + 1, in->format);
        if (len > in->max_len)
            line_too_long(in);
        if (nl || (in->eof && have > 0)) {
            in->line++;
            line[len] = '\0';
            in->start += len + (nl != NULL);
            in->scanned = 0;
            return line;
        }
        in->scanned = len;
        if (in->eof)
            return NULL;
        if (in->start > 0) {
            memmove(in->buf, line, have);
            in->start = 0;
            in->end = have;
        }
        if (in->cap - in->end < 2) {
            size_t cap = in->cap ? 2 * in->cap : HEX_READ_CHUNK;
            if (cap > in->max_len + 2)
                cap = in->max_len + 2;
            char *grown = realloc(in->buf, cap);
            if (!grown)
                cli_bad_input("%s %s line %zu: out of host memory for a line of %zu characters",
                              in->option, in->path, in->line + 1, in->end);
            in->buf = grown;
            in->cap = cap;
        }
        /* One byte stays free for the terminator of a last line without a newline. */
        const size_t got = fread(in->buf + in->end, 1, in->cap - in->end - 1, in->f);
        if (got == 0 && ferror(in->f))
            cli_bad_input("%s '%s' cannot be read: %s", in->option, in->path, strerror(errno));
        in->eof = got == 0;
        in->end += got;
    }
}

/* The size in bits of a hexadecimal number (optional 0x; 0 for zero), or -1 when tok is not one. */
static int64_t hex_bits(const char *tok)
{
    if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
        tok += 2;
    const size_t len = strlen(tok);
    if (len == 0 || strspn(tok, "0123456789abcdefABCDEF") != len)
        return -1;
    while (*tok == '0')
        tok++;
    if (*tok == '\0')
        return 0;
    const unsigned top = hex_digit(tok[0]);
    return 4 * (int64_t)strlen(tok) - (top < 2 ? 3 : top < 4 ? 2 : top < 8 ? 1 : 0);
}

static uint64_t number_bits(const struct hex_lines *in, const char *tok)
{
    if (tok[0] == '-')
        cli_bad_input("%s %s line %zu: '%s' is negative; accepted: hexadecimal numbers >= 0",
                      in->option, in->path, in->line, tok);
    const int64_t bits = hex_bits(tok);
    if (bits < 0)
        cli_bad_input("%s %s line %zu: '%s' is not a hexadecimal number", in->option, in->path,
                      in->line, tok);
    if ((uint64_t)bits > in->max_bits) {
        char max[24];
        cli_bad_input("%s %s line %zu: a number of %lld bits; accepted: at most %s bits",
                      in->option, in->path, in->line, (long long)bits,
                      cli_format_bound(max, in->max_bits));
    }
    return (uint64_t)bits;
}

/* The next line that holds numbers (tokens[0 .. in->numbers)), checked and 0x dropped; false
 * after the last. */
static bool next_numbers(struct hex_lines *in, char **tokens, uint64_t *bits)
{
    char *line;
    while ((line = next_line(in)) != NULL) {
        char *save = NULL, *t = strtok_r(line, blanks, &save);
        if (!t || t[0] == '#')
            continue;
        unsigned n = 0;
        for (; t && n <= in->numbers; t = strtok_r(NULL, blanks, &save))
            if (n < in->numbers)
                tokens[n++] = t;
            else
                n++;
        if (n != in->numbers)
            cli_bad_input("%s %s line %zu: expected %s %s", in->option, in->path, in->line,
                          in->numbers == 1 ? "one hexadecimal number" : "two hexadecimal numbers",
                          in->format);
        for (unsigned k = 0; k < n; k++) {
            bits[k] = number_bits(in, tokens[k]);
            tokens[k] += tokens[k][0] == '0' && (tokens[k][1] == 'x' || tokens[k][1] == 'X') ? 2 : 0;
        }
        return true;
    }
    return false;
}

bool hex_lines_next(struct hex_lines *in, char **x, uint64_t *x_bits, char **y, uint64_t *y_bits)
{
    char *tokens[2];
    uint64_t bits[2];
    if (!next_numbers(in, tokens, bits))
        return false;
    *x = tokens[0];
    *y = tokens[1];
    *x_bits = bits[0];
    *y_bits = bits[1];
    return true;
}

bool hex_lines_next_one(struct hex_lines *in, char **x, uint64_t *x_bits)
{
    return next_numbers(in, x, x_bits);
}

/* Hexadecimal digits into n words, least significant first. */
static void hex_to_words(const char *tok, uint32_t *out, size_t n)
{
    memset(out, 0, n * sizeof *out);
    const size_t len = strlen(tok);
    for (size_t i = 0; i < len && i / 8 < n; i++)
        out[i / 8] |= (uint32_t)hex_digit(tok[len - 1 - i]) << (4 * (i % 8));
}

/* Makes room for `need` elements of `size` bytes in *p (capacity *cap, doubled as needed). */
static bool reserve(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need)
        cap2 *= 2;
    void *grown = realloc(*p, cap2 * size);
    if (!grown)
        return false;
    *p = grown;
    *cap = cap2;
    return true;
}

void hex_pairs_read(const char *path, unsigned words_wanted, unsigned max_words,
                    struct hex_pairs *out)
{
    struct hex_lines in;
    hex_lines_open(&in, path, "'HEX_A HEX_B'", (uint64_t)max_words * 32);
    /* The file is read once: every operand's words are kept in `words` as they come, each
     * with its length in `lens`, and laid out at the widest operand's size at the end. */
    uint32_t *words = NULL, *lens = NULL;
    size_t n_words = 0, cap_words = 0, count = 0, cap_lens = 0;
    uint64_t max_bits = 1;
    char *tok[2];
    uint64_t bits[2];
    while (hex_lines_next(&in, &tok[0], &bits[0], &tok[1], &bits[1])) {
        for (int k = 0; k < 2; k++) {
            if (words_wanted && bits[k] > (uint64_t)words_wanted * 32)
                cli_bad_input("--input %s line %zu: operand of %llu bits does not fit --bits %u",
                              path, in.line, (unsigned long long)bits[k], words_wanted * 32);
            const size_t w = (size_t)(bits[k] + 31) / 32;
            if (!reserve((void **)&words, &cap_words, n_words + w, sizeof *words) ||
                !reserve((void **)&lens, &cap_lens, 2 * count + k + 1, sizeof *lens))
                cli_bad_input("--input %s: the operands up to line %zu do not fit in host memory",
                              path, in.line);
            hex_to_words(tok[k], words + n_words, w);
            n_words += w;
            lens[2 * count + k] = (uint32_t)w;
            if (bits[k] > max_bits)
                max_bits = bits[k];
        }
        count++;
    }
    hex_lines_close(&in);
    if (count == 0)
        cli_bad_input("--input %s holds no operand pairs; accepted: lines 'HEX_A HEX_B'", path);
    unsigned w = words_wanted ? words_wanted : (unsigned)((max_bits + 31) / 32);
    if (w < 2)
        w = 2;
    out->count = count;
    out->words = w;
    out->a = calloc(count * w, sizeof(uint32_t));
    out->b = calloc(count * w, sizeof(uint32_t));
    if (!out->a || !out->b)
        cli_bad_input("--input %s: %zu pairs of %u bits do not fit in host memory", path, count,
                      w * 32);
    const uint32_t *from = words;
    for (size_t p = 0; p < count; p++) {
        memcpy(out->a + p * w, from, lens[2 * p] * sizeof *from);
        from += lens[2 * p];
        memcpy(out->b + p * w, from, lens[2 * p + 1] * sizeof *from);
        from += lens[2 * p + 1];
    }
    free(words);
    free(lens);
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
