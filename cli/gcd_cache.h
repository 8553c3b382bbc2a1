/* Where `mpgpu gcd` keeps the moduli cache: the folder is the command line's choice (the
 * environment), the file's name and format the library's (mpgpu_gcd_moduli_cache_name,
 * mpgpu_gcd_moduli_create). */
#ifndef MPGPU_GCD_CACHE_H
#define MPGPU_GCD_CACHE_H

#include <stddef.h>

/* The folder of the moduli cache files: $MPGPU_CACHE, else $XDG_CACHE_HOME/mpgpu, else
 * $HOME/.cache/mpgpu (the XDG base directory rule), in out. Returns the name of the variable that
 * chose it, or NULL (out empty) when none of the three is set: then nothing is cached, rather
 * than a cache left in whatever folder a run starts from. */
const char *gcd_moduli_cache_dir(char *out, size_t len);

#endif
