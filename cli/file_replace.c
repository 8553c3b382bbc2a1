#include "file_replace.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_file.h"

/* The temporary files not yet renamed or removed. Their names live here, not in malloc'd
 * memory, so that a signal handler running on any thread reads a name that is never freed under
 * it; a slot is taken only while its name is whole. */
static char pending_name[FILE_REPLACE_MAX][PATH_MAX];
static volatile sig_atomic_t pending_used[FILE_REPLACE_MAX];

void file_replace_remove_pending(void)
{
    for (int i = 0; i < FILE_REPLACE_MAX; i++)
        if (pending_used[i])
            unlink(pending_name[i]);
}

static void release(struct file_replace *r)
{
    for (int i = 0; i < FILE_REPLACE_MAX; i++)
        if (r->tmp == pending_name[i])
            pending_used[i] = 0;
    free(r->target);
    r->target = r->tmp = NULL;
    r->f = NULL;
}

/* The permission bits a file made by fopen gets: 0666 less the umask, read once (reading it
 * means setting it, which is no business of a later moment with other threads running). */
static mode_t new_file_mode(void)
{
    static bool known;
    static mode_t mode;
    if (!known) {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
        known = true;
    }
    return mode;
}

int file_replace_open(struct file_replace *r, const char *target)
{
    static bool registered;
    memset(r, 0, sizeof *r);
    const mode_t mode = new_file_mode();
    int slot = 0;
    while (slot < FILE_REPLACE_MAX && pending_used[slot])
        slot++;
    if (slot == FILE_REPLACE_MAX)
        return EMFILE;
    char *name = pending_name[slot];
    if (!(r->target = output_path_resolve(target)))
        return ENOMEM;
    if (snprintf(name, PATH_MAX, "%s.partial-XXXXXX", r->target) >= PATH_MAX) {
        release(r);
        return ENAMETOOLONG;
    }
    const int fd = mkstemp(name);
    if (fd < 0) {
        const int err = errno;
        release(r);
        return err;
    }
    r->tmp = name;
    pending_used[slot] = 1;
    if (!registered)
        registered = atexit(file_replace_remove_pending) == 0;
    struct stat old;
    int err = 0;
    if (fchmod(fd, stat(r->target, &old) == 0 ? old.st_mode & 07777 : mode) != 0 ||
        !(r->f = fdopen(fd, "w")))
        err = errno;
    if (err) {
        close(fd);
        unlink(name);
        release(r);
    }
    return err;
}

int file_replace_commit(struct file_replace *r)
{
    int err = 0;
    errno = 0;
    if (fflush(r->f) != 0 || ferror(r->f))
        err = errno ? errno : EIO;
    /* On the disk before the rename makes it the file: a crash then leaves the old file or the
     * new one, never an empty new one. (EINVAL: a file system that has nothing to sync.) */
    if (!err && fsync(fileno(r->f)) != 0 && errno != EINVAL)
        err = errno;
    if (fclose(r->f) != 0 && !err)
        err = errno ? errno : EIO;
    r->f = NULL;
    if (!err && rename(r->tmp, r->target) != 0)
        err = errno;
    if (err)
        unlink(r->tmp);
    release(r);
    return err;
}

void file_replace_discard(struct file_replace *r)
{
    if (!r->tmp)
        return;
    fclose(r->f);
    unlink(r->tmp);
    release(r);
}
