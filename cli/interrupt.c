#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "file_replace.h"

static volatile sig_atomic_t requested;
static volatile sig_atomic_t silent; /* an MPI rank other than 0 */
static volatile sig_atomic_t ranks;  /* under mpirun */

/* The first request: who sent it, and when. */
static volatile sig_atomic_t first_sig;
static volatile pid_t first_sender;
static struct timespec first_at;

/* GNU timeout sends its signal to mpgpu and then to its whole process group, so the one request
 * comes twice, microseconds apart, from one sender: that second one must not abort. A second
 * Ctrl-C on a terminal comes from the kernel (si_pid 0), and a second kill from a user comes
 * later than this. */
#define SAME_REQUEST_NS 50000000L

static bool repeats_first(int sig, const siginfo_t *info)
{
    struct timespec now;
    if (sig != first_sig || info->si_code != SI_USER || info->si_pid == 0 || info->si_pid != first_sender ||
        clock_gettime(CLOCK_MONOTONIC, &now) != 0)
        return false;
    const long ns = (long)(now.tv_sec - first_at.tv_sec) * 1000000000L + (now.tv_nsec - first_at.tv_nsec);
    return ns < SAME_REQUEST_NS;
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (requested) {
        if (repeats_first(sig, info))
            return;
        file_replace_remove_pending();
        _exit(EXIT_INTERRUPTED);
    }
    requested = 1;
    first_sig = sig;
    first_sender = info->si_code == SI_USER ? info->si_pid : 0;
    clock_gettime(CLOCK_MONOTONIC, &first_at);
    /* A new line first: the progress bar may be half drawn. */
    static const char ctrl_c[] = "\nmpgpu: interrupted; finishing the current step (Ctrl-C again to abort)\n";
    static const char term[] = "\nmpgpu: interrupted by SIGTERM; finishing the current step (a second "
                               "signal aborts)\n";
    if (!silent) {
        /* Under mpirun a SIGTERM is the user's Ctrl-C, passed on. */
        const bool by_term = sig == SIGTERM && !ranks;
        const char *msg = by_term ? term : ctrl_c;
        ssize_t r = write(STDERR_FILENO, msg, strlen(msg));
        (void)r;
    }
}

static void catch_signal(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* SIGTERM as Ctrl-C: what `timeout`, a batch system's time limit or a shutdown sends first, so
 * that the results so far are kept and a checkpoint written before the SIGKILL that follows. */
void interrupt_install(void)
{
    catch_signal(SIGINT);
    catch_signal(SIGTERM);
    /* A reader gone (mpgpu ... | head) is a failed write that a run reports and stops at, exit 2
     * (output_file.h), rather than a death by SIGPIPE without a word that loses the cases after.
     * Help and lists, printed before a run, still end quietly as other tools do. */
    signal(SIGPIPE, SIG_IGN);
}

void interrupt_install_ranks(bool announce)
{
    silent = !announce;
    ranks = 1;
    interrupt_install();
    catch_signal(SIGUSR1);
}

bool interrupt_requested(void)
{
    return requested != 0;
}
