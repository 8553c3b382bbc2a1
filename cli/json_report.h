/* --json FILE: every row with every sample behind it, the machine and the build, as one JSON
 * document written with cJSON (docs/csv.md, "JSON"). The file is rewritten whole after each row
 * (through a temporary file renamed over it), so that it is valid JSON whenever a run stops. A
 * build without cJSON (libcjson-dev) refuses --json, saying so. */
#ifndef MPGPU_JSON_REPORT_H
#define MPGPU_JSON_REPORT_H

#include <stdbool.h>

#include "csv_read.h"
#include "report.h"

struct json_report;

/* Whether this build writes and reads JSON. */
bool json_supported(void);

/* Creates path with no rows yet (so that a path that cannot be written is refused before any
 * work), recording env and the command line opt->argv. Exits 2 naming the path when it cannot,
 * or when the build has no cJSON. */
struct json_report *json_report_open(const char *path, const struct run_env *env,
                                     const struct cli_common *opt);
/* Adds the row with its samples_ms[0, n) (in the order they were taken) and throttled[0, n)
 * (whether a throttling reason was active after each; NULL: not read), and rewrites the file.
 * Returns 0, or -1 with a message on stderr. */
int json_report_add(struct json_report *j, const struct result_row *row, const double *samples_ms,
                    const bool *throttled, unsigned n);
void json_report_close(struct json_report *j);

/* Reads the rows of an --json file, from f to its end (f stays open), into t (csv_read.h), each
 * field under its CSV column's name and its samples_ms as the row's samples. Returns 0, or -1
 * with the reason in err (also when the build has no cJSON). */
int json_read_table(FILE *f, struct result_table *t, char *err, size_t err_len);

#endif
