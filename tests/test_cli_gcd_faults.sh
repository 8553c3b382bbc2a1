#!/usr/bin/env bash
# cpu suite: faults of `mpgpu gcd` and `mpgpu tune` found by a new user (issue 36, part 2), each
# shown without a GPU. Bad input (a run larger than the host's memory, an output that cannot be
# written, an unusable $MPGPU_CACHE) gets exit 2 and one line before any work, and before "no
# GPU" (exit 3); gcd sieves its moduli only for a modular GPU method that runs, and never
# writes a cache into the current folder. A GPU host runs the checks that need one instead of
# those that need none.
source "$(dirname "$0")/cli_expect.sh" "$@"
# Absolute, as some checks run from another folder.
MPGPU=$(cd "$(dirname "$MPGPU")" && pwd)/$(basename "$MPGPU")
export MPGPU_CACHE="$tmp/cache"
GMP="--method gmp --reps 1 --warmup 0"
ONE="--L 16 --bits 64 --count 1 --reps 1 --warmup 0"

"$MPGPU" gcd --method lehmer --bits 64 --count 1 --reps 1 --warmup 0 --quiet 2>"$tmp/err"
if [ $? -eq 3 ] && grep -q "no CUDA-capable GPU" "$tmp/err"; then
    gpu=no
else
    gpu=yes
fi

# fresh_cache: an empty $MPGPU_CACHE of its own for the next command; no_moduli NAME: nothing
# was sieved into it.
caches=0
fresh_cache() {
    caches=$((caches + 1))
    export MPGPU_CACHE="$tmp/cache$caches"
}
no_moduli() {
    check "$1: no moduli sieved" test -z "$(ls -A "$MPGPU_CACHE" 2>/dev/null | grep gcd_moduli)"
}

# --- 2. host memory, checked before any pair is made. The sizes are beyond any host, so the
# refusal does not depend on this one; the limit on virtual memory stops a regression that
# generates the pairs before it eats the machine.
printf '#!/bin/sh\nulimit -v 4000000\nexec "%s" "$@"\n' "$MPGPU" >"$tmp/limited"
chmod +x "$tmp/limited"
real=$MPGPU
MPGPU="$tmp/limited"
expect_fail 2 "mpgpu: gcd --bits 1073741824 --count 65536 needs 16385.01 GiB (17593269223552 bytes) of host memory; " -- \
    gcd $GMP --bits 2^30 --count 2^16
expect_fail 2 "are available; lower --count or --bits" -- gcd $GMP --bits 64 --count 2^34
# Lehmer's method needs no moduli: the memory is refused before the GPU is looked for.
expect_fail 2 "gcd --bits 1048576 --count 1073741824 needs" -- gcd --method lehmer --bits 2^20 --count 2^30
MPGPU=$real
expect_ok "gmp" -- gcd $GMP --bits 64 --count 1000

# --- 3. tune opens --table before it measures, fixed and tune open --csv before "no GPU"
expect_fail 2 "--table '$tmp/missing/t.csv' cannot be opened for writing: No such file or directory" -- \
    tune --bits 64 --reps 1 --table "$tmp/missing/t.csv"
MPGPU_TUNE_TABLE="$tmp" expect_fail 2 "MPGPU_TUNE_TABLE '$tmp' cannot be opened for writing: Is a directory" -- \
    tune --bits 64 --reps 1
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
MPGPU_TUNE_TABLE= expect_fail 2 "the default table 'results/tune_table.csv' (relative to the current folder) cannot be opened" -- \
    tune --bits 64 --reps 1
cd - >/dev/null
expect_fail 2 "--csv '$tmp/missing/x.csv' cannot be opened for appending" -- tune --bits 64 --reps 1 --table "$tmp/t.csv" --csv "$tmp/missing/x.csv"
expect_fail 2 "--csv '$tmp/missing/x.csv' cannot be opened for appending" -- fixed --csv "$tmp/missing/x.csv"
if [ $gpu = no ]; then
    # The check leaves a table that was there as it was, and makes none that was not.
    echo "a table" >"$tmp/old.csv"
    expect_fail 3 "tune measures the GPU" -- tune --bits 64 --reps 1 --table "$tmp/old.csv"
    check "--table: an existing table is left as it was" grep -qx "a table" "$tmp/old.csv"
    expect_fail 3 "tune measures the GPU" -- tune --bits 64 --reps 1 --table "$tmp/new.csv"
    check "--table: no file is left where there was none" test ! -e "$tmp/new.csv"
fi

# --- 5. gcd opens its outputs before the moduli are sieved, and sieves them only for a
# modular GPU method that runs
fresh_cache
expect_fail 2 "--output '$tmp/missing/o.txt' cannot be opened for writing" -- gcd $ONE --output "$tmp/missing/o.txt"
no_moduli "bad --output"
fresh_cache
expect_fail 2 "--csv '$tmp/missing/x.csv' cannot be opened for appending" -- gcd $ONE --csv "$tmp/missing/x.csv"
no_moduli "bad --csv"
fresh_cache
expect_fail 2 "--output '$tmp/missing/o.txt' cannot be opened for writing" -- gcd --method gpu $ONE --output "$tmp/missing/o.txt"
no_moduli "--method gpu, bad --output"
fresh_cache
expect_fail 2 "--bits 100000 needs 27200 moduli" -- gcd --L 16 --bits 100000
no_moduli "a size beyond the moduli"
fresh_cache
expect_ok "gmp" -- gcd $GMP --bits 64 --count 1
no_moduli "--method gmp"
# The GPU methods' options with GMP alone are refused (they were taken and dropped).
for opt in "--L 16" "--barrier coop" "--include-transfers" "--device 0"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method gmp, which runs no GPU method" -- gcd $GMP $opt --bits 64 --count 1
done
no_moduli "--method gmp --L 16"
# The modular methods' options with Lehmer's, the bulk ones or auto alone (they work on the
# numbers themselves): refused before "no GPU" (they were taken and dropped).
for m in lehmer bulk-lehmer,bulk-binary auto; do
    for opt in "--barrier coop" "--inverse euclid" "--per-thread 8" "--remainder mod" "--L 16" "--all-primes"; do
        # shellcheck disable=SC2086
        expect_fail 2 "${opt%% *} is not accepted with --method $m, which use" -- gcd --method $m $opt --bits 64 --count 1
    done
done
# A method named twice is named once in the message, which counts the methods by their names.
expect_fail 2 "--barrier is not accepted with --method lehmer, which uses no moduli" -- \
    gcd --method lehmer,lehmer --barrier coop --bits 64 --count 1
expect_fail 2 "--barrier is not accepted with --method lehmer,bulk-lehmer, which use no moduli" -- \
    gcd --method lehmer,bulk-lehmer,lehmer --barrier coop --bits 64 --count 1
for opt in "--barrier coop" "--inverse euclid" "--per-thread 8" "--remainder mod"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method kary without gpu, whose k-ary steps" -- \
        gcd --method kary,lehmer $opt --bits 64 --count 1
done
# --device goes with the searches' GPU methods, not with tree-cpu or --make-moduli (it was
# refused for tree-gpu and pairs-gpu too, where it chooses the GPU).
printf '15\n21\n' >"$tmp/moduli.txt"
expect_fail 2 "--device is not accepted with --shared-factors --method tree-cpu, which runs no GPU method" -- \
    gcd --shared-factors "$tmp/moduli.txt" --device 0
expect_fail 2 "--device is not accepted with --make-moduli" -- gcd --make-moduli 4 --device 0 --output "$tmp/made.txt"
expect_fail 2 "--include-launch is not accepted with --shared-factors" -- \
    gcd --shared-factors "$tmp/moduli.txt" --include-launch
if [ $gpu = no ]; then
    for m in tree-gpu pairs-gpu; do
        expect_fail 3 "no CUDA-capable GPU" -- gcd --shared-factors "$tmp/moduli.txt" --method $m --device 0
    done
fi
for opt in "--include-launch" "--batch 10" "--device 0"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --method gmp, which runs no GPU method" -- mul --method gmp $opt --count 4
done
if [ $gpu = no ]; then
    fresh_cache
    expect_ok "gmp" -- gcd $ONE
    no_moduli "no GPU"
    check "no GPU: no moduli reported" test -z "$(grep "gcd moduli" "$tmp/err")"
fi

# --- 11. the moduli cache: never in the current folder; an $MPGPU_CACHE that cannot hold it is
# refused up front; one that cannot be written is not said to hold the moduli
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && unset HOME XDG_CACHE_HOME MPGPU_CACHE && "$MPGPU" gcd $ONE >/dev/null 2>"$tmp/err")
check "HOME unset: the run succeeds" test $? -eq 0
check "HOME unset: nothing is written into the current folder" test -z "$(ls -A "$tmp/cwd")"
if [ $gpu = yes ]; then
    check "HOME unset: says nothing is cached" grep -qF 'none of $MPGPU_CACHE, $XDG_CACHE_HOME and $HOME is set' "$tmp/err"
    check "HOME unset: sieved, not cached" grep -qF "sieved (not cached)" "$tmp/err"
    touch "$tmp/a_file"
    MPGPU_CACHE= XDG_CACHE_HOME="$tmp/a_file" "$MPGPU" gcd $ONE >/dev/null 2>"$tmp/err"
    check "unwritable \$XDG_CACHE_HOME: says why nothing is cached" \
        grep -qF "the folder $tmp/a_file/mpgpu (\$XDG_CACHE_HOME) cannot be created (Not a directory)" "$tmp/err"
    check "unwritable \$XDG_CACHE_HOME: sieved, not cached" grep -qF "sieved (not cached)" "$tmp/err"
fi
touch "$tmp/a_file"
MPGPU_CACHE="$tmp/a_file/cache" expect_fail 2 \
    "MPGPU_CACHE '$tmp/a_file/cache' cannot hold the moduli cache: it cannot be created (Not a directory); accepted: a folder that can be created and written, or one that holds gcd_moduli_L16_cheap.bin" -- \
    gcd $ONE
MPGPU_CACHE="$tmp/a_file/cache" expect_ok "gmp" -- gcd $GMP --bits 64 --count 1

finish test_cli_gcd_faults
