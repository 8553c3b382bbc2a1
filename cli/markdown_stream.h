/* --markdown: the readable report as Markdown. */
#ifndef MPGPU_MARKDOWN_STREAM_H
#define MPGPU_MARKDOWN_STREAM_H

#include <stdio.h>

/* A stream that writes to `out` what it is given, line by line, with the report's comment lines
 * ("# ..." and "#   ...") turned into a quoted block ("> ...", each line ending in a hard line
 * break) and a blank line wherever comments and other lines meet, so that Markdown renders no
 * comment as a heading and keeps the table a table. NULL (and `out` itself is to be used) when
 * the stream cannot be made. Line buffered; exit() flushes it as any stdio stream. */
FILE *markdown_stream_open(FILE *out);

#endif
