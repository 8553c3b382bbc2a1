/* A file that is written whole or not at all: --output, --json, the checkpoints and tune's
 * table. It is written as a temporary file TARGET.partial-XXXXXX in the target's folder (so that
 * the rename is atomic), flushed to the disk and renamed over TARGET. A temporary file not yet
 * renamed is removed at exit() and by the second Ctrl-C or SIGTERM that ends mpgpu at once
 * (interrupt.c), so that only SIGKILL or a crash leaves one behind. */
#ifndef MPGPU_FILE_REPLACE_H
#define MPGPU_FILE_REPLACE_H

#include <stdio.h>

struct file_replace {
    char *target; /* what tmp is renamed over (malloc'd) */
    char *tmp;    /* the temporary file, or NULL once it is renamed or removed */
    FILE *f;      /* open on tmp for writing */
};

/* Creates the temporary file for `target`, its symbolic links followed (the file a link names
 * is replaced, not the link), with the permission bits of the file it replaces, else those a
 * new file gets. 0, or an errno (nothing
 * left behind). At most FILE_REPLACE_MAX of them are open at once (EMFILE beyond). */
#define FILE_REPLACE_MAX 8
int file_replace_open(struct file_replace *r, const char *target);
/* Flushes, syncs, closes and renames the temporary file over the target. 0, or the errno of
 * the step that failed, the temporary file then removed and the target as it was. */
int file_replace_commit(struct file_replace *r);
/* Closes and removes the temporary file; the target stays as it was. */
void file_replace_discard(struct file_replace *r);
/* Removes every temporary file not yet committed or discarded. Async-signal-safe: the signal
 * handler that ends mpgpu at once calls it. */
void file_replace_remove_pending(void);

#endif
