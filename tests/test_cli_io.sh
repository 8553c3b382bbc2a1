#!/usr/bin/env bash
# cpu suite: the input and output files of the command line (issue 36): --input read once (pipes,
# FIFOs, /dev/stdin), lines bounded and NUL bytes refused; --output opened up front, '-' for
# stdout, never the --input file, and whole or absent; failed writes to stdout and --csv said;
# options given by their whole names only; numbers as the messages print them.
source "$(dirname "$0")/cli_expect.sh" "$@"

GMP="--method gmp --reps 1 --warmup 0"

# --- --input is read once, so a pipe serves as a file does (it was read twice, and the second
# reading of a pipe found nothing: products of zeros).
checks=$((checks + 1))
printf '3 5\nff ff\n' | "$MPGPU" mul $GMP --input /dev/stdin --output "$tmp/pipe.txt" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 0 ] || [ "$(cat "$tmp/pipe.txt" 2>/dev/null)" != "$(printf 'f\nfe01')" ]; then
    echo "FAIL: mul --input /dev/stdin (a pipe): status $st, products:"
    sed 's/^/    /' "$tmp/pipe.txt" "$tmp/err"; fails=$((fails + 1))
fi
# '-' is stdin, as for --output and --csv (it was refused: "'-' cannot be opened").
for sub in "mul:f fe01" "gcd:1 ff"; do
    checks=$((checks + 1))
    want=$(printf '%s\n' ${sub#*:})
    printf '3 5\nff ff\n' | "$MPGPU" ${sub%%:*} $GMP --input - --output "$tmp/stdin.txt" >/dev/null 2>"$tmp/err"
    st=$?
    if [ $st -ne 0 ] || [ "$(cat "$tmp/stdin.txt" 2>/dev/null)" != "$want" ]; then
        echo "FAIL: ${sub%%:*} --input - (stdin): status $st, results:"
        sed 's/^/    /' "$tmp/stdin.txt" "$tmp/err"; fails=$((fails + 1))
    fi
done
checks=$((checks + 1))
printf '15\n21\n' | "$MPGPU" gcd --shared-factors - --output "$tmp/sf_stdin.txt" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 0 ] || ! grep -q '^1 shared,small 3 ' "$tmp/sf_stdin.txt"; then
    echo "FAIL: gcd --shared-factors - (stdin): status $st"; sed 's/^/    /' "$tmp/sf_stdin.txt" "$tmp/err"
    fails=$((fails + 1))
fi
checks=$((checks + 1))
"$MPGPU" mul $GMP --input <(printf '# a comment\n0x10 0x10\n') --output "$tmp/subst.txt" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 0 ] || [ "$(cat "$tmp/subst.txt" 2>/dev/null)" != 100 ]; then
    echo "FAIL: mul --input <(...): status $st, products:"
    sed 's/^/    /' "$tmp/subst.txt" "$tmp/err"; fails=$((fails + 1))
fi
mkfifo "$tmp/fifo"
checks=$((checks + 1))
printf '7 6\n' >"$tmp/fifo" &
"$MPGPU" gcd $GMP --input "$tmp/fifo" --output "$tmp/fifo_gcd.txt" >/dev/null 2>"$tmp/err"
st=$?
wait
if [ $st -ne 0 ] || [ "$(cat "$tmp/fifo_gcd.txt" 2>/dev/null)" != 1 ]; then
    echo "FAIL: gcd --input FIFO: status $st, GCDs:"
    sed 's/^/    /' "$tmp/fifo_gcd.txt" "$tmp/err"; fails=$((fails + 1))
fi
# fixed checks its operands before looking for a GPU: element 1 of a pipe is seen.
checks=$((checks + 1))
printf '1 2\nff 3\n' | "$MPGPU" fixed --bits 109 --op addm --modulus 0xb --input /dev/stdin >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 2 ] || ! grep -q "element 1: operand not below the modulus m" "$tmp/err"; then
    echo "FAIL: fixed --input /dev/stdin (a pipe): status $st (want 2):"
    sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi

# --- an option that takes no value, given one, is named (it printed "unknown option '-' and a
# byte of its id); every such option of every subcommand, found in the help.
for sub in mul toom tune collatz delay fixed ctt-vs-ctw gcd; do
    flags=$("$MPGPU" $sub --help | sed -n 's/^  --\([a-z0-9-]*\)\(  .*\)\{0,1\}$/\1/p')
    checks=$((checks + 1))
    if [ -z "$flags" ]; then
        echo "FAIL: mpgpu $sub --help lists no option without a value"; fails=$((fails + 1))
    fi
    for flag in $flags; do
        expect_fail 2 "$sub: option '--$flag' takes no value; see 'mpgpu $sub --help'" -- $sub "--$flag=1"
    done
done
expect_fail 2 "option '--quiet' takes no value" -- mul --quiet=
expect_fail 2 "unknown option '-x'" -- mul --quiet -xh

# --- options by their whole names only: getopt took --verif for --verify, and collatz, which
# looks --verify up by name, ran with its default instead.
expect_fail 2 "collatz: unknown option '--verif' (did you mean '--verify'?)" -- collatz --verif all --count 100
expect_fail 2 "mul: unknown option '--verif' (did you mean '--verify'?)" -- mul $GMP --bits 64 --count 4 --verif=none
expect_fail 2 "mul: unknown option '--dev'; see" -- mul $GMP --bits 64 --count 4 --dev 0
expect_fail 2 "mul: unknown option '--bi' (did you mean '--bits'?)" -- mul --bi
expect_fail 2 "gcd: unknown option '--al-primes' (did you mean '--all-primes'?)" -- gcd --al-primes
expect_fail 2 "option '--bits' needs a value" -- mul --bits
expect_ok "gmp" -- mul $GMP --bits=64 --count=4 --verify=all

# --- numbers in every notation alike: 2^64 written in hex ends the collatz range as 2^64 does
# (it was out of "2..2^64-1"), and 2^64-1, as the messages print bounds, is a number.
for sub in collatz delay; do
    expect_fail 2 "--count and --end both give the end of the range" -- $sub --method cpu --end 0x10000000000000000 --count 5
    expect_fail 2 "--count and --end both give the end of the range" -- $sub --method cpu --end 18446744073709551616 --count 5
    expect_fail 2 "--end 0x10000000000000001 is out of range; accepted: 2..2^64" -- $sub --end 0x10000000000000001
    expect_fail 2 "--end 10^20 is out of range; accepted: 2..2^64" -- $sub --end 10^20
done
expect_ok "gmp" -- mul $GMP --bits 64 --count 4 --seed 2^64-1
expect_ok "gmp" -- mul $GMP --bits 64 --count 10^1-1
expect_fail 2 "--seed 2^65-1 is out of range; accepted: 0..2^64-1" -- mul --seed 2^65-1
expect_fail 2 "--count '2^3-1-1' is not a number" -- mul --count 2^3-1-1
# --devices: an index past the last is out of range, however many digits it has.
expect_fail 2 "--devices '99999': 99999 is out of range; accepted: all, or a comma list of device indices 0..1023" -- mul --devices 99999
expect_fail 2 "--devices '0,00099999999999999999999': 00099999999999999999999 is out of range" -- mul --devices 0,00099999999999999999999
# A NUL byte in an input line is refused naming the line (the line was cut there, silently).
printf '3 5\n7 0\0009\n' >"$tmp/nul.txt"
expect_fail 2 "--input $tmp/nul.txt line 2 holds a NUL byte" -- mul $GMP --input "$tmp/nul.txt"
expect_fail 2 "--input /dev/zero line 1 holds a NUL byte" -- gcd $GMP --input /dev/zero
# A value of 100 kB is echoed as its first 64 characters and "...", the accepted range whole.
long=$(head -c 100000 /dev/zero | tr '\0' 7)
for args in "mul --count $long" "mul --method gmp,$long" "mul --devices $long" "mul --frob$long" \
            "gcd --barrier $long"; do
    checks=$((checks + 1))
    "$MPGPU" $args >/dev/null 2>"$tmp/err"
    st=$?
    if [ $st -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ "$(wc -c <"$tmp/err")" -gt 1000 ] ||
       ! grep -q '77\.\.\.' "$tmp/err"; then
        echo "FAIL: mpgpu ${args:0:24}... (100 kB): status $st (want 2), $(wc -c <"$tmp/err") bytes:"
        cut -c1-300 "$tmp/err" | sed 's/^/    /'; fails=$((fails + 1))
    fi
done
expect_fail 2 "--count 7777777777777777777777777777777777777777777777777777777777777777... is out of range; accepted: 1..2^40" -- mul --count $long
expect_ok "gmp" -- mul --method "gmp,$(printf 'gmp,%.0s' $(seq 40))gmp" --bits 64 --count 2 --reps 1

# --- input lines are bounded by the widest number a subcommand takes: gcd, like its --bits, takes
# 2^30 bits (a number of 2^32 bits was accepted and reported as 32 bits); a stream without a
# newline is refused once a line is longer than two such numbers (it grew without bound).
{ printf 'f'; head -c 268435456 /dev/zero | tr '\0' 0; printf ' 1\n'; } |
    "$MPGPU" gcd $GMP --input /dev/stdin >/dev/null 2>"$tmp/err"
st=$?
checks=$((checks + 1))
if [ $st -ne 2 ] || [ "$(cat "$tmp/err")" != "mpgpu: --input /dev/stdin line 1: a number of 1073741828 bits; accepted: at most 2^30 bits" ]; then
    echo "FAIL: gcd --input with a number of 2^30 + 4 bits: status $st (want 2):"
    cut -c1-200 "$tmp/err" | sed 's/^/    /'; fails=$((fails + 1))
fi
printf '1 2\n# 2^65536 next\n1%016384d 3\n' 0 >"$tmp/wide_mul.txt"
expect_fail 2 "--input $tmp/wide_mul.txt line 3: a number of 65537 bits; accepted: at most 65536 bits" -- mul $GMP --input "$tmp/wide_mul.txt"
checks=$((checks + 1))
tr '\0' 0 </dev/zero | "$MPGPU" mul $GMP --input /dev/stdin >/dev/null 2>"$tmp/err"
st=${PIPESTATUS[1]}
if [ $st -ne 2 ] || ! grep -q "^mpgpu: --input /dev/stdin line 1 has more than 32836 characters; accepted: 'HEX_A HEX_B' lines of two numbers of at most 65536 bits$" "$tmp/err"; then
    echo "FAIL: mul --input of zeros without a newline: status $st (want 2):"
    cut -c1-200 "$tmp/err" | sed 's/^/    /'; fails=$((fails + 1))
fi
printf '3 0x%032768d\n' 0 >"$tmp/zeros_ok.txt"
expect_ok "gmp" -- mul $GMP --input "$tmp/zeros_ok.txt"

# --- failed writes are said with their own reason, and the exit status says results were lost
one_line() { # NAME WANT_STATUS SUBSTRING: the last command's status and its one stderr line
    checks=$((checks + 1))
    if [ "$st" -ne "$2" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF -- "$3" "$tmp/err"; then
        echo "FAIL: $1: status $st (want $2), want one stderr line with '$3':"
        cut -c1-200 "$tmp/err" | sed 's/^/    /'; fails=$((fails + 1))
    fi
}
# --csv - on a full disk: refused before any work with the write's own error (the message named
# a stale errno, and the table came after it).
"$MPGPU" mul $GMP --bits 64 --count 4 --csv - >/dev/full 2>"$tmp/err"; st=$?
one_line "--csv - >/dev/full" 2 "mpgpu: --csv -: writing to stdout failed: No space left on device"
# The table to a closed stdout, a full one, or a pipe whose reader is gone (SIGPIPE ignored, as
# some launchers leave it): status 2 and one line, where it was status 0 and the table lost.
"$MPGPU" mul $GMP --bits 64 --count 4 2>"$tmp/err" >&-; st=$?
one_line "table >&-" 2 "writing to stdout failed: Bad file descriptor"
"$MPGPU" mul $GMP --bits 64 --count 4 2>"$tmp/err" >/dev/full; st=$?
one_line "table >/dev/full" 2 "writing to stdout failed: No space left on device"
(trap '' PIPE; "$MPGPU" mul $GMP --bits 65536 --count 2^10 2>"$tmp/err" | true; exit "${PIPESTATUS[0]}"); st=$?
one_line "table | (reader gone)" 2 "writing to stdout failed: Broken pipe"
# --output that fails when written at the end (a full disk) costs the file, not the measurement:
# the row is still printed and appended to --csv, and the status is 2 (the run exited at once,
# the row lost).
printf '15\n21\n35\n' >"$tmp/moduli3.txt"
for run in "mul $GMP --bits 64 --count 4" "gcd $GMP --bits 64 --count 4" "gcd --shared-factors $tmp/moduli3.txt"; do
    rm -f "$tmp/full.csv"
    # shellcheck disable=SC2086
    "$MPGPU" $run --output /dev/full --csv "$tmp/full.csv" >"$tmp/out" 2>"$tmp/err"; st=$?
    checks=$((checks + 1))
    if [ $st -ne 2 ] || ! grep -q "^mpgpu: --output '/dev/full': writing failed: No space left on device" "$tmp/err" ||
       [ "$(wc -l <"$tmp/full.csv")" -ne 2 ] || ! grep -q '^# 1 row(s)' "$tmp/out"; then
        echo "FAIL: $run --output /dev/full: status $st (want 2), the row kept:"
        sed 's/^/    /' "$tmp/err" "$tmp/out" "$tmp/full.csv"; fails=$((fails + 1))
    fi
done
# stdout's file named as an output (/dev/stdout, or its path): a second stream over the table's
# file wrote the one over the other (the table over the CSV's header); '-' is the way to stdout.
"$MPGPU" mul $GMP --bits 64 --count 2 --csv /dev/stdout >"$tmp/same.txt" 2>"$tmp/err"; st=$?
one_line "--csv /dev/stdout" 2 "--csv '/dev/stdout' is the file stdout writes to; accepted: - for stdout"
"$MPGPU" mul $GMP --bits 64 --count 2 --output "$tmp/same.txt" >>"$tmp/same.txt" 2>"$tmp/err"; st=$?
one_line "--output (stdout's file)" 2 "--output '$tmp/same.txt' is the file stdout writes to"
check "... and stdout's file left empty" [ ! -s "$tmp/same.txt" ]
# mpgpu ignores SIGPIPE itself (a reader gone killed it without a word, status 141, and the cases
# after went unrun), and stops at the first row it cannot write. The reader is gone for sure: a
# FIFO whose only reader is closed before mpgpu starts.
mkfifo "$tmp/gone"
exec 3<>"$tmp/gone" 4>"$tmp/gone"
exec 3<&-
"$MPGPU" mul $GMP --bits 64,128,192 --count 4 >&4 2>"$tmp/err"; st=$?
checks=$((checks + 1))
if [ $st -ne 2 ] || ! grep -q "the 2 later cases did not run" "$tmp/err" ||
   ! grep -q "writing to stdout failed: Broken pipe" "$tmp/err"; then
    echo "FAIL: table to a pipe whose reader is gone: status $st (want 2):"; sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi
"$MPGPU" mul $GMP --bits 64,128 --count 4 --csv - >&4 2>"$tmp/err"; st=$?
one_line "--csv - to a pipe whose reader is gone" 2 "mpgpu: --csv -: writing to stdout failed: Broken pipe"
exec 4>&-
"$MPGPU" mul $GMP --bits 64 --count 4 --quiet --csv "$tmp/quiet.csv" 2>"$tmp/err" >&-; st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || [ -s "$tmp/err" ] || [ "$(wc -l <"$tmp/quiet.csv")" -ne 2 ]; then
    echo "FAIL: --quiet --csv FILE with stdout closed: status $st, the CSV:"
    sed 's/^/    /' "$tmp/quiet.csv" "$tmp/err"; fails=$((fails + 1))
fi
# Rows appended to a CSV whose last line lacks its newline start a line of their own.
"$MPGPU" mul $GMP --bits 64 --count 4 --quiet --csv "$tmp/cut.csv" 2>"$tmp/err"
header=$(head -1 "$tmp/cut.csv")
truncate -s -1 "$tmp/cut.csv"
"$MPGPU" mul $GMP --bits 64 --count 4 --quiet --csv "$tmp/cut.csv" 2>"$tmp/err"; st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || [ "$(head -1 "$tmp/cut.csv")" != "$header" ] || [ "$(wc -l <"$tmp/cut.csv")" -ne 3 ] ||
   [ "$(grep -c '^20[0-9][0-9]-.*,mul,gmp,64,' "$tmp/cut.csv")" -ne 2 ]; then
    echo "FAIL: --csv appended to a file without a final newline:"
    sed 's/^/    /' "$tmp/cut.csv" "$tmp/err"; fails=$((fails + 1))
fi

# --- No output over another file of the run (path_claim), refused before any work: --output
# over the --input file or --csv's (both were overwritten, exit 0), --csv and another output on
# one file however spelt, an empty --output (it ran the whole job, then failed to rename).
printf '3 5\n' >"$tmp/in.txt"
ln -s in.txt "$tmp/in_link.txt"
for out in "$tmp/in.txt" "$tmp/in_link.txt"; do
    "$MPGPU" mul $GMP --input "$tmp/in.txt" --output "$out" >/dev/null 2>"$tmp/err"; st=$?
    one_line "mul --output (the --input file)" 2 "--output '$out' is the file of --input '$tmp/in.txt' too; accepted: a file that no other option names"
    "$MPGPU" gcd $GMP --output "$out" --input "$tmp/in_link.txt" >/dev/null 2>"$tmp/err"; st=$?
    one_line "gcd --input (the --output file)" 2 "--input '$tmp/in_link.txt' is the file of --output '$out' too"
done
check "--input survives" [ "$(cat "$tmp/in.txt")" = "3 5" ]
"$MPGPU" mul $GMP --bits 64 --count 2 --quiet --csv "$tmp/rows.csv" 2>"$tmp/err"
cp "$tmp/rows.csv" "$tmp/rows_before.csv"
"$MPGPU" mul $GMP --bits 64 --count 2 --csv "$tmp/rows.csv" --output "$tmp/rows.csv" >/dev/null 2>"$tmp/err"; st=$?
one_line "mul --output (the --csv file)" 2 "--output '$tmp/rows.csv' is the file of --csv '$tmp/rows.csv' too"
"$MPGPU" gcd $GMP --bits 64 --count 2 --output "$tmp/rows.csv" --csv "$tmp/rows.csv" >/dev/null 2>"$tmp/err"; st=$?
one_line "gcd --csv (the --output file)" 2 "--csv '$tmp/rows.csv' is the file of --output '$tmp/rows.csv' too"
"$MPGPU" mul $GMP --input "$tmp/rows.csv" --csv "$tmp/rows.csv" >/dev/null 2>"$tmp/err"; st=$?
one_line "mul --csv (the --input file)" 2 "--csv '$tmp/rows.csv' is the file of --input '$tmp/rows.csv' too"
check "--csv file survives" cmp -s "$tmp/rows.csv" "$tmp/rows_before.csv"
mkdir "$tmp/absent"
(cd "$tmp/absent" && "$MPGPU" mul $GMP --bits 64 --count 2 --csv ./new.csv --output ../absent/new.csv) >/dev/null 2>"$tmp/err"; st=$?
one_line "--csv and --output on one new file, spelt two ways" 2 "--output '../absent/new.csv' is the file of --csv './new.csv' too"
check "... and nothing made" [ -z "$(ls -A "$tmp/absent")" ]
# An option of one value given twice is refused (the last won: --csv a.csv --csv b.csv wrote no
# a.csv), as the second --csv is here, before the --output that claims a.csv.
"$MPGPU" mul $GMP --bits 64 --count 2 --csv "$tmp/a.csv" --csv "$tmp/b.csv" --output "$tmp/a.csv" >/dev/null 2>"$tmp/err"; st=$?
one_line "--csv given twice" 2 "--csv given twice ('$tmp/a.csv', then '$tmp/b.csv'); accepted: once"
ln -s made.txt "$tmp/to_made.txt"
"$MPGPU" mul $GMP --input "$tmp/in.txt" --output "$tmp/to_made.txt" >/dev/null 2>"$tmp/err"; st=$?
made=false
[ "$st" -eq 0 ] && [ -L "$tmp/to_made.txt" ] && [ "$(cat "$tmp/made.txt")" = f ] && made=true
check "--output LINK to a file not made yet: the link stays, its target gets the products" $made
"$MPGPU" mul $GMP --bits 64 --count 2 --csv /dev/null --output /dev/null >/dev/null 2>"$tmp/err"; st=$?
check "/dev/null takes --csv and --output both" [ "$st" -eq 0 ]
for sub in "mul $GMP --bits 64 --count 2" "gcd $GMP --bits 64 --count 2" "gcd --make-moduli 4 --bits 64"; do
    "$MPGPU" $sub --output '' >/dev/null 2>"$tmp/err"; st=$?
    one_line "$sub --output ''" 2 "--output '' is not accepted: it is empty; accepted: the path of a file"
done
expect_fail 2 "--output '$tmp' is a directory" -- mul $GMP --bits 64 --count 2 --output "$tmp"
# '-' is stdout (it made a file named '-'), holding the results alone: the table goes to stderr.
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$MPGPU" mul $GMP --input "$tmp/in.txt" --output - >"$tmp/out" 2>"$tmp/err"); st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || [ "$(cat "$tmp/out")" != f ] || [ -e "$tmp/cwd/-" ] || ! grep -q '^gmp ' "$tmp/err"; then
    echo "FAIL: mul --output -: status $st, stdout:"; sed 's/^/    /' "$tmp/out" "$tmp/err"; fails=$((fails + 1))
fi
(cd "$tmp/cwd" && "$MPGPU" gcd $GMP --input "$tmp/in.txt" --output - >"$tmp/out" 2>"$tmp/err"); st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || [ "$(cat "$tmp/out")" != 1 ] || [ -e "$tmp/cwd/-" ] || ! grep -q '^gmp ' "$tmp/err"; then
    echo "FAIL: gcd --output -: status $st, stdout:"; sed 's/^/    /' "$tmp/out" "$tmp/err"; fails=$((fails + 1))
fi
expect_fail 2 "--output - and --csv - both write to stdout" -- mul $GMP --bits 64 --count 2 --output - --csv -
# Written whole or not at all: a run stopped by bad input after --output was opened (here the
# --csv) leaves no file, and a run stopped by Ctrl-C says so and leaves the old file as it was
# (both left an empty file, the second with a message that no method matched GMP).
"$MPGPU" mul $GMP --bits 64 --count 2 --output "$tmp/none.txt" --csv /nonexistent/dir/r.csv 2>"$tmp/err"; st=$?
one_line "--output with an unwritable --csv" 2 "--csv '/nonexistent/dir/r.csv' cannot be opened"
check "no --output file after bad input" [ -z "$(ls "$tmp" | grep none.txt)" ]
echo old >"$tmp/old.txt"
"$MPGPU" mul --method gmp --bits 65536 --count 2^12 --reps 200 --output "$tmp/old.txt" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid; st=$?
checks=$((checks + 1))
if [ $st -ne 130 ] || ! grep -q "^mpgpu: --output '$tmp/old.txt' not written: interrupted" "$tmp/err" ||
   [ "$(cat "$tmp/old.txt")" != old ] || [ "$(ls "$tmp" | grep -c old.txt)" -ne 1 ]; then
    echo "FAIL: mul --output interrupted: status $st (want 130), files: $(ls "$tmp" | grep old.txt)"
    sed 's/^/    /' "$tmp/err" "$tmp/old.txt"; fails=$((fails + 1))
fi
# SIGTERM (timeout, a batch system's time limit) is taken as Ctrl-C: the run stops at the next
# step, says so, and leaves the old file. A second signal ends it at once and removes the
# temporary file of --output (it stayed behind, as FILE.partial-XXXXXX); --json's document
# holds what was written before.
for signals in TERM INT,INT TERM,TERM; do
    "$MPGPU" mul --method gmp --bits 65536 --count 2^12 --reps 200 --output "$tmp/old.txt" \
        --json "$tmp/sig.json" >/dev/null 2>"$tmp/err" &
    pid=$!
    sleep 2
    first=1
    for sig in ${signals//,/ }; do
        [ $first = 1 ] || sleep 0.2
        first=0
        kill -"$sig" $pid
    done
    wait $pid; st=$?
    checks=$((checks + 1))
    if [ $st -ne 130 ] || [ "$(cat "$tmp/old.txt")" != old ] || ls "$tmp" | grep -q partial ||
       ! grep -q '"command"' "$tmp/sig.json" ||
       { [ "$signals" = TERM ] && ! grep -q "^mpgpu: interrupted by SIGTERM; finishing the current step" "$tmp/err"; }; then
        echo "FAIL: mul --output, kill -${signals//,/ then -}: status $st (want 130), files: $(ls "$tmp" | tr "\n" " ")"
        sed 's/^/    /' "$tmp/err" "$tmp/old.txt"; fails=$((fails + 1))
    fi
done
# One request sent twice at once by one sender is one Ctrl-C: GNU timeout signals mpgpu and then
# its process group, and the second signal aborted the run (no closing line, no checkpoint saved;
# 3 of 8 runs under timeout), as two kills from one shell back to back did.
"$MPGPU" mul --method gmp --bits 65536 --count 2^12 --reps 200 >/dev/null 2>"$tmp/err" &
pid=$!
sleep 2
kill -TERM $pid; kill -TERM $pid
wait $pid; st=$?
checks=$((checks + 1))
if [ $st -ne 130 ] || ! grep -q "interrupted; the rows above are complete" "$tmp/err"; then
    echo "FAIL: kill -TERM twice at once: status $st (want 130, a clean stop):"; sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi
timeout --preserve-status -s TERM 2 "$MPGPU" mul --method gmp --bits 65536 --count 2^12 --reps 200 \
    >/dev/null 2>"$tmp/err"; st=$?
checks=$((checks + 1))
if [ $st -ne 130 ] || ! grep -q "interrupted; the rows above are complete" "$tmp/err"; then
    echo "FAIL: timeout -s TERM: status $st (want 130, a clean stop):"; sed 's/^/    /' "$tmp/err"
    fails=$((fails + 1))
fi
# A finished run replaces the file, keeping its mode, through a symbolic link to it.
chmod 640 "$tmp/old.txt"
ln -s old.txt "$tmp/old_link.txt"
"$MPGPU" mul $GMP --input "$tmp/in.txt" --output "$tmp/old_link.txt" >/dev/null 2>"$tmp/err"; st=$?
checks=$((checks + 1))
if [ $st -ne 0 ] || [ "$(cat "$tmp/old.txt")" != f ] || [ ! -L "$tmp/old_link.txt" ] ||
   [ "$(stat -c %a "$tmp/old.txt")" != 640 ] || [ "$(ls "$tmp" | grep -c old)" -ne 2 ]; then
    echo "FAIL: mul --output through a link: status $st, $(ls -l "$tmp" | grep old)"
    sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi

finish cli_io
