/* Options that choose among named variants of what runs (ctt-vs-ctw --op, fixed --op, --impl,
 * --mem, ...): each takes a comma list and may be repeated, and the run is every combination. */
#ifndef MPGPU_NAME_LIST_H
#define MPGPU_NAME_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Marks selected[i] for each item of the comma list arg that is names[i] (n names); marks
 * already set stay, so a repeated option adds to the list. An empty item or an unknown name is
 * bad input: one line naming the option, the item and the names accepted, exit 2. */
void name_list_parse(const char *option, const char *arg, const char *const *names, size_t n,
                     bool *selected);

#endif
