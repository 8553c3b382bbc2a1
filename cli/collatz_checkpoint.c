#include "collatz_checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_replace.h"

#define CHECKPOINT_MAGIC "mpgpu-checkpoint 1"
/* A checkpoint holds a few hundred bytes plus the delay records (under 200 below 2^64). */
#define CHECKPOINT_MAX_BYTES (1u << 20)

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

int checkpoint_set(struct checkpoint *c, const char *key, uint64_t value)
{
    if (strlen(key) >= sizeof c->totals[0].key)
        return -1;
    for (size_t i = 0; i < c->n_totals; i++)
        if (!strcmp(c->totals[i].key, key)) {
            c->totals[i].value = value;
            return 0;
        }
    if (c->n_totals == CHECKPOINT_MAX_TOTALS)
        return -1;
    snprintf(c->totals[c->n_totals].key, sizeof c->totals[0].key, "%s", key);
    c->totals[c->n_totals++].value = value;
    return 0;
}

int checkpoint_get(const struct checkpoint *c, const char *key, uint64_t *value)
{
    for (size_t i = 0; i < c->n_totals; i++)
        if (!strcmp(c->totals[i].key, key)) {
            *value = c->totals[i].value;
            return 0;
        }
    return -1;
}

/* Appends to a growing buffer; returns -1 when it would pass CHECKPOINT_MAX_BYTES. */
static int put(char *buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, CHECKPOINT_MAX_BYTES - *len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= CHECKPOINT_MAX_BYTES - *len)
        return -1;
    *len += (size_t)n;
    return 0;
}

static int fail(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return -1;
}

int checkpoint_writable(const char *path, char *why, size_t why_len)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return fail(why, why_len, "%s", S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file");
    /* What checkpoint_write does first; the temporary file is removed again, nothing else is
     * touched. */
    struct file_replace r;
    const int err = file_replace_open(&r, path);
    if (err)
        return fail(why, why_len, "cannot be written: %s", strerror(err));
    file_replace_discard(&r);
    return 0;
}

int checkpoint_write(const char *path, const struct checkpoint *c)
{
    char *buf = malloc(CHECKPOINT_MAX_BYTES);
    if (!buf)
        return -1;
    size_t len = 0;
    int err = put(buf, &len, "%s\ncommand %s\nparams %s\nstart %" PRIu64 "\ndone %" PRIu64 "\n",
                  CHECKPOINT_MAGIC, c->command, c->params, c->start, c->done);
    for (size_t i = 0; i < c->n_totals && !err; i++)
        err = put(buf, &len, "total %s %" PRIu64 "\n", c->totals[i].key, c->totals[i].value);
    for (size_t i = 0; i < c->records.n && !err; i++)
        err = put(buf, &len, "record %" PRIu64 " %" PRIu32 "\n", c->records.v[i].n,
                  c->records.v[i].delay);
    if (!err)
        err = put(buf, &len, "checksum %016" PRIx64 "\n", fnv1a(buf, len));
    if (err) {
        free(buf);
        errno = EFBIG;
        return -1;
    }
    struct file_replace r;
    err = file_replace_open(&r, path);
    if (!err) {
        fwrite(buf, 1, len, r.f);
        err = file_replace_commit(&r);
    }
    free(buf);
    errno = err;
    return err ? -1 : 0;
}

/* The whole token must be a decimal number that fits 64 bits. */
static int parse_u64(const char *s, uint64_t *v)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int checkpoint_read(const char *path, struct checkpoint *c, char *why, size_t why_len)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        fail(why, why_len, "cannot be read (%s)", strerror(errno));
        return -2;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        fail(why, why_len, "is a directory");
        return -2;
    }
    char *buf = malloc(CHECKPOINT_MAX_BYTES + 1);
    size_t len = buf ? fread(buf, 1, CHECKPOINT_MAX_BYTES + 1, f) : 0;
    const int read_errno = buf && ferror(f) ? errno : 0;
    fclose(f);
    if (!buf) {
        fail(why, why_len, "cannot be read (out of memory)");
        return -2;
    }
    if (read_errno) {
        free(buf);
        fail(why, why_len, "cannot be read (%s)", strerror(read_errno));
        return -2;
    }
    int rc = -1;
    if (len > CHECKPOINT_MAX_BYTES) {
        fail(why, why_len, "is larger than %u bytes", CHECKPOINT_MAX_BYTES);
        goto out;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        fail(why, why_len, "holds a NUL byte");
        goto out;
    }
    /* The checksum line closes the file; everything before it is hashed. */
    char *sum_line = len >= 2 ? buf + len - 2 : buf;
    while (sum_line > buf && sum_line[-1] != '\n')
        sum_line--;
    uint64_t want;
    if (len == 0 || buf[len - 1] != '\n' || strncmp(sum_line, "checksum ", 9) != 0 ||
        strlen(sum_line) != 9 + 16 + 1 || sscanf(sum_line + 9, "%16" SCNx64, &want) != 1) {
        fail(why, why_len, "does not end with a checksum line (truncated?)");
        goto out;
    }
    if (fnv1a(buf, (size_t)(sum_line - buf)) != want) {
        fail(why, why_len, "checksum does not match its contents (edited or damaged)");
        goto out;
    }
    *sum_line = '\0';
    unsigned have = 0; /* bits: command, params, start, done */
    size_t line_no = 0;
    for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        line_no++;
        char *sp = strchr(line, ' ');
        if (line_no == 1) {
            if (strcmp(line, CHECKPOINT_MAGIC) != 0) {
                fail(why, why_len, "line 1 is not '%s'", CHECKPOINT_MAGIC);
                goto out;
            }
            continue;
        }
        if (!sp) {
            fail(why, why_len, "line %zu has no value", line_no);
            goto out;
        }
        *sp = '\0';
        const char *key = line, *val = sp + 1;
        uint64_t a, b;
        if (!strcmp(key, "command") && strlen(val) < sizeof c->command) {
            snprintf(c->command, sizeof c->command, "%s", val);
            have |= 1;
        } else if (!strcmp(key, "params") && strlen(val) < sizeof c->params) {
            snprintf(c->params, sizeof c->params, "%s", val);
            have |= 2;
        } else if (!strcmp(key, "start") && parse_u64(val, &c->start) == 0 && c->start >= 1) {
            have |= 4;
        } else if (!strcmp(key, "done") && parse_u64(val, &c->done) == 0) {
            have |= 8;
        } else if (!strcmp(key, "total")) {
            char name[32];
            const char *num = strchr(val, ' ');
            if (!num || (size_t)(num - val) >= sizeof name || parse_u64(num + 1, &a) != 0) {
                fail(why, why_len, "line %zu: 'total' needs a name and a number", line_no);
                goto out;
            }
            memcpy(name, val, (size_t)(num - val));
            name[num - val] = '\0';
            uint64_t dup;
            if (checkpoint_get(c, name, &dup) == 0 || checkpoint_set(c, name, a) != 0) {
                fail(why, why_len, "line %zu: total '%s' repeated or too many totals", line_no, name);
                goto out;
            }
        } else if (!strcmp(key, "record")) {
            char *num = strchr(val, ' ');
            if (!num) {
                fail(why, why_len, "line %zu: 'record' needs n and a delay", line_no);
                goto out;
            }
            *num = '\0';
            if (parse_u64(val, &a) != 0 || parse_u64(num + 1, &b) != 0 || b > UINT32_MAX ||
                mpgpu_collatz_pairs_push(&c->records, a, (uint32_t)b) != MPGPU_OK) {
                fail(why, why_len, "line %zu: 'record' needs n and a delay", line_no);
                goto out;
            }
        } else {
            fail(why, why_len, "line %zu: unknown or malformed entry '%s'", line_no, key);
            goto out;
        }
    }
    if (have != 15) {
        fail(why, why_len, "lacks the %s line", !(have & 1) ? "command" : !(have & 2) ? "params"
                                                 : !(have & 4) ? "start" : "done");
        goto out;
    }
    rc = 1;
out:
    free(buf);
    if (rc != 1)
        checkpoint_free(c);
    return rc;
}

void checkpoint_free(struct checkpoint *c)
{
    mpgpu_collatz_pairs_free(&c->records);
}
