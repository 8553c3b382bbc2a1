/* cpu suite: the rule that refuses a GPU index the host lacks (issue 36, fault 10). `mul
 * --device 3` on a one-GPU host used to warn and run GMP instead, while `--devices 3` refused;
 * both now go through gpu_require_index (cli/gpu.c), which this machine can drive without a GPU:
 * each case runs in a child, whose exit status and stderr are checked. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu.h"
#include "test_seed.h"

/* Runs gpu_require_index(option, given, index, count) in a child: its exit status (0 when the
 * call returned) and its stderr in err. */
static int run_child(const char *option, const char *given, int index, int count, char *err, size_t len)
{
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipe_fd[1], STDERR_FILENO);
        close(pipe_fd[0]);
        gpu_require_index(option, given, index, count);
        _exit(0);
    }
    close(pipe_fd[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < len && (n = read(pipe_fd[0], err + got, len - 1 - got)) > 0)
        got += (size_t)n;
    err[got] = '\0';
    close(pipe_fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void expect(const char *option, const char *given, int index, int count, int want_status,
                   const char *want_err)
{
    char err[512];
    const int status = run_child(option, given, index, count, err, sizeof err);
    CHECK(status == want_status && !strcmp(err, want_err),
          "gpu_require_index(%s, %s, %d, %d): exit %d, stderr '%s'; want exit %d, stderr '%s'", option,
          given, index, count, status, err, want_status, want_err);
}

int main(void)
{
    seed = test_seed();
    expect("--device", "3", 3, 1, 2, "mpgpu: --device 3: there is no GPU 3; accepted: 0..0\n");
    expect("--device", "1", 1, 1, 2, "mpgpu: --device 1: there is no GPU 1; accepted: 0..0\n");
    expect("--device", "0", 0, 1, 0, "");
    expect("--device", "3", 3, 4, 0, "");
    expect("--devices", "0,2", 2, 2, 2, "mpgpu: --devices 0,2: there is no GPU 2; accepted: 0..1\n");
    expect("--devices", "0,1", 1, 2, 0, "");
    return test_finish("gpu_index");
}
