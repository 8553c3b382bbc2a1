#include "cli.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_report.h"
#include "path_claim.h"

static bool bad_input_quiet;

void cli_bad_input_quiet(bool quiet)
{
    bad_input_quiet = quiet;
}

/* Characters of a value a message echoes whole: past them it is cut, and "..." says so. */
#define ECHO_MAX 64

/* vfprintf(f, fmt, ap), but a value the message echoes, longer than ECHO_MAX characters, is
 * printed as its first ECHO_MAX and "...", so that a 100 kB argument or token of an input file
 * leaves the message one readable line. An echoed value is a %s string (or the part a precision
 * takes) quoted in the message ('%s') or without blanks (an argument, a path, a number); the
 * program's own text, a reason or an accepted list, is unquoted words and printed whole. Each
 * conversion is printed on its own, its argument taken at the type its length modifier names. */
static void print_message(FILE *f, const char *fmt, va_list ap)
{
    const char *const start = fmt;
    while (*fmt) {
        if (*fmt != '%' || fmt[1] == '%') {
            const size_t n = *fmt == '%' ? 1 : strcspn(fmt, "%");
            fwrite(fmt, 1, n, f);
            fmt += *fmt == '%' ? 2 : n;
            continue;
        }
        const bool quoted = fmt > start && fmt[-1] == '\'';
        char spec[48] = "%";
        size_t k = 1;
        int precision = -1;
        for (fmt++; *fmt && strchr("-+ #0", *fmt) && k < 8; fmt++)
            spec[k++] = *fmt;
        for (int part = 0; part < 2; part++) { /* the width, then the precision */
            if (part == 1 && *fmt != '.')
                break;
            if (part == 1)
                spec[k++] = *fmt++;
            int n = 0;
            if (*fmt == '*') {
                n = va_arg(ap, int);
                fmt++;
                k += (size_t)snprintf(spec + k, sizeof spec - k - 8, "%d", n);
            } else {
                for (; isdigit((unsigned char)*fmt) && k < sizeof spec - 16; fmt++) {
                    n = 10 * n + (*fmt - '0');
                    spec[k++] = *fmt;
                }
            }
            if (part == 1)
                precision = n < 0 ? -1 : n;
        }
        char size = 0; /* 'H' hh, 'h', 'l', 'q' ll, 'z', 'j', 't', 'L' */
        for (; *fmt && strchr("hlzjtL", *fmt); fmt++) {
            size = (size == 'h' && *fmt == 'h') ? 'H' : (size == 'l' && *fmt == 'l') ? 'q' : *fmt;
            spec[k++] = *fmt;
        }
        const char conv = *fmt ? *fmt++ : 's';
        spec[k++] = conv;
        spec[k] = '\0';
        switch (conv) {
        case 'd':
        case 'i':
            if (size == 'l')
                fprintf(f, spec, va_arg(ap, long));
            else if (size == 'q')
                fprintf(f, spec, va_arg(ap, long long));
            else if (size == 'z' || size == 't')
                fprintf(f, spec, va_arg(ap, ptrdiff_t));
            else if (size == 'j')
                fprintf(f, spec, va_arg(ap, intmax_t));
            else
                fprintf(f, spec, va_arg(ap, int));
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            if (size == 'l')
                fprintf(f, spec, va_arg(ap, unsigned long));
            else if (size == 'q')
                fprintf(f, spec, va_arg(ap, unsigned long long));
            else if (size == 'z' || size == 't')
                fprintf(f, spec, va_arg(ap, size_t));
            else if (size == 'j')
                fprintf(f, spec, va_arg(ap, uintmax_t));
            else
                fprintf(f, spec, va_arg(ap, unsigned));
            break;
        case 'c':
            fprintf(f, spec, va_arg(ap, int));
            break;
        case 'p':
            fprintf(f, spec, va_arg(ap, void *));
            break;
        case 's': {
            const char *str = va_arg(ap, const char *);
            const size_t len = precision >= 0 ? strnlen(str, (size_t)precision) : strlen(str);
            if (len > ECHO_MAX && (quoted || strcspn(str, " \t\n") >= len))
                fprintf(f, "%.*s...", ECHO_MAX, str);
            else
                fprintf(f, spec, str);
            break;
        }
        default: /* e, f, g, a and their capitals */
            if (size == 'L')
                fprintf(f, spec, va_arg(ap, long double));
            else
                fprintf(f, spec, va_arg(ap, double));
            break;
        }
    }
}

static void vmessage(const char *fmt, va_list ap)
{
    fputs("mpgpu: ", stderr);
    print_message(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
}

_Noreturn void cli_bad_input(const char *fmt, ...)
{
    if (bad_input_quiet)
        exit(EXIT_BAD_INPUT);
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    exit(EXIT_BAD_INPUT);
}

/* Why parse_number fails: not written as a number at all, or a number past 2^64. */
enum { NUM_OK, NUM_NOT_A_NUMBER, NUM_TOO_LARGE };

/* One past the largest u64: the largest value parse_number gives, the end of a 64-bit range. */
#define NUM_2_64 ((unsigned __int128)1 << 64)

/* The whole of s: decimal digits, 0x hex digits, 2^N or 10^N (N decimal), the last two also
 * minus one (2^N-1, as cli_format_bound prints a bound). Decimal is decimal even with leading
 * zeros: users write 010 for ten, not for eight. Values up to 2^64 (an exclusive end of the 64-bit
 * range) are given; above it NUM_TOO_LARGE, in every notation alike. */
static int parse_number(const char *s, unsigned __int128 *v)
{
    unsigned base = 10;
    unsigned power_of = 0; /* 2 or 10 for 2^N and 10^N */
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '2' && s[1] == '^') {
        power_of = 2;
        s += 2;
    } else if (s[0] == '1' && s[1] == '0' && s[2] == '^') {
        power_of = 10;
        s += 3;
    }
    size_t len = strlen(s);
    const bool minus_one = power_of && len > 2 && !strcmp(s + len - 2, "-1");
    len -= minus_one ? 2 : 0;
    if (len == 0)
        return NUM_NOT_A_NUMBER;
    for (size_t i = 0; i < len; i++)
        if (!(base == 16 ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i])))
            return NUM_NOT_A_NUMBER;
    /* Past 2^64 the digits still count as a number, only too large: x stays at 2^64 + 1. */
    unsigned __int128 x = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned d = isdigit((unsigned char)s[i])
                               ? (unsigned)(s[i] - '0')
                               : (unsigned)(tolower((unsigned char)s[i]) - 'a' + 10);
        x = x * base + d;
        if (x > NUM_2_64)
            x = NUM_2_64 + 1;
    }
    if (power_of) {
        unsigned __int128 e = x;
        x = 1;
        while (e-- > 0 && x <= NUM_2_64)
            x *= power_of;
        x -= minus_one;
    }
    if (x > NUM_2_64)
        return NUM_TOO_LARGE;
    *v = x;
    return NUM_OK;
}

const char *cli_format_bound(char out[24], uint64_t v)
{
    if (v > 65536 && (v & (v - 1)) == 0)
        snprintf(out, 24, "2^%d", __builtin_ctzll(v));
    else if (v > 65536 && (v & (v + 1)) == 0)
        snprintf(out, 24, "2^%d-1", v == UINT64_MAX ? 64 : __builtin_ctzll(v + 1));
    else
        snprintf(out, 24, "%llu", (unsigned long long)v);
    return out;
}

/* A number in [min, max] (max up to 2^64), else bad input naming the option, the value and
 * the range, max as `max_text`. */
static unsigned __int128 parse_in_range(const char *option, const char *arg, uint64_t min,
                                        unsigned __int128 max, const char *max_text)
{
    char lo[24];
    unsigned __int128 v = 0;
    int rc = parse_number(arg, &v);
    if (rc == NUM_NOT_A_NUMBER)
        cli_bad_input("%s '%s' is not a number; accepted: an integer in %s..%s (%s)", option, arg,
                      cli_format_bound(lo, min), max_text, CLI_NUMBER_NOTATIONS);
    if (rc == NUM_TOO_LARGE || v < min || v > max)
        cli_bad_input("%s %s is out of range; accepted: %s..%s", option, arg,
                      cli_format_bound(lo, min), max_text);
    return v;
}

uint64_t cli_parse_u64(const char *option, const char *arg, uint64_t min, uint64_t max)
{
    char hi[24];
    return (uint64_t)parse_in_range(option, arg, min, max, cli_format_bound(hi, max));
}

uint64_t cli_parse_end(const char *option, const char *arg, uint64_t min)
{
    return (uint64_t)(parse_in_range(option, arg, min, NUM_2_64, "2^64") - 1);
}

unsigned cli_parse_size(const char *option, const char *arg, unsigned min, unsigned max,
                        unsigned multiple)
{
    char rule[96], lo[24], hi[24];
    snprintf(rule, sizeof rule, "a multiple of %u in %s..%s", multiple, cli_format_bound(lo, min),
             cli_format_bound(hi, max));
    unsigned __int128 v = 0;
    int rc = parse_number(arg, &v);
    if (rc == NUM_NOT_A_NUMBER)
        cli_bad_input("%s '%s' is not a number; accepted: %s", option, arg, rule);
    if (rc == NUM_TOO_LARGE || v < min || v > max || v % multiple)
        cli_bad_input("%s %s is not accepted; accepted: %s", option, arg, rule);
    return (unsigned)v;
}

void cli_check_list(const char *option, const char *arg, const char *accepted)
{
    bool empty_item = arg[0] == '\0' || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
                      strstr(arg, ",,") != NULL;
    if (empty_item)
        cli_bad_input("%s '%s' is not accepted: %s; accepted: %s", option, arg,
                      arg[0] ? "it has an empty item" : "it is empty", accepted);
}

const char *cli_repeat_option(const struct cli_common *opt)
{
    return opt->reps != 1 && cli_option_given(opt->argc, opt->argv, "reps")         ? "--reps"
           : opt->warmup != 0 && cli_option_given(opt->argc, opt->argv, "warmup") ? "--warmup"
           : opt->min_time_s > 0                                                  ? "--min-time"
           : opt->max_noise_pct > 0                                               ? "--max-noise"
                                                                                  : NULL;
}

_Noreturn void cli_refuse_repeat(const char *option, const char *first, const char *again)
{
    cli_bad_input("%s given twice ('%s', then '%s'); accepted: once", option, first, again);
}

/* values[i] of a list of unsigned or uint64_t. */
static uint64_t list_value(const struct cli_number_list *l, size_t i)
{
    if (l->value_size == sizeof(unsigned))
        return ((const unsigned *)l->values)[i];
    return ((const uint64_t *)l->values)[i];
}

void cli_add_number_list(const struct cli_number_list *l, const char *list)
{
    cli_check_list(l->option, list, l->accepted);
    char *copy = strdup(list);
    if (!copy)
        cli_bad_input("%s: out of host memory", l->option);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const uint64_t v = l->multiple ? cli_parse_size(l->option, tok, (unsigned)l->min, (unsigned)l->max,
                                                        l->multiple)
                                       : cli_parse_u64(l->option, tok, l->min, l->max);
        bool seen = false;
        for (size_t i = 0; i < *l->n; i++)
            seen |= list_value(l, i) == v;
        if (seen)
            continue;
        if (*l->n == l->capacity)
            cli_bad_input("%s: more than %zu %s given; accepted: at most %zu", l->option, l->capacity, l->noun,
                          l->capacity);
        if (l->value_size == sizeof(unsigned))
            ((unsigned *)l->values)[(*l->n)++] = (unsigned)v;
        else
            ((uint64_t *)l->values)[(*l->n)++] = v;
    }
    free(copy);
}

#define HELP_WIDTH 80

/* Prints one line of text (no '\n' in it), wrapped at HELP_WIDTH columns: the first row as
 * given, spacing included (so aligned columns stay aligned), every further row indented by
 * `hang`. A word is never split; one longer than a row overflows it. With hold_last, a last
 * row that the wrapping made is not printed; its offset in s is returned (else len), for the
 * caller to carry into the next line of a paragraph. */
static size_t print_wrapped_line(FILE *f, const char *s, size_t len, size_t hang, bool hold_last)
{
    size_t rows_start[HELP_WIDTH * 4], n_rows = 0; /* up to the first few hundred rows */
    size_t i = 0, col = 0, line_start = 0;
    /* First pass: where each row starts. */
    rows_start[n_rows++] = 0;
    while (i < len) {
        size_t gap = 0;
        while (i + gap < len && s[i + gap] == ' ')
            gap++;
        size_t w = i + gap, wl = 0;
        while (w + wl < len && s[w + wl] != ' ')
            wl++;
        if (wl == 0)
            break; /* trailing spaces */
        if (col > line_start && col + gap + wl > HELP_WIDTH &&
            n_rows < sizeof rows_start / sizeof rows_start[0]) {
            rows_start[n_rows++] = w;
            col = line_start = hang;
            gap = 0;
        }
        col += gap + wl;
        i = w + wl;
    }
    const size_t printed_rows = hold_last && n_rows > 1 ? n_rows - 1 : n_rows;
    for (size_t r = 0; r < printed_rows; r++) {
        size_t from = rows_start[r], to = r + 1 < n_rows ? rows_start[r + 1] : len;
        while (to > from && s[to - 1] == ' ')
            to--;
        fprintf(f, "%*s%.*s\n", r ? (int)hang : 0, "", (int)(to - from), s + from);
    }
    return printed_rows < n_rows ? rows_start[n_rows - 1] : len;
}

/* The hanging indent of a help line: where its second column starts (after the first run of
 * two or more spaces past the first word, as in "  name       summary"), else four columns in
 * from its own indent (an example's continuation), else none (a paragraph line). */
static size_t hang_of(const char *s, size_t len)
{
    size_t lead = 0;
    while (lead < len && s[lead] == ' ')
        lead++;
    const char *gap = NULL;
    for (size_t i = lead; i + 2 < len; i++)
        if (s[i] == ' ' && s[i + 1] == ' ') {
            gap = s + i;
            break;
        }
    if (gap && lead > 0) {
        size_t h = (size_t)(gap - s);
        while (h < len && s[h] == ' ')
            h++;
        if (h <= HELP_WIDTH / 2 + 10)
            return h;
    }
    return lead > 0 ? lead + 4 : 0;
}

void cli_print_wrapped(FILE *f, const char *text)
{
    /* Paragraph lines (not indented) are reflowed: the words one wraps off its end join the
     * next line, so a paragraph written for a wider screen does not leave one-word rows. */
    char *carry = NULL;
    while (*text) {
        size_t len = strcspn(text, "\n");
        const char *next = text[len] ? text + len + 1 : text + len;
        const bool paragraph = len > 0 && text[0] != ' ';
        const bool next_paragraph = *next && *next != '\n' && *next != ' ';
        char *line = NULL;
        if (carry) {
            size_t n = strlen(carry) + 1 + len + 1;
            line = malloc(n);
            if (line)
                snprintf(line, n, "%s %.*s", carry, (int)len, text);
            free(carry);
            carry = NULL;
        }
        const char *s = line ? line : text;
        const size_t slen = line ? strlen(line) : len;
        const bool hold = paragraph && next_paragraph;
        size_t held = print_wrapped_line(f, s, slen, hang_of(s, slen), hold);
        if (held < slen)
            carry = strndup(s + held, slen - held);
        free(line);
        text = next;
    }
    free(carry);
}

struct common_def {
    unsigned bit;
    const char *name;
    const char *arg_name;
    const char *help;
};

static const struct common_def common_defs[] = {
    {OPT_COUNT, "count", "N", "number of independent problems (default 10240)"},
    {OPT_BITS, "bits", "B[,B...]", NULL /* from the subcommand's size rule: bits_help */},
    {OPT_METHOD, "method", "M[,M...]", "method(s) to run; repeatable or a comma list; 'all' runs every method"},
    {OPT_REPS, "reps", "R", "timed repetitions; the median, min and max are reported (default 10, as the papers)"},
    {OPT_WARMUP, "warmup", "W", "untimed warm-up runs before timing (default 2)"},
    {OPT_SEED, "seed", "S", "seed of the random input generator (default 1)"},
    {OPT_DEVICE, "device", "D", "CUDA device index (default 0)"},
    {OPT_THREADS, "threads", "T", "CPU threads for the CPU baseline (default 1, as the papers; 0: all cores)"},
    {OPT_CSV, "csv", "FILE", "append result rows to FILE (new, empty or an mpgpu CSV; the header is written once; '-': stdout, the table then going to stderr)"},
    {OPT_VERIFY, "verify", "all|sample|none", NULL /* the subcommand's: verify_help */},
    {OPT_INCLUDE_TRANSFERS, "include-transfers", NULL, "include host<->device copies in the timed region (default: kernels only, as the papers)"},
    {OPT_INCLUDE_LAUNCH, "include-launch", NULL, "also time the host's launch latency, as plain CUDA events around a launch do (default: the stream is held until the region is queued, as nvbench, so the GPU's time alone is timed)"},
    {OPT_QUIET, "quiet", NULL, "print no table and no progress; errors still go to stderr"},
    {OPT_MIN_TIME, "min-time", "S", "repeat each case until S seconds of timed work (at least --reps, at most 1000 repetitions; default 0: --reps exactly)"},
    {OPT_MAX_NOISE, "max-noise", "P", "repeat each case until the noise (relative standard deviation of the repetitions) is below P % (at least --reps, at most 1000 repetitions or 15 s of timed work; with --min-time, whichever is met first; default 0: --reps exactly)"},
    {OPT_JSON, "json", "FILE", "write every sample of every row, the machine and the build to FILE as JSON (rewritten after each row)"},
    {OPT_MARKDOWN, "markdown", NULL, "print the table as Markdown"},
};
#define N_COMMON (sizeof common_defs / sizeof common_defs[0])

/* The common options a subcommand takes: its mask, and where it repeats cases (--reps) how
 * long to repeat them and how to report them. */
static unsigned common_mask(const struct cli_spec *spec)
{
    return spec->common & OPT_REPS ? spec->common | OPT_WITH_REPS : spec->common;
}

#define DEFAULT_BITS 1024u

/* What --bits accepts, for its help and its error messages. */
static void bits_rule(const struct cli_spec *spec, char *out, size_t len)
{
    char lo[24], hi[24];
    if (spec->bits_accepted)
        snprintf(out, len, "%s", spec->bits_accepted);
    else if (spec->bits_multiple)
        snprintf(out, len, "a multiple of %u in %s..%s", spec->bits_multiple,
                 cli_format_bound(lo, spec->bits_min), cli_format_bound(hi, spec->bits_max));
    else
        snprintf(out, len, "1..%s", cli_format_bound(hi, CLI_BITS_MAX));
}

/* An option's left column, then its help from column 32 on, wrapped under itself. */
#define OPTION_COLUMN 31
static void print_option(const char *name, const char *arg_name, const char *help)
{
    char left[64], line[1024];
    if (arg_name)
        snprintf(left, sizeof left, "--%s %s", name, arg_name);
    else
        snprintf(left, sizeof left, "--%s", name);
    if (strlen(left) > OPTION_COLUMN - 3) {
        printf("  %s\n", left);
        left[0] = '\0';
    }
    int n = snprintf(line, sizeof line, "  %-*s %s", OPTION_COLUMN - 3, left, help);
    print_wrapped_line(stdout, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1,
                       OPTION_COLUMN, false);
}

static void print_help(const struct cli_spec *spec)
{
    /* Each usage line wraps under its first option: "usage: mpgpu tune [--sizes ...". */
    for (const char *u = spec->usage; *u;) {
        const bool first = u == spec->usage;
        while (*u == ' ')
            u++;
        size_t len = strcspn(u, "\n"), words = 0, hang = 0;
        for (size_t i = 0; i < len && words < 2; i++)
            if (u[i] != ' ' && (i + 1 == len || u[i + 1] == ' ') && ++words == 2)
                hang = i + 2;
        char line[512];
        int n = snprintf(line, sizeof line, "%s%.*s", first ? "usage: " : "       ", (int)len, u);
        print_wrapped_line(stdout, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1,
                           7 + hang, false);
        u += len;
        u += *u == '\n';
    }
    printf("\n");
    cli_print_wrapped(stdout, spec->description);
    printf("\noptions:\n");
    for (const struct cli_option *o = spec->options; o && o->name; o++)
        print_option(o->name, o->arg_name, o->help);
    for (size_t i = 0; i < N_COMMON; i++) {
        if (!(common_mask(spec) & common_defs[i].bit))
            continue;
        const char *help = common_defs[i].help;
        char bits_help[512];
        char count_help[96];
        if (common_defs[i].bit == OPT_COUNT && spec->count_default) {
            snprintf(count_help, sizeof count_help, "number of independent problems (default %s)",
                     spec->count_default);
            help = count_help;
        }
        char verify_help[1024];
        if (common_defs[i].bit == OPT_VERIFY) {
            static const char *const mode_names[] = {"all", "sample", "none"};
            snprintf(verify_help, sizeof verify_help, "%s (default: %s)",
                     spec->verify_help ? spec->verify_help
                                       : "check each GPU result against GMP: all of them, a "
                                         "sample of about 1000 spread over the batch (every k-th "
                                         "and the last), or none",
                     mode_names[spec->verify_default]);
            help = verify_help;
        }
        if (common_defs[i].bit == OPT_THREADS && spec->threads_help)
            help = spec->threads_help;
        if (common_defs[i].bit == OPT_JSON && !json_supported())
            help = "unavailable: this mpgpu was built without cJSON (libcjson-dev)";
        if (common_defs[i].bit == OPT_BITS) {
            char rule[320];
            bits_rule(spec, rule, sizeof rule);
            char default_bits[16];
            snprintf(default_bits, sizeof default_bits, "%u", DEFAULT_BITS);
            snprintf(bits_help, sizeof bits_help, "operand size in bits, %s (default %s); a comma "
                     "list or a repeated --bits runs each size in turn", rule,
                     spec->bits_default ? spec->bits_default : default_bits);
            help = bits_help;
        }
        print_option(common_defs[i].name, common_defs[i].arg_name, help);
    }
    print_option("help", NULL, "print this help and exit");
    printf("\n");
    cli_print_wrapped(stdout, "Numbers (N, B, R, ...) are decimal (leading zeros do not make them "
                              "octal), 2^N, 10^N, either minus one, or 0x hex: --count 2^20, "
                              "--count 10^6, --seed 2^64-1, --seed 0x2a.");
    if (spec->methods_help) {
        printf("\nmethods:\n");
        cli_print_wrapped(stdout, spec->methods_help);
    }
    if (spec->examples) {
        printf("\nexamples:\n");
        cli_print_wrapped(stdout, spec->examples);
    }
}

static void add_methods(struct cli_common *out, char *list)
{
    cli_check_list("--method", list, "method names separated by single commas");
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (out->n_methods == CLI_MAX_METHODS)
            cli_bad_input("--method: more than %d methods given; accepted: at most %d", CLI_MAX_METHODS,
                          CLI_MAX_METHODS);
        out->methods[out->n_methods++] = tok;
    }
}

/* Every item of a --bits list, against the subcommand's size rule. */
static void add_bits(const struct cli_spec *spec, struct cli_common *out, const char *list)
{
    char rule[320], accepted[384];
    bits_rule(spec, rule, sizeof rule);
    snprintf(accepted, sizeof accepted, "sizes separated by single commas, each %s", rule);
    const bool rule_of_its_own = spec->bits_multiple != 0;
    cli_add_number_list(&(struct cli_number_list){.option = "--bits", .accepted = accepted, .noun = "sizes",
                                                  .min = rule_of_its_own ? spec->bits_min : 1,
                                                  .max = rule_of_its_own ? spec->bits_max : CLI_BITS_MAX,
                                                  .multiple = spec->bits_multiple,
                                                  .values = out->bits_list, .value_size = sizeof out->bits_list[0],
                                                  .n = &out->n_bits, .capacity = CLI_MAX_SIZES},
                        list);
}

/* The long option named exactly by name[0, len), or NULL. */
static const struct option *find_option(const struct option *opts, const char *name, size_t len)
{
    for (const struct option *o = opts; o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

/* Edits (insertions, deletions, substitutions) between a[0, n) and b, for names of a few dozen
 * characters; anything longer counts as far. */
static size_t edit_distance(const char *a, size_t n, const char *b)
{
    enum { LONGEST = 40 };
    const size_t m = strlen(b);
    if (n > LONGEST || m > LONGEST)
        return SIZE_MAX;
    size_t row[LONGEST + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            const size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            best = up + 1 < best ? up + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* "--NAME[=VALUE]" that names no option, whole: refused naming it, with the option it most
 * likely meant (the one it begins, else one at most two edits away). Options are not taken by
 * an abbreviation, which getopt would take: a setting looked up by its whole name elsewhere
 * (cli_option_given) would then be missed. */
static _Noreturn void unknown_option(const struct cli_spec *spec, const struct option *opts,
                                     const char *token)
{
    const char *name = token + 2;
    const size_t len = strcspn(name, "=");
    const struct option *near = NULL;
    size_t best = 3, begun = 0;
    for (const struct option *o = opts; o->name; o++) {
        const bool begins = len > 0 && !strncmp(o->name, name, len);
        const size_t d = begins ? 0 : edit_distance(name, len, o->name);
        begun += begins;
        if (d < best) {
            near = o;
            best = d;
        }
    }
    char hint[64] = "";
    if (near && begun <= 1) /* an abbreviation of several options: no one guess */
        snprintf(hint, sizeof hint, " (did you mean '--%s'?)", near->name);
    cli_bad_input("%s: unknown option '--%.*s'%s; see 'mpgpu %s --help'", spec->command, (int)len,
                  name, hint, spec->command);
}

/* The option getopt_long just returned, as written: its own element, or the one before its
 * value when the value came as the next element. */
static const char *option_token(char **argv, const char *arg)
{
    return arg && arg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
}

/* Only an option's whole name is taken (--verify, not --verif): see unknown_option. */
static void require_whole_name(const struct cli_spec *spec, const struct option *opts,
                               const struct option *o, const char *token)
{
    const size_t len = strlen(o->name);
    if (strncmp(token, "--", 2) || strncmp(token + 2, o->name, len) ||
        (token[2 + len] != '\0' && token[2 + len] != '='))
        unknown_option(spec, opts, token);
}

/* getopt_long's '?': an unknown short option, an unknown or ambiguous long one (optopt 0), or a
 * value given to an option that takes none (optopt its id, the element "--NAME=VALUE"). */
static _Noreturn void bad_option(const struct cli_spec *spec, const struct option *opts,
                                 char **argv)
{
    const char *token = argv[optind - 1];
    for (const struct option *o = opts; optopt && o->name; o++)
        if (o->val == optopt && o->has_arg == no_argument && !strncmp(token, "--", 2) &&
            find_option(opts, token + 2, strcspn(token + 2, "=")) == o)
            cli_bad_input("%s: option '--%s' takes no value; see 'mpgpu %s --help'", spec->command,
                          o->name, spec->command);
    if (optopt > 0 && optopt < 256)
        cli_bad_input("%s: unknown option '-%c'; see 'mpgpu %s --help'", spec->command,
                      isgraph(optopt) ? optopt : '?', spec->command);
    unknown_option(spec, opts, token);
}

double cli_parse_real(const char *option, const char *arg, double max, const char *unit,
                      const char *note)
{
    char *end = NULL;
    double v = strtod(arg, &end);
    const bool decimal = arg[0] != '\0' && *end == '\0' && strspn(arg, "0123456789.eE+-") == strlen(arg);
    if (!decimal) {
        unsigned __int128 n = 0;
        const int rc = parse_number(arg, &n);
        if (rc == NUM_NOT_A_NUMBER)
            cli_bad_input("%s '%s' is not a number; accepted: %s in 0..%g (decimal, e.g. 0.5, 2^N, "
                          "10^N or 0x hex%s%s)", option, arg, unit, max, note ? "; " : "",
                          note ? note : "");
        v = rc == NUM_TOO_LARGE ? INFINITY : (double)n;
    }
    if (!(v >= 0 && v <= max))
        cli_bad_input("%s %s is out of range; accepted: %s in 0..%g%s%s%s", option, arg, unit, max,
                      note ? " (" : "", note ? note : "", note ? ")" : "");
    return v;
}

/* Whether option id takes a comma list, which may also be repeated: its value's name in the help
 * says so ("B[,B...]"). */
static bool option_is_list(const struct cli_spec *spec, int id)
{
    const char *arg_name = NULL;
    for (size_t i = 0; i < N_COMMON; i++)
        if ((int)common_defs[i].bit == id)
            arg_name = common_defs[i].arg_name;
    for (const struct cli_option *o = spec->options; o && o->name; o++)
        if (o->id == id)
            arg_name = o->arg_name;
    return arg_name && strstr(arg_name, "...");
}

void cli_parse(int argc, char **argv, const struct cli_spec *spec, struct cli_common *out)
{
    memset(out, 0, sizeof *out);
    out->argc = argc;
    out->argv = argv;
    out->count = 10240;
    out->reps = 10;
    out->warmup = 2;
    out->seed = 1;
    out->threads = 1;
    out->verify = spec->verify_default;

    struct option longopts[N_COMMON + 64];
    size_t n = 0;
    const unsigned common = common_mask(spec);
    for (size_t i = 0; i < N_COMMON; i++)
        if (common & common_defs[i].bit)
            longopts[n++] = (struct option){common_defs[i].name,
                                            common_defs[i].arg_name ? required_argument : no_argument,
                                            NULL, (int)common_defs[i].bit};
    for (const struct cli_option *o = spec->options; o && o->name; o++) {
        if (n == sizeof longopts / sizeof longopts[0] - 2)
            break;
        longopts[n++] = (struct option){o->name, o->arg_name ? required_argument : no_argument,
                                        NULL, o->id};
    }
    longopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[n] = (struct option){NULL, 0, NULL, 0};

    /* The value each option took first, to refuse a second one (a list's arg_name says "..."). */
    const char *first_value[sizeof longopts / sizeof longopts[0]] = {NULL};
    opterr = 0;
    optind = 1;
    for (;;) {
        int idx = -1;
        int c = getopt_long(argc, argv, ":h", longopts, &idx);
        if (c == -1)
            break;
        const char *arg = optarg;
        if (c == '?')
            bad_option(spec, longopts, argv);
        if (c == ':') {
            /* A known option: its name is checked as a given one is. */
            for (const struct option *o = longopts; o->name; o++)
                if (o->val == optopt)
                    require_whole_name(spec, longopts, o, argv[optind - 1]);
            cli_bad_input("%s: option '%s' needs a value; see 'mpgpu %s --help'", spec->command,
                          argv[optind - 1], spec->command);
        }
        if (idx >= 0) {
            require_whole_name(spec, longopts, &longopts[idx], option_token(argv, arg));
            if (arg && first_value[idx] && !option_is_list(spec, c)) {
                char name[64];
                snprintf(name, sizeof name, "--%s", longopts[idx].name);
                cli_refuse_repeat(name, first_value[idx], arg);
            }
            if (arg && !first_value[idx])
                first_value[idx] = arg;
        }
        switch (c) {
        case 'h':
            print_help(spec);
            exit(0);
        case OPT_COUNT:
            out->count = cli_parse_u64("--count", arg, 1, CLI_COUNT_MAX);
            out->count_set = true;
            break;
        case OPT_BITS:
            add_bits(spec, out, arg);
            out->bits_set = true;
            break;
        case OPT_METHOD:
            add_methods(out, (char *)arg);
            break;
        case OPT_REPS:
            out->reps = (unsigned)cli_parse_u64("--reps", arg, 1, 100000);
            break;
        case OPT_WARMUP:
            out->warmup = (unsigned)cli_parse_u64("--warmup", arg, 0, 100000);
            break;
        case OPT_SEED:
            out->seed = cli_parse_u64("--seed", arg, 0, UINT64_MAX);
            break;
        case OPT_DEVICE:
            out->device = (int)cli_parse_u64("--device", arg, 0, 1023);
            break;
        case OPT_THREADS:
            out->threads = (int)cli_parse_u64("--threads", arg, 0, 4096);
            break;
        case OPT_CSV:
            path_claim("--csv", arg, PATH_WRITE);
            out->csv_path = arg;
            break;
        case OPT_VERIFY:
            if (!strcmp(arg, "all"))
                out->verify = VERIFY_ALL;
            else if (!strcmp(arg, "sample"))
                out->verify = VERIFY_SAMPLE;
            else if (!strcmp(arg, "none"))
                out->verify = VERIFY_NONE;
            else
                cli_bad_input("--verify '%s' is not a mode; accepted: all, sample, none", arg);
            break;
        case OPT_INCLUDE_TRANSFERS:
            out->include_transfers = true;
            break;
        case OPT_INCLUDE_LAUNCH:
            out->include_launch = true;
            break;
        case OPT_QUIET:
            out->quiet = true;
            break;
        case OPT_MIN_TIME:
            out->min_time_s = cli_parse_real("--min-time", arg, CLI_MIN_TIME_MAX_S, "seconds", "0: off");
            break;
        case OPT_MAX_NOISE:
            out->max_noise_pct = cli_parse_real("--max-noise", arg, CLI_MAX_NOISE_MAX_PCT, "percent", "0: off");
            break;
        case OPT_JSON:
            path_claim("--json", arg, PATH_WRITE);
            out->json_path = arg;
            break;
        case OPT_MARKDOWN:
            out->markdown = true;
            break;
        default:
            if (spec->handle)
                spec->handle(c, arg, spec->ctx);
            break;
        }
    }
    if (optind < argc)
        cli_bad_input("%s: unexpected argument '%s'; see 'mpgpu %s --help'", spec->command,
                      argv[optind], spec->command);
    if (out->n_bits == 0)
        out->bits_list[out->n_bits++] = DEFAULT_BITS;
    out->bits = out->bits_list[0];
}

void cli_refuse_options(int argc, char **argv, const char *const *names, const char *mode,
                        const char *why)
{
    for (const char *const *n = names; *n; n++)
        if (cli_option_given(argc, argv, *n))
            cli_bad_input("--%s is not accepted with %s, %s", *n, mode, why);
}

size_t cli_methods_text(const struct cli_common *opt, const char *defaults, char *buf, size_t len)
{
    if (opt->n_methods == 0) {
        snprintf(buf, len, "the default methods (%s)", defaults);
        size_t n = 1;
        for (const char *p = defaults; *p; p++)
            n += *p == ',';
        return n;
    }
    size_t n = 0, used = (size_t)snprintf(buf, len, "--method ");
    for (size_t i = 0; i < opt->n_methods; i++) {
        bool seen = false;
        for (size_t k = 0; k < i; k++)
            seen |= !strcmp(opt->methods[k], opt->methods[i]);
        if (!seen && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", n++ ? "," : "", opt->methods[i]);
    }
    return n;
}

bool cli_option_given(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
            (argv[i][2 + n] == '\0' || argv[i][2 + n] == '='))
            return true;
    return false;
}
