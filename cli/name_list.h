/* Options that choose among named variants of what runs (ctt-vs-ctw --op, fixed --op, --impl,
 * --mem, gcd --barrier, --inverse, --plant, ...): each takes a comma list and may be repeated,
 * and "all" names every variant in each of them. */
#ifndef MPGPU_NAME_LIST_H
#define MPGPU_NAME_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Marks selected[i] for each item of the comma list arg that is names[i] (n names), and every
 * one for "all"; marks already set stay, so a repeated option adds to the list. extra, when not
 * NULL, is one more word the option accepts that is not a variant (gcd --barrier auto, --plant
 * none), reported in *extra_given. An empty item or an unknown name is bad input: one line
 * naming the option, the item and the words accepted, exit 2. */
void name_list_parse(const char *option, const char *arg, const char *const *names, size_t n,
                     const char *extra, bool *extra_given, bool *selected);

#endif
