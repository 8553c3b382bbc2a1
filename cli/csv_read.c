#include "csv_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *result_get(const struct result_record *r, const char *name)
{
    for (size_t i = 0; i < r->n_fields; i++)
        if (!strcmp(r->fields[i].name, name))
            return r->fields[i].value;
    return NULL;
}

/* Grows *items (of `size` bytes each) to hold one more than *n. */
static int grow(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    const size_t more = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, more * size);
    if (!p)
        return -1;
    *items = p;
    *cap = more;
    return 0;
}

const char *result_table_keep(struct result_table *t, const char *s, size_t len)
{
    if (grow((void **)&t->strings, &t->cap_strings, t->n_strings, sizeof *t->strings) != 0)
        return NULL;
    char *copy = strndup(s, len);
    if (copy)
        t->strings[t->n_strings++] = copy;
    return copy;
}

struct result_record *result_table_add_row(struct result_table *t, unsigned line)
{
    if (grow((void **)&t->rows, &t->cap_rows, t->n_rows, sizeof *t->rows) != 0)
        return NULL;
    struct result_record *r = &t->rows[t->n_rows++];
    memset(r, 0, sizeof *r);
    r->line = line;
    return r;
}

int result_record_add(struct result_table *t, struct result_record *r, const char *name,
                      const char *value)
{
    const char *v = result_table_keep(t, value, strlen(value));
    struct result_field *f = realloc(r->fields, (r->n_fields + 1) * sizeof *f);
    if (!v || !f)
        return -1;
    r->fields = f;
    f[r->n_fields++] = (struct result_field){name, v};
    return 0;
}

void result_table_free(struct result_table *t)
{
    for (size_t i = 0; i < t->n_rows; i++) {
        free(t->rows[i].fields);
        free(t->rows[i].samples_ms);
    }
    for (size_t i = 0; i < t->n_strings; i++)
        free(t->strings[i]);
    free(t->rows);
    free(t->strings);
    memset(t, 0, sizeof *t);
}

/* Splits line (no newline) into its fields, each kept by t, as cli/report.c quotes them: a field
 * holding a comma or a quote is quoted and its quotes doubled. Returns the number of fields
 * (up to max), or -1 for an unterminated quote or no memory. */
static int split_line(struct result_table *t, const char *line, const char **fields, int max)
{
    int n = 0;
    const char *p = line;
    char *buf = malloc(strlen(line) + 1);
    if (!buf)
        return -1;
    for (;;) {
        size_t len = 0;
        if (*p == '"') {
            for (p++;; p++) {
                if (*p == '\0') {
                    free(buf);
                    return -1;
                }
                if (*p == '"' && p[1] != '"')
                    break;
                p += *p == '"';
                buf[len++] = *p;
            }
            p++;
        }
        while (*p && *p != ',')
            buf[len++] = *p++;
        if (n < max && !(fields[n++] = result_table_keep(t, buf, len))) {
            free(buf);
            return -1;
        }
        if (*p++ != ',')
            break;
    }
    free(buf);
    return n;
}

/* Enough for any schema so far, with room for columns appended later. */
#define MAX_COLUMNS 256

int result_file_first_char(FILE *f)
{
    int ch;
    while ((ch = getc(f)) == ' ' || ch == '\n' || ch == '\t' || ch == '\r')
        ;
    return ch;
}

int csv_read_table(FILE *f, struct result_table *t, char *err, size_t err_len)
{
    memset(t, 0, sizeof *t);
    const char *header[MAX_COLUMNS];
    int n_header = 0;
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        /* A spreadsheet's UTF-8 byte order mark before the header is no part of it. */
        if (lineno == 1 && !strncmp(line, "\xEF\xBB\xBF", 3))
            memmove(line, line + 3, strlen(line + 3) + 1);
        if (line[0] == '\0')
            continue;
        const char *fields[MAX_COLUMNS];
        const int n = split_line(t, line, fields, MAX_COLUMNS);
        if (n < 0) {
            snprintf(err, err_len, "line %u: a quoted field is not closed (or out of memory)", lineno);
            rc = -1;
        } else if (!strcmp(fields[0], "timestamp")) {
            /* A header: the first, or another where files of other schemas were concatenated. */
            n_header = n;
            memcpy(header, fields, n * sizeof *fields);
        } else if (n_header == 0) {
            snprintf(err, err_len, "line %u: no header line before it (an mpgpu CSV starts with "
                                   "'timestamp,'; docs/csv.md)", lineno);
            rc = -1;
        } else if (n != n_header) {
            snprintf(err, err_len, "line %u has %d fields, its header %d", lineno, n, n_header);
            rc = -1;
        } else {
            struct result_record *r = result_table_add_row(t, lineno);
            r = r && (r->fields = malloc(n * sizeof *r->fields)) ? r : NULL;
            if (!r) {
                snprintf(err, err_len, "out of memory at line %u", lineno);
                rc = -1;
                break;
            }
            for (int i = 0; i < n; i++)
                r->fields[i] = (struct result_field){header[i], fields[i]};
            r->n_fields = (size_t)n;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, err_len, "reading failed: %s", strerror(errno));
        rc = -1;
    }
    if (rc == 0 && n_header == 0) {
        snprintf(err, err_len, "is empty: no header line (docs/csv.md)");
        rc = -1;
    }
    free(line);
    return rc;
}
