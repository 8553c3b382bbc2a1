/* Ctrl-C: the first SIGINT or SIGTERM asks the running command to stop at the next safe point
 * (results so far are kept and reported, exit status 130); a second one ends the process at
 * once, with status 130 and the temporary files of results not yet written removed. */
#ifndef MPGPU_INTERRUPT_H
#define MPGPU_INTERRUPT_H

#include <stdbool.h>

void interrupt_install(void);
bool interrupt_requested(void);

/* Under mpirun with several ranks: Ctrl-C on mpirun reaches the ranks as SIGTERM (and SIGKILL a
 * second later), and `kill -USR1` on mpirun is forwarded to every rank; both are taken as
 * Ctrl-C, which only rank 0 (announce) says it heard. */
void interrupt_install_ranks(bool announce);

#endif
