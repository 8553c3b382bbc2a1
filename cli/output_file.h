/* Where results are written: --output files (whole or absent, never the --input file, '-' for
 * stdout), and stdout itself, whose failed writes are reported at exit. */
#ifndef MPGPU_OUTPUT_FILE_H
#define MPGPU_OUTPUT_FILE_H

#include <stdio.h>

#include "file_replace.h"

/* 0 when all that was written to f has reached the system (it is flushed), else the errno of
 * the failing flush, or EIO when an earlier write failed and its reason is gone. A caller that
 * reports the error clears it (clearerr), so that stdout's is not reported again at exit. */
int output_flush_error(FILE *f);

/* Called first in main. A closed standard stream (`mpgpu ... >&-`) gets /dev/null in its place,
 * read-only, so that no file opened later (--csv's) takes its number and receives what is meant
 * for it, and writing there fails (EBADF) as writing to a closed stream does. At exit, stdout is
 * flushed and closed; when that or an earlier write to it failed (a closed stdout, a full disk,
 * a reader that went away: a run ignores SIGPIPE, interrupt_install), one line says so and the exit status becomes
 * EXIT_BAD_INPUT where it would have been 0 (results were lost; what stdout holds is partial). */
void output_guard_stdout(void);

/* The first failure of a write to stdout (EPIPE: its reader gone), for the check at exit to name
 * when the failed flush has dropped its reason. */
void output_note_stdout_error(int err);
/* The status main returns, for that check (an exit() elsewhere counts as 0). */
void output_set_exit_status(int status);

struct output_file {
    const char *option;          /* "--output" */
    const char *path;            /* as given; "-" is stdout */
    FILE *f;                     /* where the results go; NULL when no --output was given */
    struct file_replace replace; /* a regular file's temporary file (replace.f is f) */
};

/* Opens `option` PATH up front, before any work, or leaves o->f NULL when path is NULL. "-" is
 * stdout. Refuses with one line and exit status 2: a folder, a path that cannot be written, and
 * "-" while --csv is "-" too (both would go to stdout); that PATH is no other file of the run
 * (--input's, --csv's) path_claim saw to as the options were parsed. A regular file, new or not,
 * is written through a temporary file (file_replace.h), renamed over PATH by output_file_commit:
 * a run that ends early (Ctrl-C or SIGTERM, a second one, an error, no result to write) leaves
 * PATH as it was and no partial file. A device or FIFO is written in place. */
void output_file_open(struct output_file *o, const char *option, const char *path,
                      const char *csv_path);
/* The file a path names, its symbolic links followed, also a link to a file not made yet; a copy
 * of path when it is no link (malloc'd): what a file written through a temporary one and renamed
 * is renamed over. */
char *output_path_resolve(const char *path);
/* With the results on stdout, the readable table (*table, NULL with --quiet) moves to stderr, as
 * it does for --csv -, so that stdout holds the results alone. */
void output_file_move_table(const struct output_file *o, FILE **table);
/* The results are all written: closes the file and renames it into place. Returns 0, or after a
 * failed write, close or rename one line naming the path and the error, and EXIT_BAD_INPUT for
 * the run's status: the run goes on, so that the rows measured are not lost with the file.
 * (stdout's failures are reported at exit.) */
int output_file_commit(struct output_file *o);
/* The run ended with nothing committed: removes the temporary file and says why on stderr,
 * interrupted (status EXIT_INTERRUPTED) or no method matched GMP. Returns the run's status,
 * EXIT_MISMATCH where it was 0. `what` names the results ("products"). */
int output_file_abandon(struct output_file *o, int status, const char *what);

#endif
