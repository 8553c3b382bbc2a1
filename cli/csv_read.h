/* Reading result files back: an mpgpu CSV of any schema (fields found by the header's names, a
 * header line repeated where files were concatenated, RFC 4180 quoting as cli/report.c writes
 * it) or, through json_report.h, an --json file, into one table of rows whose fields are looked
 * up by their CSV column names. For `mpgpu compare`. */
#ifndef MPGPU_CSV_READ_H
#define MPGPU_CSV_READ_H

#include <stddef.h>
#include <stdio.h>

struct result_field {
    const char *name, *value;
};

struct result_record {
    struct result_field *fields;
    size_t n_fields;
    unsigned line;        /* in the file, for messages (JSON: the row's index, from 1) */
    double *samples_ms;   /* every sample, from a JSON file; NULL from a CSV */
    unsigned n_samples;
};

struct result_table {
    struct result_record *rows;
    size_t n_rows, cap_rows;
    /* Every string the rows point at, freed with the table. */
    char **strings;
    size_t n_strings, cap_strings;
};

/* The value of column name in r: "" when the column is there and empty, NULL when absent. */
const char *result_get(const struct result_record *r, const char *name);

/* The first character of f after blanks (EOF for none), read and consumed: '{' starts a --json
 * file, anything else a CSV (compare, and --json before it replaces a file). */
int result_file_first_char(FILE *f);

/* Reads f, open on a CSV (a JSON file is read by json_read_table), to its end into t; f stays
 * open. Returns 0, or -1 with the reason, naming the line, in err. */
int csv_read_table(FILE *f, struct result_table *t, char *err, size_t err_len);

/* For readers that fill a table: a new row (NULL when out of memory), a copy of s kept by the
 * table, and a field added to a row (-1 when out of memory). */
struct result_record *result_table_add_row(struct result_table *t, unsigned line);
const char *result_table_keep(struct result_table *t, const char *s, size_t len);
int result_record_add(struct result_table *t, struct result_record *r, const char *name,
                      const char *value);

void result_table_free(struct result_table *t);

#endif
