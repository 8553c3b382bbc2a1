/* --checkpoint FILE of `mpgpu collatz` and `mpgpu delay`: the finished prefix of a range and the
 * totals over it, so a stopped run resumes where it stopped and ends with the totals of an
 * unbroken one (every total is a sum or a running maximum over starting values). A run may also
 * resume with a later end than the one it started with: the search goes on from where it stood.
 *
 * The file is text, one "key value" per line, closed by a line "checksum H" where H is the
 * FNV-1a 64 hash of every byte before it; it is replaced atomically (written beside, renamed). */
#ifndef MPGPU_COLLATZ_CHECKPOINT_H
#define MPGPU_COLLATZ_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "mpgpu.h"

#define CHECKPOINT_MAX_TOTALS 16

struct checkpoint {
    char command[16];  /* "collatz" or "delay" */
    char params[200];  /* the parameters the totals depend on, "key=value;..." */
    uint64_t start;    /* first starting value of the range */
    uint64_t done;     /* starting values finished: [start, start + done) */
    size_t n_totals;
    struct {
        char key[32];
        uint64_t value;
    } totals[CHECKPOINT_MAX_TOTALS];
    struct mpgpu_collatz_pairs records; /* (n, delay) lines, in order */
};

/* Sets (or adds) a total. Returns 0, or -1 when the table is full or the key too long. */
int checkpoint_set(struct checkpoint *c, const char *key, uint64_t value);
/* Returns 0 and sets *value, or -1 when the key is absent. */
int checkpoint_get(const struct checkpoint *c, const char *key, uint64_t *value);

/* Returns 0, or -1 (errno set) when the file cannot be written. */
int checkpoint_write(const char *path, const struct checkpoint *c);

/* Whether checkpoint_write can replace `path`: it is not a directory or other non-regular file,
 * and the temporary file beside it can be created (the folder exists and is writable, the name
 * is not too long). Touches nothing that exists. Returns 0, or -1 with the reason in why. */
int checkpoint_writable(const char *path, char *why, size_t why_len);

/* Returns 1 when read, 0 when there is no such file, -1 when the file is corrupt (the reason,
 * naming the line, in why), -2 when the path cannot be read at all (a directory, no
 * permission: the reason, with strerror, in why). */
int checkpoint_read(const char *path, struct checkpoint *c, char *why, size_t why_len);

void checkpoint_free(struct checkpoint *c);

#endif
