// cpu suite: the fixed-precision operations of `mpgpu fixed` (kernels/fixed_*.cuh), built for
// the host from the same templates as the kernels, against GMP at every built precision, for
// both --impl values (a host build has no PTX, so Impl::ptx runs the C carries there: this test
// checks the algorithms and their word bounds, the gpu suite the PTX chains).
//   add, sub: two's complement in n words, with the carry or borrow out;
//   addm, subm, montmul: every pair of boundary operands below m (0, 1, m - 1, the top bit,
//     all ones of P bits) and seeded random ones, for moduli 2^P - 1, 2^(P-1) + 1, 3, random
//     odd ones of P and P/2 bits;
//   mul, karatsuba: boundary and random P-bit pairs;
//   montred: T = 0, 1, m - 1, m, R - 1, R, mR - m, mR - 1 and random T < mR; the round trip
//     into and out of Montgomery form; powm against mpz_powm;
//   --chain semantics (fixed_chain.cuh) against the reference the command line checks with
//     (cpu_ref/fixed_ref.c).
// R^2 mod m as the kernels derive it for one modulus per element (kernels/fixed_r2.cuh) against
// GMP's, on the same moduli.
// And --impl fp64 (kernels/fixed_fp64.cuh), its FMA sequence run here through C's fma() toward
// zero (this program is built with -ffp-contract=off -frounding-math): the limb halves against
// 128-bit products, words to limbs and back, montmul against mpz and against the IMAD path's
// host twin, powm against mpz_powm, both on the moduli and operands above, and its --chain
// against cpu_ref/fixed_ref.c, at every built precision and at 512 and 1024 bits.
// And --impl hybrid (kernels/fixed_mont.cuh with Impl::hybrid): its word products on the FP64
// pipe, the same fma() sequence, against 64-bit products at the ends of a word and random ones;
// montmul against mpz and against the IMAD path's host twin, powm against mpz_powm, and its
// --chain against cpu_ref/fixed_ref.c, on the moduli and operands above, at the same precisions.
#include <gmp.h>
#include <string.h>

#include <vector>

#include "fixed_bits.h"
#include "fixed_chain.cuh"
#include "fixed_fp64_chain.cuh"
#include "fixed_r2.cuh"
#include "fixed_ref.h"
extern "C" {
#include "random_words.h"
}
#include "test_seed.h"

using fixed::Impl;
typedef std::vector<uint32_t> Num;

static const char *impl_name(Impl i) { return i == Impl::ptx ? "ptx(host: C)" : "c"; }

static void to_mpz(mpz_t z, const Num &w) { mpz_import(z, w.size(), -1, 4, 0, 0, w.data()); }

static Num from_mpz(const mpz_t z, size_t n)
{
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, z, 32 * n);
    Num w(n, 0);
    mpz_export(w.data(), NULL, -1, 4, 0, 0, t);
    mpz_clear(t);
    return w;
}

static Num power_of_two(unsigned e, size_t n)
{
    Num w(n, 0);
    if (e < 32 * n)
        w[e / 32] = 1u << (e % 32);
    return w;
}

static Num random_num(uint64_t stream, size_t n, unsigned bits)
{
    Num w(n);
    random_words(seed, stream, w.data(), n);
    for (size_t j = 0; j < n; j++)
        if (32 * j >= bits)
            w[j] = 0;
        else if (32 * j + 32 > bits)
            w[j] &= (1u << (bits % 32)) - 1;
    return w;
}

static uint64_t stream_counter = 1;

template <int P, Impl I> struct Precision {
    static constexpr int N = fixed::words_of(P);
    char where[96];

    Precision() { snprintf(where, sizeof where, "P=%d impl=%s", P, impl_name(I)); }

    // The P-bit boundary operands and seeded random ones.
    std::vector<Num> plain_operands()
    {
        mpz_t z;
        mpz_init(z);
        std::vector<Num> v = {Num(N, 0), power_of_two(0, N), power_of_two(P - 1, N)};
        mpz_set_ui(z, 1);
        mpz_mul_2exp(z, z, P);
        mpz_sub_ui(z, z, 1);
        v.push_back(from_mpz(z, N));
        for (int k = 0; k < 12; k++)
            v.push_back(random_num(stream_counter++, N, P));
        mpz_clear(z);
        return v;
    }

    void check_add_sub()
    {
        std::vector<Num> v = plain_operands();
        v.push_back(Num(N, ~0u)); // all ones of n words: -1 in two's complement
        mpz_t x, y, s;
        mpz_inits(x, y, s, NULL);
        for (const Num &a : v)
            for (const Num &b : v) {
                uint32_t r[N];
                to_mpz(x, a);
                to_mpz(y, b);
                uint32_t carry = fixed::add<N, I>(r, a.data(), b.data());
                mpz_add(s, x, y);
                CHECK(Num(r, r + N) == from_mpz(s, N) && carry == (mpz_sizeinbase(s, 2) > 32u * N),
                      "%s add", where);
                uint32_t borrow = fixed::sub<N, I>(r, a.data(), b.data());
                mpz_sub(s, x, y);
                CHECK(Num(r, r + N) == from_mpz(s, N) && borrow == (mpz_sgn(s) < 0), "%s sub", where);
            }
        mpz_clears(x, y, s, NULL);
    }

    void check_mul()
    {
        std::vector<Num> v = plain_operands();
        mpz_t x, y, s;
        mpz_inits(x, y, s, NULL);
        for (const Num &a : v)
            for (const Num &b : v) {
                uint32_t r[2 * N], k[2 * N];
                to_mpz(x, a);
                to_mpz(y, b);
                mpz_mul(s, x, y);
                fixed::mul<N, I>(r, a.data(), b.data());
                fixed::karatsuba<P, I>(k, a.data(), b.data());
                CHECK(Num(r, r + 2 * N) == from_mpz(s, 2 * N), "%s mul", where);
                CHECK(Num(k, k + 2 * N) == from_mpz(s, 2 * N), "%s karatsuba", where);
            }
        mpz_clears(x, y, s, NULL);
    }

    // Boundary values below m and random ones.
    std::vector<Num> below(const mpz_t m)
    {
        std::vector<Num> v;
        mpz_t z;
        mpz_init(z);
        for (unsigned small = 0; small < 2; small++)
            if (mpz_cmp_ui(m, small) > 0) {
                Num w(N, 0);
                w[0] = small;
                v.push_back(w);
            }
        mpz_sub_ui(z, m, 1);
        v.push_back(from_mpz(z, N));
        mpz_set_ui(z, 1);
        mpz_mul_2exp(z, z, P - 1);
        if (mpz_cmp(z, m) < 0)
            v.push_back(from_mpz(z, N));
        mpz_mul_2exp(z, z, 1);
        mpz_sub_ui(z, z, 1);
        if (mpz_cmp(z, m) < 0)
            v.push_back(from_mpz(z, N));
        for (int k = 0; k < 10; k++) {
            to_mpz(z, random_num(stream_counter++, N + 1, 32 * (N + 1)));
            mpz_mod(z, z, m);
            v.push_back(from_mpz(z, N));
        }
        mpz_clear(z);
        return v;
    }

    // m of mw, R = 2^(32n) and R^-1 mod m, initialised here; the caller clears them.
    static void gmp_modulus(mpz_t m, mpz_t R, mpz_t rinv, const Num &mw)
    {
        mpz_inits(m, R, rinv, NULL);
        to_mpz(m, mw);
        mpz_set_ui(R, 1);
        mpz_mul_2exp(R, R, 32 * N);
        mpz_invert(rinv, R, m);
    }

    void check_modulus(const Num &mw)
    {
        mpz_t m, x, y, s, rinv, R;
        gmp_modulus(m, R, rinv, mw);
        mpz_inits(x, y, s, NULL);
        const uint32_t mp = fixed::mont_neg_inv(mw[0]);
        CHECK(mp == fixed_neg_inv(mw[0]) && (uint32_t)(mp * mw[0]) == ~0u, "%s m' = -m^-1", where);
        Num r2(N);
        fixed_r2(N, mw.data(), r2.data());
        uint32_t r2_device[N]; // as a kernel derives it for one modulus per element
        fixed::r2_mod<N>(r2_device, mw.data());
        CHECK(Num(r2_device, r2_device + N) == r2, "%s R^2 mod m by doubling", where);
        const uint32_t *mm = mw.data();
        std::vector<Num> v = below(m);
        Num one(N, 0);
        one[0] = 1;
        for (const Num &a : v) {
            to_mpz(x, a);
            for (const Num &b : v) {
                uint32_t r[N];
                to_mpz(y, b);
                fixed::addm<N, I>(r, a.data(), b.data(), mm);
                mpz_add(s, x, y);
                mpz_mod(s, s, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s addm", where);
                fixed::subm<N, I>(r, a.data(), b.data(), mm);
                mpz_sub(s, x, y);
                mpz_mod(s, s, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s subm", where);
                fixed::montmul<N, I>(r, a.data(), b.data(), mm, mp);
                mpz_mul(s, x, y);
                mpz_mul(s, s, rinv);
                mpz_mod(s, s, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s montmul", where);
            }
            // Into Montgomery form and back, by montmul and by montred.
            uint32_t xm[N], back[N], t[2 * N] = {0};
            fixed::montmul<N, I>(xm, a.data(), r2.data(), mm, mp);
            mpz_mul(s, x, R);
            mpz_mod(s, s, m);
            CHECK(Num(xm, xm + N) == from_mpz(s, N), "%s to Montgomery form", where);
            memcpy(t, xm, sizeof xm);
            fixed::montred<N, I>(back, t, mm, mp);
            CHECK(Num(back, back + N) == a, "%s montred round trip", where);
            fixed::montmul<N, I>(back, xm, one.data(), mm, mp);
            CHECK(Num(back, back + N) == a, "%s montmul round trip", where);
        }
        // montred on the ends of T < mR and random T.
        std::vector<Num> ts;
        mpz_t mr, z;
        mpz_inits(mr, z, NULL);
        mpz_mul(mr, m, R);
        for (int which = 0; which < 8; which++) {
            switch (which) {
            case 0: mpz_set_ui(z, 0); break;
            case 1: mpz_set_ui(z, 1); break;
            case 2: mpz_sub_ui(z, m, 1); break;
            case 3: mpz_set(z, m); break;
            case 4: mpz_sub_ui(z, R, 1); break;
            case 5: mpz_set(z, R); break;
            case 6: mpz_sub(z, mr, m); break;
            default: mpz_sub_ui(z, mr, 1); break;
            }
            if (mpz_cmp(z, mr) < 0)
                ts.push_back(from_mpz(z, 2 * N));
        }
        for (int k = 0; k < 40; k++) {
            to_mpz(z, random_num(stream_counter++, 2 * N + 1, 32 * (2 * N + 1)));
            mpz_mod(z, z, mr);
            ts.push_back(from_mpz(z, 2 * N));
        }
        for (const Num &t : ts) {
            uint32_t r[N];
            fixed::montred<N, I>(r, t.data(), mm, mp);
            to_mpz(z, t);
            mpz_mul(z, z, rinv);
            mpz_mod(z, z, m);
            CHECK(Num(r, r + N) == from_mpz(z, N), "%s montred", where);
        }
        // powm: bases below m and all ones of n words (below R), exponents 0, 1, 2, all ones.
        std::vector<Num> bases = v, exps = {Num(N, 0), one, power_of_two(1, N), Num(N, ~0u)};
        bases.push_back(Num(N, ~0u));
        exps.push_back(random_num(stream_counter++, N, P));
        for (size_t i = 0; i < bases.size(); i += 3)
            for (const Num &e : exps) {
                uint32_t r[N];
                fixed::powm<N, I>(r, bases[i].data(), e.data(), mm, mp, r2.data());
                to_mpz(x, bases[i]);
                to_mpz(y, e);
                mpz_powm(s, x, y, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s powm", where);
            }
        mpz_clears(m, x, y, s, rinv, R, mr, z, NULL);
    }

    Num modulus_of(unsigned kind)
    {
        mpz_t z;
        mpz_init(z);
        switch (kind) {
        case 0: // 2^P - 1
            mpz_set_ui(z, 1);
            mpz_mul_2exp(z, z, P);
            mpz_sub_ui(z, z, 1);
            break;
        case 1: // 2^(P-1) + 1
            mpz_set_ui(z, 1);
            mpz_mul_2exp(z, z, P - 1);
            mpz_add_ui(z, z, 1);
            break;
        case 2:
            mpz_set_ui(z, 3);
            break;
        case 3: // random odd of P/2 bits
            to_mpz(z, random_num(stream_counter++, N, P / 2));
            mpz_setbit(z, 0);
            break;
        default: {
            Num m(N);
            fixed_random_modulus(P, seed + kind, m.data());
            mpz_clear(z);
            return m;
        }
        }
        Num m = from_mpz(z, N);
        mpz_clear(z);
        return m;
    }

    // --chain as the kernels run it, against the reference the command line checks with.
    void check_chain()
    {
        Num m = modulus_of(4), r2(N);
        fixed_r2(N, m.data(), r2.data());
        const uint32_t mp = fixed::mont_neg_inv(m[0]);
        for (uint64_t chain : {1, 2, 7}) {
            for (uint64_t p = 0; p < 3; p++) {
                uint32_t a[2 * N], b[N], r[2 * N], expect[2 * N];
                for (int op = 0; op < FIXED_N_OPS; op++) {
                    const enum fixed_op o = (enum fixed_op)op;
                    if (o == FIXED_POWM && chain > 2)
                        continue;
                    fixed_random_operands((mpgpu_fixed_op)o, P, seed, p, m.data(), a, b);
                    run(o, r, a, b, m.data(), mp, r2.data(), chain);
                    fixed_ref((mpgpu_fixed_op)o, P, chain, a, b, m.data(), expect);
                    const unsigned rw = fixed_r_words(o, N);
                    CHECK(!memcmp(r, expect, rw * 4), "%s %s --chain %llu element %llu", where,
                          fixed_op_names[op], (unsigned long long)chain, (unsigned long long)p);
                }
            }
        }
    }

    // montmul(r, a, b, m, mp) and powm(r, x, e, m, mp, r2), on words, of a path that has those
    // two alone (fp64, hybrid), against GMP and montmul against the IMAD path's host twin: every
    // operand below m and all ones of n words (below R, as montmul's first operand may be) times
    // every one below m, and powm on every third with exponents 0, 1, all ones of n words and a
    // random one. operand(a) runs once for each first operand, for a path's own checks of it.
    template <class Montmul, class Powm, class Operand>
    void check_montgomery_modulus(const Num &mw, Montmul montmul, Powm powm, Operand operand)
    {
        mpz_t m, x, y, s, rinv, R;
        gmp_modulus(m, R, rinv, mw);
        mpz_inits(x, y, s, NULL);
        const uint32_t mp = fixed::mont_neg_inv(mw[0]);
        Num r2(N);
        fixed_r2(N, mw.data(), r2.data());
        std::vector<Num> v = below(m);
        v.push_back(Num(N, ~0u));
        for (const Num &a : v) {
            operand(a);
            to_mpz(x, a);
            for (size_t k = 0; k + 1 < v.size(); k++) { // b below m
                const Num &b = v[k];
                uint32_t r[N], imad[N];
                montmul(r, a.data(), b.data(), mw.data(), mp);
                to_mpz(y, b);
                mpz_mul(s, x, y);
                mpz_mul(s, s, rinv);
                mpz_mod(s, s, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s montmul", where);
                fixed::montmul<N, Impl::c>(imad, a.data(), b.data(), mw.data(), mp);
                CHECK(!memcmp(r, imad, sizeof r), "%s montmul as the IMAD path's", where);
            }
        }
        Num one(N, 0);
        one[0] = 1;
        const std::vector<Num> exps = {Num(N, 0), one, Num(N, ~0u), random_num(stream_counter++, N, P)};
        for (size_t i = 0; i < v.size(); i += 3)
            for (const Num &e : exps) {
                uint32_t r[N];
                powm(r, v[i].data(), e.data(), mw.data(), mp, r2.data());
                to_mpz(x, v[i]);
                to_mpz(y, e);
                mpz_powm(s, x, y, m);
                CHECK(Num(r, r + N) == from_mpz(s, N), "%s powm", where);
            }
        mpz_clears(m, x, y, s, rinv, R, NULL);
    }

    // --chain of montmul and powm, as run(o, r, a, b, m, mp, r2, chain) runs it (the fp64 and
    // hybrid paths, which have those two alone), against the reference the command line checks
    // with.
    template <class Run> void check_montgomery_chain(Run run)
    {
        Num m = modulus_of(4), r2(N);
        fixed_r2(N, m.data(), r2.data());
        const uint32_t mp = fixed::mont_neg_inv(m[0]);
        for (uint64_t chain : {1, 2, 7})
            for (uint64_t p = 0; p < 3; p++)
                for (enum fixed_op o : {FIXED_MONTMUL, FIXED_POWM}) {
                    if (o == FIXED_POWM && chain > 2)
                        continue;
                    uint32_t a[N], b[N], r[N], expect[N];
                    fixed_random_operands((mpgpu_fixed_op)o, P, seed, p, m.data(), a, b);
                    run(o, r, a, b, m.data(), mp, r2.data(), chain);
                    fixed_ref((mpgpu_fixed_op)o, P, chain, a, b, m.data(), expect);
                    CHECK(!memcmp(r, expect, sizeof r), "%s %s --chain %llu element %llu", where,
                          fixed_op_names[o], (unsigned long long)chain, (unsigned long long)p);
                }
    }

    // The checks of a path that has montmul and powm alone: its primitive (first), every
    // modulus kind (modulus), its --chain (chain), and the count.
    template <class First, class Modulus, class Chain>
    void check_montgomery_all(First first, Modulus modulus, Chain chain)
    {
        const int before = checks, failed = failures;
        first();
        for (unsigned kind = 0; kind < 6; kind++)
            modulus(modulus_of(kind));
        chain();
        printf("%-24s %6d checks, %d failures\n", where, checks - before, failures - failed);
    }

    void run(enum fixed_op o, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
             uint32_t mp, const uint32_t *r2, uint64_t chain)
    {
        switch (o) {
        case FIXED_ADD: fixed::run_chain<P, FIXED_ADD, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_SUB: fixed::run_chain<P, FIXED_SUB, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_ADDM: fixed::run_chain<P, FIXED_ADDM, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_SUBM: fixed::run_chain<P, FIXED_SUBM, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_MUL: fixed::run_chain<P, FIXED_MUL, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_KARATSUBA: fixed::run_chain<P, FIXED_KARATSUBA, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_MONTRED: fixed::run_chain<P, FIXED_MONTRED, I>(r, a, b, m, mp, r2, chain); break;
        case FIXED_MONTMUL: fixed::run_chain<P, FIXED_MONTMUL, I>(r, a, b, m, mp, r2, chain); break;
        default: fixed::run_chain<P, FIXED_POWM, I>(r, a, b, m, mp, r2, chain); break;
        }
    }

    void check_all()
    {
        const int before = checks, failed = failures;
        check_add_sub();
        check_mul();
        for (unsigned kind = 0; kind < 6; kind++)
            check_modulus(modulus_of(kind));
        check_chain();
        printf("%-24s %6d checks, %d failures\n", where, checks - before, failures - failed);
    }
};

// --impl fp64 at P bits: its operands and moduli are those of the C path's checks.
template <int P> struct Fp64Precision : Precision<P, Impl::c> {
    using Base = Precision<P, Impl::c>;
    static constexpr int N = Base::N, L = fixed::fp64::limbs_of(N);
    using Limbs = double[L];

    Fp64Precision() { snprintf(this->where, sizeof this->where, "P=%d impl=fp64 (%d limbs)", P, L); }

    void load(Limbs &x, const Num &w) { fixed::fp64::load<N>(x, w.data()); }
    Num store(const Limbs &x)
    {
        Num w(N);
        fixed::fp64::store<N>(w.data(), x);
        return w;
    }

    // The halves of x y for limbs at their ends and random ones, against a 128-bit product.
    void check_product()
    {
        std::vector<uint64_t> v = {0, 1, 2, uint64_t(1) << 51, fixed::fp64::limb_mask - 1,
                                   fixed::fp64::limb_mask};
        for (int k = 0; k < 6; k++)
            v.push_back(splitmix64(seed + stream_counter++) & fixed::fp64::limb_mask);
        fixed::fp64::RoundTowardZero toward_zero;
        for (uint64_t x : v)
            for (uint64_t y : v) {
                const fixed::fp64::Halves h =
                    fixed::fp64::product(fixed::fp64::limb_double(x), fixed::fp64::limb_double(y));
                const unsigned __int128 xy = (unsigned __int128)x * y;
                CHECK(h.hi == (uint64_t)(xy >> 52) && h.lo == ((uint64_t)xy & fixed::fp64::limb_mask),
                      "%s halves of %llx * %llx", this->where, (unsigned long long)x,
                      (unsigned long long)y);
            }
    }

    void check_modulus(const Num &mw)
    {
        const char *where = this->where;
        fixed::fp64::Modulus<N> mod;
        fixed::fp64::modulus_set<N>(mod, mw.data());
        const uint64_t mp = fixed::fp64::limb_value(mod.mp);
        CHECK(((mp * mod.mw[0] + 1) & fixed::fp64::limb_mask) == 0, "%s -m^-1 mod 2^52", where);
        this->check_montgomery_modulus(
            mw,
            [&](uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *, uint32_t) {
                Limbs al, bl, rl;
                fixed::fp64::load<N>(al, a);
                fixed::fp64::load<N>(bl, b);
                fixed::fp64::montmul<N>(rl, al, bl, mod);
                fixed::fp64::store<N>(r, rl);
            },
            [&](uint32_t *r, const uint32_t *x, const uint32_t *e, const uint32_t *, uint32_t,
                const uint32_t *r2) {
                Limbs xl, r2l, rl;
                fixed::fp64::load<N>(xl, x);
                fixed::fp64::load<N>(r2l, r2);
                fixed::fp64::powm<N>(rl, xl, e, r2l, mod);
                fixed::fp64::store<N>(r, rl);
            },
            [&](const Num &a) {
                Limbs al;
                load(al, a);
                CHECK(store(al) == a, "%s words to limbs and back", where);
            });
    }

    void check_all()
    {
        const auto run = [](enum fixed_op o, uint32_t *r, const uint32_t *a, const uint32_t *b,
                            const uint32_t *m, uint32_t, const uint32_t *r2, uint64_t chain) {
            if (o == FIXED_MONTMUL)
                fixed::fp64::run_chain<P, FIXED_MONTMUL>(r, a, b, m, r2, chain);
            else
                fixed::fp64::run_chain<P, FIXED_POWM>(r, a, b, m, r2, chain);
        };
        this->check_montgomery_all([&] { check_product(); },
                                   [&](const Num &m) { check_modulus(m); },
                                   [&] { this->check_montgomery_chain(run); });
    }
};

// --impl hybrid at P bits: the IMAD path's montmul and powm with part of their word products
// on the FP64 pipe; its operands and moduli are those of the C path's checks.
template <int P> struct HybridPrecision : Precision<P, Impl::c> {
    using Base = Precision<P, Impl::c>;
    static constexpr int N = Base::N;

    HybridPrecision() { snprintf(this->where, sizeof this->where, "P=%d impl=hybrid", P); }

    // The halves of x y for words at their ends and random ones, against a 64-bit product.
    void check_word_product()
    {
        std::vector<uint32_t> v = {0, 1, 2, 1u << 31, ~0u - 1, ~0u};
        for (int k = 0; k < 6; k++)
            v.push_back((uint32_t)splitmix64(seed + stream_counter++));
        fixed::fp64::RoundTowardZero toward_zero;
        for (uint32_t x : v)
            for (uint32_t y : v) {
                const fixed::fp64::WordHalves h =
                    fixed::fp64::word_product(fixed::fp64::word_double(x), fixed::fp64::word_double(y));
                const uint64_t xy = (uint64_t)x * y;
                CHECK(h.hi == (uint32_t)(xy >> 32) && h.lo == (uint32_t)xy, "%s halves of %x * %x",
                      this->where, x, y);
            }
    }

    void check_modulus(const Num &mw)
    {
        this->check_montgomery_modulus(
            mw,
            [](uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m, uint32_t mp) {
                fixed::montmul<N, Impl::hybrid>(r, a, b, m, mp);
            },
            [](uint32_t *r, const uint32_t *x, const uint32_t *e, const uint32_t *m, uint32_t mp,
               const uint32_t *r2) { fixed::powm<N, Impl::hybrid>(r, x, e, m, mp, r2); },
            [](const Num &) {});
    }

    void check_all()
    {
        const auto run = [](enum fixed_op o, uint32_t *r, const uint32_t *a, const uint32_t *b,
                            const uint32_t *m, uint32_t mp, const uint32_t *r2, uint64_t chain) {
            if (o == FIXED_MONTMUL)
                fixed::run_chain<P, FIXED_MONTMUL, Impl::hybrid>(r, a, b, m, mp, r2, chain);
            else
                fixed::run_chain<P, FIXED_POWM, Impl::hybrid>(r, a, b, m, mp, r2, chain);
        };
        this->check_montgomery_all([&] { check_word_product(); },
                                   [&](const Num &m) { check_modulus(m); },
                                   [&] { this->check_montgomery_chain(run); });
    }
};

template <int... Ps> static void check_precisions()
{
    (Precision<Ps, Impl::ptx>().check_all(), ...);
    (Precision<Ps, Impl::c>().check_all(), ...);
}

template <int... Ps> static void check_fp64_precisions() { (Fp64Precision<Ps>().check_all(), ...); }
template <int... Ps> static void check_hybrid_precisions() { (HybridPrecision<Ps>().check_all(), ...); }

int main()
{
    seed = test_seed();
    check_precisions<MPGPU_FIXED_BITS>();
    check_fp64_precisions<MPGPU_FIXED_BITS, 1024>();
    check_hybrid_precisions<MPGPU_FIXED_BITS, 1024>();
    return test_finish("fixed_cpu");
}
