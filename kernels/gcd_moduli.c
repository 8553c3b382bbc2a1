#include "gcd_moduli.h"

#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *gcd_filter_name(enum gcd_filter f)
{
    return f == GCD_FILTER_CHEAP ? "cheap" : "all";
}

bool gcd_fastrem_exact_for_all(uint32_t q, unsigned s)
{
    /* 2^64 mod q: q is odd, so 2^64 mod q != 0 and UINT64_MAX mod q <= q - 2. */
    uint64_t r64 = UINT64_MAX % q + 1;
    uint64_t x_star = UINT64_MAX - r64;
    /* 2^(64+s) mod q = r64 2^s mod q, with r64 2^s < 2^64 as r64 < q < 2^32 and s <= 32. */
    uint64_t e = q - (r64 << s) % q;
    /* x* e < 2^(64+s)  <=>  floor(x* e / 2^64) < 2^s. */
    return gcd_mulhi64(x_star, e) < ((uint64_t)1 << s);
}

uint64_t gcd_fastrem_multiplier(uint32_t q, unsigned L, enum gcd_filter f)
{
    unsigned s = f == GCD_FILTER_CHEAP ? L - 1 : L;
    /* floor(2^(64+s) / q) by schoolbook division of the base-2^32 digits (2^s, 0, 0), with only
     * 64-by-32-bit steps (a GPU can repeat it at kernel start, 002 section 3.1). The top
     * quotient digit floor(2^s / q) is 0 for s = L - 1 and 1 for s = L, the 2^64 that the exact
     * path leaves out of m and adds back as "+ x" (gcd_moduli.h). */
    uint64_t r = ((uint64_t)1 << s) % q;
    uint64_t hi = (r << 32) / q;
    r = (r << 32) % q;
    uint64_t lo = (r << 32) / q;
    /* Rounding up adds one: q odd never divides 2^(64+s). */
    return (hi << 32 | lo) + 1;
}

uint32_t gcd_residue_words(const uint32_t *w, size_t n, uint32_t q, uint64_t m, unsigned L,
                           enum gcd_filter f)
{
    uint64_t r = 0;
    for (size_t i = n; i-- > 0;)
        r = gcd_fastrem(r << 32 | w[i], q, m, L, f);
    return (uint32_t)r;
}

/* The sieve of Eratosthenes (002 section 3.3) over the odd numbers of (2^(L-1), 2^L): candidate
 * i is lo + 2i, lo = 2^(L-1) + 1, i < 2^(L-2), and bit i of a bitmap says whether it is kept.
 * The OpenMP threads share segments of SEGMENT_LEN candidates, 32 KiB of bitmap each, so the
 * marking stays in the L1 cache; segments cover whole 64-bit words. */
#define SEGMENT_LEN ((uint64_t)1 << 18)

struct sieve {
    unsigned L;
    enum gcd_filter filter;
    uint64_t lo, candidates, segment_len;
    uint32_t *base; /* the odd primes p < 2^ceil(L/2), enough as p^2 >= 2^L beyond */
    size_t base_count;
    uint64_t *kept;
};

static int base_primes(struct sieve *sv)
{
    uint32_t limit = (uint32_t)1 << ((sv->L + 1) / 2);
    uint8_t *composite = calloc(limit, 1);
    sv->base = malloc(limit / 2 * sizeof *sv->base);
    if (!composite || !sv->base) {
        free(composite);
        return -1;
    }
    sv->base_count = 0;
    for (uint32_t p = 3; p < limit; p += 2) {
        if (composite[p])
            continue;
        sv->base[sv->base_count++] = p;
        for (uint32_t k = p * p; k < limit; k += 2 * p)
            composite[k] = 1;
    }
    free(composite);
    return 0;
}

/* Sieves segment `seg` and applies the filter; returns the moduli it kept. Every base prime is
 * below lo (2^ceil(L/2) <= 2^(L-1) for L >= 3), so each multiple it clears is composite. */
static uint64_t sieve_segment(const struct sieve *sv, uint64_t seg)
{
    const uint64_t len = sv->segment_len, n0 = sv->lo + 2 * seg * len;
    uint64_t *bits = sv->kept + seg * len / 64;
    memset(bits, 0xff, len / 8);
    for (size_t k = 0; k < sv->base_count; k++) {
        uint64_t p = sv->base[k];
        uint64_t first = (n0 + p - 1) / p * p;
        if (!(first & 1))
            first += p;
        for (uint64_t j = (first - n0) / 2; j < len; j += p)
            bits[j / 64] &= ~((uint64_t)1 << (j % 64));
    }
    uint64_t kept = 0;
    for (uint64_t w = 0; w < len / 64; w++) {
        if (sv->filter == GCD_FILTER_CHEAP) {
            for (uint64_t x = bits[w]; x; x &= x - 1) {
                unsigned b = (unsigned)__builtin_ctzll(x);
                if (!gcd_fastrem_is_cheap((uint32_t)(n0 + 2 * (w * 64 + b)), sv->L))
                    bits[w] &= ~((uint64_t)1 << b);
            }
        }
        kept += (uint64_t)__builtin_popcountll(bits[w]);
    }
    return kept;
}

/* Writes the kept moduli of segment `seg` to out, largest first. */
static void extract_segment(const struct sieve *sv, uint64_t seg, uint32_t *out)
{
    const uint64_t words = sv->segment_len / 64, w0 = seg * words;
    for (uint64_t w = w0 + words; w-- > w0;) {
        for (uint64_t x = sv->kept[w]; x;) {
            unsigned b = 63u - (unsigned)__builtin_clzll(x);
            *out++ = (uint32_t)(sv->lo + 2 * (w * 64 + b));
            x ^= (uint64_t)1 << b;
        }
    }
}

int gcd_moduli_build(struct gcd_moduli *out, unsigned L, enum gcd_filter f)
{
    memset(out, 0, sizeof *out);
    if (L < GCD_L_MIN || L > GCD_L_MAX)
        return -1;
    struct sieve sv = {.L = L, .filter = f};
    sv.lo = ((uint64_t)1 << (L - 1)) + 1;
    sv.candidates = (uint64_t)1 << (L - 2);
    sv.segment_len = sv.candidates < SEGMENT_LEN ? sv.candidates : SEGMENT_LEN;
    const uint64_t segments = sv.candidates / sv.segment_len;
    sv.kept = malloc(sv.candidates / 8);
    uint64_t *count = malloc(segments * sizeof *count);
    if (!sv.kept || !count || base_primes(&sv) != 0)
        goto fail;

#pragma omp parallel for schedule(dynamic, 4)
    for (long s = 0; s < (long)segments; s++)
        count[s] = sieve_segment(&sv, (uint64_t)s);

    /* Largest first: the top segment's moduli start the list. */
    uint64_t total = 0;
    for (uint64_t s = segments; s-- > 0;) {
        uint64_t c = count[s];
        count[s] = total;
        total += c;
    }
    out->q = malloc((total ? total : 1) * sizeof *out->q);
    if (!out->q)
        goto fail;
#pragma omp parallel for schedule(dynamic, 4)
    for (long s = 0; s < (long)segments; s++)
        extract_segment(&sv, (uint64_t)s, out->q + count[s]);
    out->L = L;
    out->filter = f;
    out->count = total;
    free(sv.base);
    free(sv.kept);
    free(count);
    return 0;
fail:
    free(sv.base);
    free(sv.kept);
    free(count);
    memset(out, 0, sizeof *out);
    return -1;
}

/* {cheap, all} for L = GCD_L_MIN..GCD_L_MAX, counted by gcd_moduli_build; the "all" column is
 * pi(2^L) - pi(2^(L-1)). */
static const uint64_t moduli_counts[GCD_L_MAX - GCD_L_MIN + 1][2] = {
    {2099u, 3030u},          /* L = 16 */
    {3973u, 5709u},          /* L = 17 */
    {7447u, 10749u},         /* L = 18 */
    {14154u, 20390u},        /* L = 19 */
    {26889u, 38635u},        /* L = 20 */
    {51094u, 73586u},        /* L = 21 */
    {97358u, 140336u},       /* L = 22 */
    {186448u, 268216u},      /* L = 23 */
    {356990u, 513708u},      /* L = 24 */
    {685708u, 985818u},      /* L = 25 */
    {1316427u, 1894120u},    /* L = 26 */
    {2533540u, 3645744u},    /* L = 27 */
    {4882539u, 7027290u},    /* L = 28 */
    {9417999u, 13561907u},   /* L = 29 */
    {18202123u, 26207278u},  /* L = 30 */
    {35206384u, 50697537u},  /* L = 31 */
    {68181070u, 98182656u},  /* L = 32 */
};

uint64_t gcd_moduli_count(unsigned L, enum gcd_filter f)
{
    if (L < GCD_L_MIN || L > GCD_L_MAX)
        return 0;
    return moduli_counts[L - GCD_L_MIN][f == GCD_FILTER_CHEAP ? 0 : 1];
}

void gcd_moduli_free(struct gcd_moduli *m)
{
    free(m->q);
    memset(m, 0, sizeof *m);
}

void gcd_moduli_cache_name(char *buf, size_t len, unsigned L, enum gcd_filter f)
{
    snprintf(buf, len, "gcd_moduli_L%u_%s.bin", L, gcd_filter_name(f));
}

/* Cache layout: all integers little-endian. */
static const char cache_magic[8] = {'M', 'P', 'G', 'P', 'U', 'G', 'C', 'D'};
#define CACHE_VERSION 1u
#define HEADER_BYTES 44u /* magic 8, version 4, L 4, filter 4, count 8, payload 8, checksum 8 */

/* FNV-1a (64-bit offset basis and prime) taken a modulus at a time: one multiply per modulus,
 * and any changed modulus changes every later state. */
static uint64_t checksum_add(uint64_t h, uint32_t q)
{
    return (h ^ q) * UINT64_C(0x100000001b3);
}
#define CHECKSUM_START UINT64_C(0xcbf29ce484222325)

static void put_le(unsigned char *p, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t x = 0;
    for (int i = bytes; i-- > 0;)
        x = x << 8 | p[i];
    return x;
}

/* The payload entry of modulus q after prev (prev = 2^L + 1 before the first): (prev - q) / 2
 * >= 1, 7 bits a byte, low bits first, the top bit of a byte set when more follow. */
static size_t varint_put(unsigned char *p, uint64_t d)
{
    size_t n = 0;
    for (; d >= 0x80; d >>= 7)
        p[n++] = (unsigned char)(d | 0x80);
    p[n++] = (unsigned char)d;
    return n;
}

int gcd_moduli_cache_write(const char *path, const struct gcd_moduli *m)
{
    unsigned char scratch[10];
    uint64_t prev = ((uint64_t)1 << m->L) + 1, bytes = 0, h = CHECKSUM_START;
    for (uint64_t i = 0; i < m->count; i++) {
        bytes += varint_put(scratch, (prev - m->q[i]) / 2);
        prev = m->q[i];
        h = checksum_add(h, m->q[i]);
    }
    unsigned char *buf = malloc(HEADER_BYTES + bytes);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(buf, cache_magic, 8);
    put_le(buf + 8, CACHE_VERSION, 4);
    put_le(buf + 12, m->L, 4);
    put_le(buf + 16, (uint64_t)m->filter, 4);
    put_le(buf + 20, m->count, 8);
    put_le(buf + 28, bytes, 8);
    put_le(buf + 36, h, 8);
    unsigned char *p = buf + HEADER_BYTES;
    prev = ((uint64_t)1 << m->L) + 1;
    for (uint64_t i = 0; i < m->count; i++) {
        p += varint_put(p, (prev - m->q[i]) / 2);
        prev = m->q[i];
    }

    size_t tmp_len = strlen(path) + 32;
    char *tmp = malloc(tmp_len);
    if (!tmp) {
        free(buf);
        errno = ENOMEM;
        return -1;
    }
    snprintf(tmp, tmp_len, "%s.tmp.%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "wb");
    int rc = -1;
    if (fp) {
        size_t put = fwrite(buf, 1, HEADER_BYTES + bytes, fp);
        int closed = fclose(fp);
        if (put == HEADER_BYTES + bytes && closed == 0 && rename(tmp, path) == 0)
            rc = 0;
        else {
            int saved = errno;
            remove(tmp);
            errno = saved;
        }
    }
    free(tmp);
    free(buf);
    return rc;
}

/* Reads the whole file; NULL with the reason in why. */
static unsigned char *read_file(const char *path, uint64_t *size, char *why, size_t why_len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(why, why_len, "cannot open (%s)", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || st.st_size < 0) {
        snprintf(why, why_len, "cannot stat (%s)", strerror(errno));
        fclose(fp);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    unsigned char *buf = malloc(*size ? *size : 1);
    if (!buf) {
        snprintf(why, why_len, "out of memory for %llu bytes", (unsigned long long)*size);
        fclose(fp);
        return NULL;
    }
    if (fread(buf, 1, *size, fp) != *size) {
        snprintf(why, why_len, "short read");
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    return buf;
}

int gcd_moduli_cache_read(const char *path, unsigned L, enum gcd_filter f, struct gcd_moduli *out,
                          char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    uint64_t size;
    unsigned char *buf = read_file(path, &size, why, why_len);
    if (!buf)
        return -1;
    const unsigned char *h = buf;
    uint64_t count = size >= HEADER_BYTES ? get_le(h + 20, 8) : 0;
    if (size < HEADER_BYTES || memcmp(h, cache_magic, 8) != 0) {
        snprintf(why, why_len, "not a moduli cache");
        goto bad;
    }
    if (get_le(h + 8, 4) != CACHE_VERSION) {
        snprintf(why, why_len, "version %llu, expected %u", (unsigned long long)get_le(h + 8, 4),
                 CACHE_VERSION);
        goto bad;
    }
    if (get_le(h + 12, 4) != L || get_le(h + 16, 4) != (uint64_t)f) {
        snprintf(why, why_len, "holds L=%llu filter %llu, expected L=%u filter %d (%s)",
                 (unsigned long long)get_le(h + 12, 4), (unsigned long long)get_le(h + 16, 4), L,
                 (int)f, gcd_filter_name(f));
        goto bad;
    }
    if (get_le(h + 28, 8) != size - HEADER_BYTES) {
        snprintf(why, why_len, "payload of %llu bytes, header says %llu",
                 (unsigned long long)(size - HEADER_BYTES), (unsigned long long)get_le(h + 28, 8));
        goto bad;
    }
    if (count != gcd_moduli_count(L, f)) {
        snprintf(why, why_len, "count %llu, expected %llu", (unsigned long long)count,
                 (unsigned long long)gcd_moduli_count(L, f));
        goto bad;
    }
    /* An entry takes a byte at least. */
    if (count > size - HEADER_BYTES) {
        snprintf(why, why_len, "count %llu impossible in %llu bytes", (unsigned long long)count,
                 (unsigned long long)(size - HEADER_BYTES));
        goto bad;
    }
    out->q = malloc((count ? count : 1) * sizeof *out->q);
    if (!out->q) {
        snprintf(why, why_len, "out of memory for %llu moduli", (unsigned long long)count);
        goto bad;
    }
    const unsigned char *p = buf + HEADER_BYTES, *end = buf + size;
    const uint64_t floor_q = (uint64_t)1 << (L - 1);
    uint64_t prev = ((uint64_t)1 << L) + 1, sum = CHECKSUM_START;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t d = 0;
        unsigned shift = 0;
        int more = 1;
        while (more && p < end && shift < 35) {
            d |= (uint64_t)(*p & 0x7f) << shift;
            more = *p++ & 0x80;
            shift += 7;
        }
        if (more || d == 0 || 2 * d >= prev - floor_q) {
            snprintf(why, why_len, "entry %llu does not decode to a smaller L-bit number",
                     (unsigned long long)i);
            goto bad;
        }
        prev -= 2 * d;
        out->q[i] = (uint32_t)prev;
        sum = checksum_add(sum, out->q[i]);
    }
    if (p != end) {
        snprintf(why, why_len, "%llu bytes after the last modulus", (unsigned long long)(end - p));
        goto bad;
    }
    if (sum != get_le(h + 36, 8)) {
        snprintf(why, why_len, "checksum mismatch");
        goto bad;
    }
    out->L = L;
    out->filter = f;
    out->count = count;
    free(buf);
    return 0;
bad:
    free(buf);
    gcd_moduli_free(out);
    return -1;
}

int gcd_moduli_load(const char *path, unsigned L, enum gcd_filter f, struct gcd_moduli *out,
                    FILE *log)
{
    char why[160];
    memset(out, 0, sizeof *out);
    if (L < GCD_L_MIN || L > GCD_L_MAX)
        return -1;
    if (!path)
        return gcd_moduli_build(out, L, f) == 0 ? 2 : -1;
    if (gcd_moduli_cache_read(path, L, f, out, why, sizeof why) == 0)
        return 0;
    if (log)
        fprintf(log, "gcd moduli cache %s: %s; building the %u-bit %s moduli\n", path, why, L,
                gcd_filter_name(f));
    if (gcd_moduli_build(out, L, f) != 0)
        return -1;
    if (gcd_moduli_cache_write(path, out) == 0)
        return 1;
    if (log)
        fprintf(log, "gcd moduli cache %s: cannot be written (%s); the moduli are not cached\n",
                path, strerror(errno));
    return 2;
}
