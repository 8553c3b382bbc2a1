#!/usr/bin/env bash
# cpu suite: the command line of `mpgpu gcd` (002, Weber and Brew). Bad input gets exit status 2
# and one line on stderr naming the offending value (non-hex and negative input, sizes beyond
# the moduli, L out of range, ...); the GMP baseline, the I/O mode (zeros follow GMP) and the CSV
# row are checked without a GPU, with the small L = 16 moduli.
source "$(dirname "$0")/cli_expect.sh" "$@"
export MPGPU_CACHE="$tmp/cache"

GMP="--method gmp --reps 1 --warmup 0"

# --- help names every option
expect_ok "gcd" -- --help
for opt in --gcd-bits --barrier --inverse --per-thread --remainder --L --all-primes --input --output --count --bits --method --reps --warmup \
           --seed --device --csv --verify --include-transfers --quiet; do
    expect_ok "$opt" -- gcd --help
done

# --- bad options
expect_fail 2 "--L 15 is out of range; accepted: 16..32" -- gcd --L 15
expect_fail 2 "--L 33 is out of range; accepted: 16..32" -- gcd --L 33
expect_fail 2 "--L 'x' is not a number" -- gcd --L x
expect_fail 2 "unknown method 'fpga'; accepted: gpu, kary, lehmer, bulk-lehmer, bulk-binary, auto, gmp, all" -- gcd --method fpga
# The bulk methods (issue 38): numbers of up to 8192 bits, refused beyond before any work.
expect_fail 2 "--bits 8193: the bulk methods take numbers of up to 8192 bits (one pair a GPU thread); accepted: 1..8192" -- gcd --method bulk-lehmer --bits 8193
expect_fail 2 "--bits 16384: the bulk methods take numbers of up to 8192 bits" -- gcd --method gmp,bulk-binary --bits 1024,16384
expect_fail 2 "--method 'gpu,,gmp' is not accepted: it has an empty item" -- gcd --method gpu,,gmp
expect_fail 2 "--barrier 'mutex' is not accepted; accepted: coop, cluster, custom, all, auto (a comma list)" -- gcd --barrier mutex
expect_fail 2 "--inverse 'newton' is not accepted; accepted: euclid, fermat, all (a comma list)" -- gcd --inverse newton
expect_fail 2 "--per-thread 3: accepted: auto, 1, 2, 4, 8" -- gcd --per-thread 3
expect_fail 2 "--per-thread 16" -- gcd --per-thread 16
expect_fail 2 "--remainder 'barrett' is not accepted; accepted: fast, mod" -- gcd --remainder barrett
expect_fail 2 "--barrier 'coop,' is not accepted: it has an empty item" -- gcd --barrier coop,
expect_fail 2 "--gcd-bits 2000 exceeds --bits 1024; accepted: 0..1024" -- gcd $GMP --bits 1024 --gcd-bits 2000
expect_fail 2 "--gcd-bits 'lots' is not a number" -- gcd --gcd-bits lots
expect_fail 2 "--bits 0 is out of range" -- gcd --bits 0
expect_fail 2 "--threads" -- gcd --threads 2
expect_fail 2 "--output writes the GCDs of one size" -- gcd $GMP --bits 64,128 --output "$tmp/o.txt"

# --- sizes beyond the moduli: named with the limit (checked before any GPU is looked for)
expect_fail 2 "--bits 100000 needs 27200 moduli (002 Fig. 2 line 2); the 16-bit cheap primes are" -- gcd --L 16 --bits 100000
expect_fail 2 "accepted: 1..5809" -- gcd --L 16 --bits 6000 --count 1
expect_fail 2 "the 16-bit all primes are 3030" -- gcd --L 16 --all-primes --bits 10000

# --- input files
printf '1f 0x2e\nzz 5\n' >"$tmp/nonhex.txt"
expect_fail 2 "--input $tmp/nonhex.txt line 2: 'zz' is not a hexadecimal number" -- gcd $GMP --input "$tmp/nonhex.txt"
printf '1f -2e\n' >"$tmp/neg.txt"
expect_fail 2 "line 1: '-2e' is negative; accepted: hexadecimal numbers >= 0" -- gcd $GMP --input "$tmp/neg.txt"
printf '1f\n' >"$tmp/one.txt"
expect_fail 2 "line 1: expected two hexadecimal numbers" -- gcd $GMP --input "$tmp/one.txt"
printf '1f 2 3\n' >"$tmp/three.txt"
expect_fail 2 "line 1: expected two hexadecimal numbers" -- gcd $GMP --input "$tmp/three.txt"
printf '0x\t5\n' >"$tmp/bare0x.txt"
expect_fail 2 "'0x' is not a hexadecimal number" -- gcd $GMP --input "$tmp/bare0x.txt"
printf '# nothing\n\n' >"$tmp/empty.txt"
expect_fail 2 "holds no pairs" -- gcd $GMP --input "$tmp/empty.txt"
expect_fail 2 "cannot be opened for reading: No such file or directory" -- gcd $GMP --input "$tmp/missing.txt"
expect_fail 2 "is a directory" -- gcd $GMP --input "$tmp"
printf '5 7\n' >"$tmp/ok.txt"
expect_fail 2 "--input sets the size from its pairs; drop --bits" -- gcd $GMP --input "$tmp/ok.txt" --bits 64
expect_fail 2 "--gcd-bits plants factors in random pairs" -- gcd $GMP --input "$tmp/ok.txt" --gcd-bits 3
expect_fail 2 "--count 3 differs from the 1 pairs" -- gcd $GMP --input "$tmp/ok.txt" --count 3
printf '1%01501d 3\n' 0 >"$tmp/wide.txt"
expect_fail 2 "--input $tmp/wide.txt: a number of 6005 bits needs" -- gcd --L 16 --input "$tmp/wide.txt"
printf '1%02050d 3\n' 0 >"$tmp/wider.txt"
expect_fail 2 "--input $tmp/wider.txt: a number of 8201 bits is past the bulk methods' 8192 bits (one pair a GPU thread); accepted: numbers of 1..8192 bits" -- gcd --method bulk-lehmer --input "$tmp/wider.txt"

# --- the I/O mode with GMP: zeros follow mpz_gcd, and every line is answered in order
printf '# u v\n0x1c 8\n\n0 0\n0 ff\nFF 0\n%s %s\n' \
    "$(printf 'f%.0s' {1..300})" "$(printf 'f%.0s' {1..100})" >"$tmp/pairs.txt"
printf '4\n0\nff\nff\n%s\n' "$(printf 'f%.0s' {1..100})" >"$tmp/want.txt"
expect_ok "reference" -- gcd $GMP --input "$tmp/pairs.txt" --output "$tmp/got.txt"
check "--output holds mpz_gcd of each pair, in order" cmp -s "$tmp/want.txt" "$tmp/got.txt"

# --- random pairs with a planted factor: the GMP baseline's row, in the CSV schema
csv="$tmp/g.csv"
"$MPGPU" gcd $GMP --bits 1024,2048 --count 4 --gcd-bits 64 --csv "$csv" --quiet 2>"$tmp/err"
check "CSV has a header and a gmp row per size" \
    awk -F, 'NR == 1 { ok = $12 == "subcommand" && $13 == "method" && $14 == "bits" }
             NR > 1 { ok = ok && $12 == "gcd" && $13 == "gmp" && $16 == 4 && $26 == "gcds" }
             END { exit !(ok && NR == 3) }' "$csv"

# --- the moduli cache is sieved only for a modular GPU method that runs: test_cli_gcd_gpu.sh
# checks it; test_cli_gcd_faults.sh checks that nothing is sieved here.

finish test_cli_gcd
