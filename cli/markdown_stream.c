/* fopencookie is glibc's. */
#define _GNU_SOURCE
#include "markdown_stream.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct markdown_filter {
    FILE *out;
    char *line;        /* the line so far, not yet ended by '\n' */
    size_t len, cap;
    int last_kind;     /* of the last line written: 0 none yet, 1 comment, 2 other */
};

static void write_line(struct markdown_filter *m)
{
    const bool comment = m->len > 0 && m->line[0] == '#';
    const int kind = comment ? 1 : 2;
    if (m->last_kind && kind != m->last_kind)
        fputc('\n', m->out);
    m->last_kind = kind;
    if (comment) {
        /* "#   indented" keeps its indent as non-breaking spaces: Markdown drops plain ones. */
        size_t i = 1, spaces = 0;
        while (i < m->len && m->line[i] == ' ')
            i++, spaces++;
        fputs(">", m->out);
        for (size_t s = 1; s < spaces; s++)
            fputs("&nbsp;", m->out);
        fputc(' ', m->out);
        fwrite(m->line + i, 1, m->len - i, m->out);
        fputs("  \n", m->out);
    } else {
        fwrite(m->line, 1, m->len, m->out);
        fputc('\n', m->out);
    }
    m->len = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
    struct markdown_filter *m = cookie;
    for (size_t i = 0; i < size; i++) {
        if (buf[i] == '\n') {
            write_line(m);
            continue;
        }
        if (m->len == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 256;
            char *grown = realloc(m->line, cap);
            if (!grown)
                return i ? (ssize_t)i : -1;
            m->line = grown;
            m->cap = cap;
        }
        m->line[m->len++] = buf[i];
    }
    fflush(m->out);
    return (ssize_t)size;
}

static int filter_close(void *cookie)
{
    struct markdown_filter *m = cookie;
    if (m->len)
        write_line(m);
    fflush(m->out);
    free(m->line);
    free(m);
    return 0;
}

FILE *markdown_stream_open(FILE *out)
{
    struct markdown_filter *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->out = out;
    FILE *f = fopencookie(m, "w", (cookie_io_functions_t){.write = filter_write,
                                                          .close = filter_close});
    if (!f) {
        free(m);
        return NULL;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}
