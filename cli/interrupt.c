#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file_replace.h"

static volatile sig_atomic_t requested;
static volatile sig_atomic_t silent; /* an MPI rank other than 0 */
static volatile sig_atomic_t ranks;  /* under mpirun */

static void on_signal(int sig)
{
    if (requested) {
        file_replace_remove_pending();
        _exit(EXIT_INTERRUPTED);
    }
    requested = 1;
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
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* SIGTERM as Ctrl-C: what `timeout`, a batch system's time limit or a shutdown sends first, so
 * that the results so far are kept and a checkpoint written before the SIGKILL that follows. */
void interrupt_install(void)
{
    catch_signal(SIGINT);
    catch_signal(SIGTERM);
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
