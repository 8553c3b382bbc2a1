#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t requested;
static volatile sig_atomic_t silent; /* an MPI rank other than 0 */

static void on_sigint(int sig)
{
    (void)sig;
    if (requested)
        _exit(130);
    requested = 1;
    static const char msg[] = "\nmpgpu: interrupted; finishing the current step (Ctrl-C again to abort)\n";
    if (!silent) {
        ssize_t r = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)r;
    }
}

static void catch_signal(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void interrupt_install(void)
{
    catch_signal(SIGINT);
}

void interrupt_install_ranks(bool announce)
{
    silent = !announce;
    catch_signal(SIGINT);
    catch_signal(SIGTERM);
    catch_signal(SIGUSR1);
}

bool interrupt_requested(void)
{
    return requested != 0;
}
