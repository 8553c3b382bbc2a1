#!/usr/bin/env bash
# cpu suite: `mpgpu gcd --make-moduli` and `mpgpu gcd --shared-factors` (issue 38): every
# planted relation of a made set found and nothing else, in the --output format of
# docs/shared-factors.md (each GCD times its cofactor is the modulus of its line), the readable
# report and the --csv row; every bad input refused with one line and exit 2 before any work;
# Ctrl-C stops the search with exit 130 and leaves no --output file.
source "$(dirname "$0")/cli_expect.sh" "$@"
SEED=${MPGPU_TEST_SEED:-5}

# --- a set with every plant, searched
expect_ok "planted both: lines" -- gcd --make-moduli 300 --bits 256 --plant all --seed "$SEED" \
    --output "$tmp/m.txt"
cp "$tmp/out" "$tmp/planted"
check "300 moduli and 6 comment lines written" [ "$(grep -vc '^#' "$tmp/m.txt")" -eq 300 ]
# Every core by default; the set is the seed's whatever the thread count.
expect_ok "planted both: lines" -- gcd --make-moduli 300 --bits 256 --plant all --seed "$SEED" \
    --threads 1 --output "$tmp/m1.txt"
check "--make-moduli: the same set on 1 thread as on every core" cmp -s "$tmp/m.txt" "$tmp/m1.txt"
# --quiet prints nothing: what was planted is in the file (it went to stdout as well).
"$MPGPU" gcd --make-moduli 20 --bits 128 --plant all --output "$tmp/mq.txt" --quiet >"$tmp/out" 2>&1
check "--make-moduli --quiet: silent, the plants in the file" test ! -s "$tmp/out" -a "$(grep -c '^# planted' "$tmp/mq.txt")" -eq 4
expect_ok "9 of 300 moduli share a factor" -- gcd --shared-factors "$tmp/m.txt" \
    --output "$tmp/found.txt" --csv "$tmp/sf.csv"
report=$(cp "$tmp/out" "$tmp/report"; echo "$tmp/report")
found=$(grep -v '^#' "$tmp/found.txt")
check "9 findings in --output" [ "$(echo "$found" | wc -l)" -eq 9 ]
# kind_of LINE: the KINDS field of the finding of that line.
kind_of() { echo "$found" | awk -v l="$1" '$1 == l { print $2 }'; }
planted() { grep "^planted $1:" "$tmp/planted" | sed 's/.*lines //'; }
for l in $(planted shared); do check "planted shared line $l reported shared" [ "$(kind_of "$l")" = shared ]; done
for l in $(planted duplicate); do check "planted duplicate line $l reported" [ "$(kind_of "$l")" = duplicate ]; done
set -- $(planted both)
check "planted both: line $1 reported both" [ "$(kind_of "$1")" = both ]
check "planted both: line $2 reported shared" [ "$(kind_of "$2")" = shared ]
check "planted both: line $3 reported shared" [ "$(kind_of "$3")" = shared ]
check "planted both: line $1 has two shares" [ "$(echo "$found" | awk -v l="$1" '$1 == l { print NF }')" -eq 7 ]
small=$(planted small)
check "planted small line $small reported small" [ "$(kind_of "$small")" = small ]
check "planted small line $small: its prime named" \
    [ "$(echo "$found" | awk -v l="$small" '$1 == l { print ($5 > 49151 && $5 < 65536) }')" = 1 ]
# Each finding's GCD times its cofactor is the modulus of its line (bc takes upper-case hex).
if command -v bc >/dev/null; then
    while read -r line kinds g cof rest; do
        n=$(sed -n "${line}p" "$tmp/m.txt" | tr a-f A-F)
        prod=$(echo "obase=16; ibase=16; $(echo "$g" | tr a-f A-F) * $(echo "$cof" | tr a-f A-F)" | BC_LINE_LENGTH=0 bc)
        check "line $line: GCD times cofactor is the modulus" [ "$prod" = "$n" ]
    done <<<"$found"
fi
check "the report names the duplicate" grep -q "^# line $(planted duplicate | cut -d' ' -f1): duplicate" "$report"
check "the report says all were checked" grep -q "result(s) checked, all equal to the reference" "$report"
check "the csv row: gcd tree-cpu, 300 moduli of 256 bits, one search, 309 checked" \
    grep -qE ",gcd,tree-cpu,256,[^,]*found=9;[^,]*,300,1,0,0,[0-9]+,cpu,.*,moduli,all,309,0," "$tmp/sf.csv"

# --- worst cases: no relation; all moduli sharing one prime (made from the plants' output)
expect_ok "40 moduli of 128 bits" -- gcd --make-moduli 40 --bits 128 --output "$tmp/none.txt"
expect_ok "0 of 40 moduli" -- gcd --shared-factors "$tmp/none.txt" --output "$tmp/nf.txt" --threads 1
check "no finding in --output" [ "$(grep -vc '^#' "$tmp/nf.txt")" -eq 0 ]
printf '%s\n' 0xF 15 0x15 >"$tmp/tiny.txt"
# 15, 0x15 twice: 15 shares 3 with both, the two are duplicates sharing 3 with 15 too.
expect_ok "# line 2: duplicate,small, divisible by 3; a 2-bit factor with line(s) 1; a 5-bit factor with line(s) 3" -- \
    gcd --shared-factors "$tmp/tiny.txt" --output "$tmp/tiny-found.txt"
check "--output of 15, 0x15, 0x15" diff - <(grep -v '^#' "$tmp/tiny-found.txt") <<'END'
1 shared,small 3 5 3 3:2,3
2 duplicate,small 15 1 3 3:1 15:3
3 duplicate,small 15 1 3 3:1 15:2
END
# --output -: the findings on stdout alone, the table and the report on stderr.
expect_ok "2 duplicate,small 15 1 3 3:1 15:3" -- gcd --shared-factors "$tmp/tiny.txt" --output -
check "--output -: the report on stderr" grep -q "^# 3 of 3 moduli share a factor" "$tmp/err"

# --- bad input: one line, exit 2, nothing written
printf '15\n21\nxyz\n' >"$tmp/bad1"
expect_fail 2 "--shared-factors $tmp/bad1 line 3: 'xyz' is not a hexadecimal number" -- gcd --shared-factors "$tmp/bad1"
printf '# comment\n15\n\n22\n' >"$tmp/bad2"
expect_fail 2 "line 4: modulus 22 is even; accepted: odd moduli greater than 1" -- gcd --shared-factors "$tmp/bad2"
printf '15\n0\n' >"$tmp/bad3"
expect_fail 2 "line 2: modulus 0 is zero" -- gcd --shared-factors "$tmp/bad3"
printf '15\n1\n' >"$tmp/bad4"
expect_fail 2 "line 2: modulus 1 is one" -- gcd --shared-factors "$tmp/bad4"
printf '15\n' >"$tmp/one"
expect_fail 2 "holds 1 moduli; accepted: at least 2" -- gcd --shared-factors "$tmp/one"
: >"$tmp/empty"
expect_fail 2 "holds 0 moduli; accepted: at least 2" -- gcd --shared-factors "$tmp/empty"
printf '15 21\n' >"$tmp/two"
expect_fail 2 "line 1: expected one hexadecimal number" -- gcd --shared-factors "$tmp/two"
{ printf '1'; head -c 16383 /dev/zero | tr '\0' 0; printf '1\n15\n'; } >"$tmp/wide"
expect_fail 2 "line 1: a number of 65537 bits; accepted: at most 65536 bits" -- gcd --shared-factors "$tmp/wide"
expect_fail 2 "--shared-factors '$tmp/missing' cannot be opened for reading" -- gcd --shared-factors "$tmp/missing"
expect_fail 2 "unknown method 'pairs'; accepted: tree-cpu, pairs-gpu, tree-gpu" -- gcd --shared-factors "$tmp/m.txt" --method pairs
expect_fail 2 "give one --method, not 2" -- gcd --shared-factors "$tmp/m.txt" --method tree-cpu,tree-cpu
expect_fail 2 "drop --bits and --count" -- gcd --shared-factors "$tmp/m.txt" --bits 1024
expect_fail 2 "--input is not accepted with --shared-factors, which computes no GCDs of pairs (the option applies to those)" -- gcd --shared-factors "$tmp/m.txt" --input "$tmp/m.txt"
expect_fail 2 "--barrier is not accepted with --make-moduli, which computes no GCDs of pairs" -- gcd --make-moduli 4 --barrier coop --output "$tmp/x"
expect_fail 2 "give one" -- gcd --shared-factors "$tmp/m.txt" --make-moduli 10 --output "$tmp/x"
expect_fail 2 "--output" -- gcd --shared-factors "$tmp/m.txt" --output "$tmp"
expect_fail 2 "--output" -- gcd --shared-factors "$tmp/m.txt" --output "$tmp/m.txt"
expect_fail 2 "--threads applies to --shared-factors" -- gcd --method gmp --threads 2
# ... and gcd --help says so (it gave the common "CPU threads for the CPU baseline (default 1").
"$MPGPU" gcd --help | tr -s ' \n' ' ' >"$tmp/help"
check "gcd --help: --threads is that of --shared-factors and --make-moduli" \
    grep -qF -- "--threads T CPU threads of --shared-factors (tree-cpu) and --make-moduli" "$tmp/help"
expect_fail 2 "--plant applies to --make-moduli" -- gcd --method gmp --plant all
expect_fail 2 "--make-moduli --bits 63 is not accepted; accepted: an even number in 64..16384" -- gcd --make-moduli 10 --bits 63 --output "$tmp/x"
expect_fail 2 "--make-moduli --bits 16386 is not accepted" -- gcd --make-moduli 10 --bits 16386 --output "$tmp/x"
expect_fail 2 "--make-moduli 8 is not accepted; accepted: at least 9" -- gcd --make-moduli 8 --plant all --output "$tmp/x"
expect_fail 2 "--make-moduli 1 is out of range" -- gcd --make-moduli 1 --output "$tmp/x"
expect_fail 2 "--plant 'twins' is not accepted; accepted: shared, duplicate, both, small, all, none (a comma list)" -- gcd --make-moduli 10 --plant twins --output "$tmp/x"
expect_fail 2 "writes its moduli to --output FILE" -- gcd --make-moduli 10
# Options --make-moduli would not use are refused (they were dropped: --bits 256,512 made 256-bit
# moduli alone, --csv and --json no file).
expect_fail 2 "--make-moduli makes moduli of one size; accepted: one --bits, not 2" -- gcd --make-moduli 10 --bits 256,512 --output "$tmp/x"
for opt in "--count 5" "--method gmp" "--csv $tmp/mm.csv" "--json $tmp/mm.json"; do
    # shellcheck disable=SC2086
    expect_fail 2 "${opt%% *} is not accepted with --make-moduli" -- gcd --make-moduli 10 $opt --output "$tmp/x"
done
check "no --output made by a refused command" [ ! -e "$tmp/x" ]

# --- Ctrl-C: the search of 40000 random odd 2048-bit numbers stops, exit 130, no --output
head -c $((40000 * 256)) /dev/urandom | od -An -tx1 -v | tr -d ' \n' | fold -w 512 |
    sed 's/.$/1/' >"$tmp/big.txt"
"$MPGPU" gcd --shared-factors "$tmp/big.txt" --output "$tmp/big-found.txt" >"$tmp/out" 2>"$tmp/log" </dev/null &
pid=$!
sleep 1.5
kill -INT "$pid"
for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
    check "Ctrl-C: the search ended within 10 s" false
    kill -KILL "$pid"
fi
wait "$pid"
st=$?
check "Ctrl-C: exit $st (want 130)" [ "$st" -eq 130 ]
check "Ctrl-C: says it was interrupted" grep -q "^mpgpu: interrupted" "$tmp/log"
check "Ctrl-C: no --output file, no partial file" [ -z "$(ls "$tmp" | grep big-found)" ]

# --- pairs-gpu's --checkpoint (issue 38): read and refused before any work and before the GPU
# is looked for, so every refusal shows here; a checkpoint for this input is accepted (then
# "no GPU", exit 3, on a machine without one).
ck=$tmp/ck.txt
expect_fail 2 "--checkpoint applies to --method pairs-gpu; tree-cpu runs in one go" -- gcd --shared-factors "$tmp/m.txt" --checkpoint "$ck"
expect_fail 2 "--checkpoint applies to --method pairs-gpu; tree-gpu runs in one go" -- gcd --shared-factors "$tmp/m.txt" --method tree-gpu --checkpoint "$ck"
expect_fail 2 "--checkpoint applies to --shared-factors --method pairs-gpu" -- gcd --bits 64 --method gmp --checkpoint "$ck"
# A folder is named as such (it was "line 1: not a pairs-gpu checkpoint").
expect_fail 2 "--checkpoint $tmp is a directory; give the path of a file" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$tmp"
printf '%s\n' "$(printf 'f%.0s' {1..2049})" 3 >"$tmp/wide-moduli.txt"
expect_fail 2 "line 1: a number of 8196 bits; accepted: at most 8192 bits" -- gcd --shared-factors "$tmp/wide-moduli.txt" --method pairs-gpu
printf '%s\n' "$(printf 'f%.0s' {1..8192})" 3 >"$tmp/wider-moduli.txt"
expect_fail 2 "line 1: a number of 32768 bits; accepted: at most 32767 bits" -- gcd --shared-factors "$tmp/wider-moduli.txt" --method tree-gpu
head="# mpgpu gcd --shared-factors --method pairs-gpu checkpoint 1"
printf 'hello\n' >"$ck"
expect_fail 2 "--checkpoint $ck line 1: not a pairs-gpu checkpoint (its first line); accepted: a checkpoint that" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
printf '%s\ninput 0123456789abcdef moduli 300 words 8 tile 1024\ntiles 0 of 1\npairs 0\nend\n' "$head" >"$ck"
expect_fail 2 "--checkpoint $ck was written for another input (300 moduli of 8 words, hash 0123456789abcdef); --shared-factors $tmp/m.txt has 300 of 8 words, hash" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
# This input's hash, as the refusal names it.
hash=$(sed -n 's/.* words, hash \([0-9a-f]\{16\}\): give another file.*/\1/p' "$tmp/err")
check "the refusal names this input's hash" [ ${#hash} -eq 16 ]
ckpt() { printf '%s\ninput %s moduli 300 words 8 tile %s\n%b' "$head" "$hash" "$1" "$2" >"$ck"; }
ckpt 1024 'tiles 0 of 1\npairs 0\n'
expect_fail 2 "line 5: expected 'end' after the pairs (a cut file)" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 512 'tiles 0 of 1\npairs 0\nend\n'
expect_fail 2 "line 2: a tile other than this version's 1024" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 0 of 3\npairs 0\nend\n'
expect_fail 2 "line 3: expected 'tiles DONE of TOTAL' with this input's total" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 2 of 1\npairs 0\nend\n'
expect_fail 2 "line 3: expected 'tiles DONE of TOTAL'" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 1 of 1\npairs 2\n4 9\n9 4\nend\n'
expect_fail 2 "line 6: expected a pair 'I J' of moduli, I < J < N" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 1 of 1\npairs 1\n4 300\nend\n'
expect_fail 2 "line 5: expected a pair 'I J' of moduli, I < J < N" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 1 of 1\npairs x\nend\n'
expect_fail 2 "line 4: expected 'pairs M'" -- gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck"
ckpt 1024 'tiles 1 of 1\npairs 1\n4 9\nend\n'
"$MPGPU" gcd --shared-factors "$tmp/m.txt" --method pairs-gpu --checkpoint "$ck" >"$tmp/out" 2>"$tmp/err"
st=$?
taken=no
if [ "$st" -eq 0 ] || { [ "$st" -eq 3 ] && grep -q "pairs-gpu needs one" "$tmp/err"; }; then
    taken=yes
fi
check "a checkpoint of this input is taken (exit $st: 0 with a GPU, 3 without)" [ "$taken" = yes ]
check "the checkpoint is left as it was, or complete" grep -q "^end$" "$ck"

# --- tree-gpu: with a GPU it runs (the gpu suite checks its findings), without one it says so.
"$MPGPU" gcd --shared-factors "$tmp/m.txt" --method tree-gpu --output "$tmp/tg.txt" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 3 ]; then
    check "tree-gpu without a GPU: one line naming the method" \
        grep -q "^mpgpu: .*; --method tree-gpu needs one (tree-cpu runs on the host)$" "$tmp/err"
    check "tree-gpu without a GPU: that line alone (no word of the --output not written)" \
        [ "$(wc -l <"$tmp/err")" -eq 1 ]
    check "tree-gpu without a GPU: no --output" [ ! -e "$tmp/tg.txt" ]
else
    check "tree-gpu with a GPU: exit $st (want 0)" [ "$st" -eq 0 ]
fi

finish cli_gcd_shared
