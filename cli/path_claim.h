/* The files one run names, so that no output of the run is written over another of its files:
 * every option that names a file claims it as it is parsed, before any file is opened. */
#ifndef MPGPU_PATH_CLAIM_H
#define MPGPU_PATH_CLAIM_H

enum path_use { PATH_READ, PATH_WRITE };

/* Claims `option`'s path, refusing with one line and exit status 2 an empty path, and a path
 * that names the same file as another option's claim where either of the two writes it (the
 * same device and inode where the file exists, else the same name in the same folder; a
 * character device such as /dev/null may take any number of writers). "-" (stdin or stdout) is
 * not claimed: the options that take it refuse two on one stream themselves. A later claim of
 * the same option (the option given again) replaces its earlier one. */
void path_claim(const char *option, const char *path, enum path_use use);

#endif
