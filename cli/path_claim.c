/* realpath is POSIX of the XSI option, beyond the project's _POSIX_C_SOURCE. */
#define _XOPEN_SOURCE 700

#include "path_claim.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output_file.h"

/* No run names more files than this: a subcommand's few file options and compare's two inputs. */
#define MAX_CLAIMS 16

struct claim {
    const char *option;
    const char *path;
    enum path_use use;
};

static struct claim claims[MAX_CLAIMS];
static size_t n_claims;

/* A path that names no file yet, as its folder's real path and its own name; the path itself
 * when its folder cannot be resolved either (it will not be opened then). */
static void absent_name(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    char folder[PATH_MAX];
    if (slash == path)
        snprintf(folder, sizeof folder, "/");
    else if (slash)
        snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
    else
        snprintf(folder, sizeof folder, ".");
    char *real = realpath(folder, NULL);
    if (real)
        snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path);
    else
        snprintf(out, len, "%s", path);
    free(real);
}

/* Whether a and b name one file: the same device and inode, or, where neither is made yet, the
 * same name in the same folder once links are followed. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    const bool a_is = stat(a, &sa) == 0, b_is = stat(b, &sb) == 0;
    if (a_is || b_is)
        return a_is && b_is && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Neither is made yet: the names they will be made under, links to them followed. */
    char *ra = output_path_resolve(a), *rb = output_path_resolve(b);
    char na[PATH_MAX + 256], nb[PATH_MAX + 256];
    absent_name(ra ? ra : a, na, sizeof na);
    absent_name(rb ? rb : b, nb, sizeof nb);
    free(ra);
    free(rb);
    return !strcmp(na, nb);
}

static bool shared_device(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

void path_claim(const char *option, const char *path, enum path_use use)
{
    if (!path[0])
        cli_bad_input("%s '' is not accepted: it is empty; accepted: the path of a file", option);
    if (!strcmp(path, "-"))
        return;
    /* /dev/stdout, or stdout's file by its name: a second stream on the file the table goes to,
     * each at its own offset, wrote the one over the other. '-' is stdout, moving the table. */
    struct stat at, out;
    if (use == PATH_WRITE && stat(path, &at) == 0 && !S_ISCHR(at.st_mode) && fstat(STDOUT_FILENO, &out) == 0 &&
        at.st_dev == out.st_dev && at.st_ino == out.st_ino)
        cli_bad_input("%s '%s' is the file stdout writes to; accepted: - for stdout (the table then going to "
                      "stderr), or another file", option, path);
    size_t slot = n_claims;
    for (size_t i = 0; i < n_claims; i++) {
        const struct claim *c = &claims[i];
        if (!strcmp(c->option, option)) {
            slot = i;
            continue;
        }
        if ((use == PATH_WRITE || c->use == PATH_WRITE) && same_file(path, c->path) &&
            !shared_device(path))
            cli_bad_input("%s '%s' is the file of %s '%s' too; accepted: a file that no other "
                          "option names", option, path, c->option, c->path);
    }
    if (slot == MAX_CLAIMS)
        cli_bad_input("%s '%s': more than %d files named", option, path, MAX_CLAIMS);
    claims[slot] = (struct claim){option, path, use};
    if (slot == n_claims)
        n_claims++;
}
