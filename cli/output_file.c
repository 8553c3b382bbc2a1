/* realpath is POSIX of the XSI option, beyond the project's _POSIX_C_SOURCE. */
#define _XOPEN_SOURCE 700

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int output_flush_error(FILE *f)
{
    errno = 0;
    if (fflush(f) != 0)
        return errno ? errno : EIO;
    return ferror(f) ? EIO : 0;
}

static int main_status;

void output_set_exit_status(int status)
{
    main_status = status;
}

static int stdout_first_error;

void output_note_stdout_error(int err)
{
    if (!stdout_first_error)
        stdout_first_error = err;
}

static void check_stdout_at_exit(void)
{
    const bool failed_before = ferror(stdout);
    int err = output_flush_error(stdout);
    if (err && stdout_first_error)
        err = stdout_first_error;
    /* A failed flush drops what it held, so an earlier failure's reason is gone; a write of
     * nothing still fails where stdout is closed or full. */
    if (err == EIO && failed_before && write(STDOUT_FILENO, "", 0) < 0)
        err = errno;
    struct pollfd out = {.fd = STDOUT_FILENO, .events = POLLOUT};
    if (err == EIO && failed_before && poll(&out, 1, 0) == 1 && (out.revents & POLLERR))
        err = EPIPE; /* a pipe whose reader is gone reports an error, where a write of nothing does not */
    errno = 0;
    if (fclose(stdout) != 0 && err == 0)
        err = errno ? errno : EIO;
    if (err == 0)
        return;
    cli_error("writing to stdout failed: %s; what it holds is incomplete", strerror(err));
    _exit(main_status ? main_status : EXIT_BAD_INPUT);
}

void output_guard_stdout(void)
{
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDONLY) != fd)
            _exit(EXIT_BAD_INPUT); /* not even /dev/null: nothing can be said anywhere */
    atexit(check_stdout_at_exit);
}

/* Links followed at most this deep, as the kernel's own limit for a path (MAXSYMLINKS). */
#define MAX_LINK_DEPTH 40

static char *resolve_link(const char *path, int depth)
{
    struct stat st;
    if (depth == MAX_LINK_DEPTH || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return strdup(path);
    char *real = realpath(path, NULL);
    if (real)
        return real;
    /* A link to a file not made yet: its target, read relative to the link's folder. */
    char target[PATH_MAX];
    const ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return strdup(path);
    target[n] = '\0';
    const char *slash = strrchr(path, '/');
    char joined[2 * PATH_MAX];
    if (target[0] == '/' || !slash)
        snprintf(joined, sizeof joined, "%s", target);
    else
        snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - path), path, target);
    return resolve_link(joined, depth + 1);
}

char *output_path_resolve(const char *path)
{
    return resolve_link(path, 0);
}

void output_file_open(struct output_file *o, const char *option, const char *path,
                      const char *csv_path)
{
    memset(o, 0, sizeof *o);
    o->option = option;
    o->path = path;
    if (!path)
        return;
    if (!strcmp(path, "-")) {
        if (csv_path && !strcmp(csv_path, "-"))
            cli_bad_input("%s - and --csv - both write to stdout; accepted: a file for one of them",
                          option);
        o->f = stdout;
        return;
    }
    struct stat out;
    const bool exists = stat(path, &out) == 0;
    if (exists && S_ISDIR(out.st_mode))
        cli_bad_input("%s '%s' is a directory; accepted: a file to write, or - for stdout", option,
                      path);
    if (exists && access(path, W_OK) != 0)
        cli_bad_input("%s '%s' cannot be opened for writing: %s", option, path, strerror(errno));
    if (exists && !S_ISREG(out.st_mode)) {
        /* A device or FIFO: nothing to replace, and no folder of its own to write beside it. */
        o->f = fopen(path, "w");
        if (!o->f)
            cli_bad_input("%s '%s' cannot be opened for writing: %s", option, path, strerror(errno));
        return;
    }
    const int err = file_replace_open(&o->replace, path);
    if (err)
        cli_bad_input("%s '%s' cannot be opened for writing: %s", option, path, strerror(err));
    o->f = o->replace.f;
}

void output_file_move_table(const struct output_file *o, FILE **table)
{
    if (o->f == stdout && *table)
        *table = stderr;
}

int output_file_commit(struct output_file *o)
{
    if (o->f == stdout) {
        fflush(stdout);
        return 0;
    }
    int err;
    if (o->replace.tmp) {
        err = file_replace_commit(&o->replace);
    } else {
        err = output_flush_error(o->f);
        if (fclose(o->f) != 0 && err == 0)
            err = errno;
    }
    o->f = NULL;
    if (!err)
        return 0;
    cli_error("%s '%s': writing failed: %s", o->option, o->path, strerror(err));
    return EXIT_BAD_INPUT;
}

int output_file_abandon(struct output_file *o, int status, const char *what)
{
    if (o->replace.tmp)
        file_replace_discard(&o->replace);
    else if (o->f != stdout)
        fclose(o->f);
    o->f = NULL;
    if (status == EXIT_INTERRUPTED)
        cli_error("%s '%s' not written: interrupted before the %s were all made and checked",
                  o->option, o->path, what);
    else
        cli_error("%s '%s' not written: no method finished with %s equal to GMP's", o->option,
                  o->path, what);
    return status ? status : EXIT_MISMATCH;
}
