/* Ctrl-C: the first SIGINT asks the running command to stop at the next safe point (results so
 * far are kept and reported); a second one ends the process at once. */
#ifndef MPGPU_INTERRUPT_H
#define MPGPU_INTERRUPT_H

#include <stdbool.h>

void interrupt_install(void);
bool interrupt_requested(void);

#endif
