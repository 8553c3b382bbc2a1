#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t requested;

static void on_sigint(int sig)
{
    (void)sig;
    if (requested)
        _exit(130);
    requested = 1;
    static const char msg[] = "\nmpgpu: interrupted; finishing the current step (Ctrl-C again to abort)\n";
    ssize_t r = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)r;
}

void interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

bool interrupt_requested(void)
{
    return requested != 0;
}
