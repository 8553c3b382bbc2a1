#!/usr/bin/env bash
# cpu suite: numbers a user can trust and compare (issue 40), through the command line, without a
# GPU (the GMP baseline runs; NVML is absent here):
# - CSV schema 2: the columns appended after schema 1's (noise_rsd_pct ... schema_version), in
#   every row; the GPU state columns empty without NVML; a schema-1 file keeps getting schema-1
#   rows, saying so;
# - --min-time repeats past --reps; --markdown prints a Markdown table; --json is written up front
#   (an unwritable path is refused before any work) and holds every sample;
# - mpgpu compare on crafted files: FAST, SLOW, SAME by the noise of CSV rows and by the rank test
#   of JSON samples, cases on one side only, a schema-1 file, exit 1 only for SLOW beyond
#   --threshold, and bad input (exit 2, one line).
source "$(dirname "$0")/cli_expect.sh" "$@"

v1="timestamp,commit,host,cpu,gpu,compute_capability,sm_count,sm_clock_mhz,mem_clock_mhz,driver_version,runtime_version,subcommand,method,bits,params,count,reps,warmup,seed,cpu_threads,timed_region,median_ms,min_ms,max_ms,throughput_per_s,throughput_unit,verify_mode,checked,mismatches"
v2="$v1,noise_rsd_pct,samples,sm_clock_start_mhz,sm_clock_end_mhz,mem_clock_start_mhz,mem_clock_end_mhz,temp_start_c,temp_end_c,power_start_w,power_end_w,throttled_samples,throttle_reasons,schema_version"
col() { echo "$v2" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }

# --- CSV schema 2 in a new file
csv="$tmp/r.csv"
"$MPGPU" mul --method gmp --bits 128 --count 100 --reps 3 --csv "$csv" --quiet
check "schema 2 header" [ "$(head -1 "$csv")" = "$v2" ]
check "schema 2 row: every column, samples = reps, noise a number, schema_version 2, GPU state empty" \
    awk -F, -v n="$(echo "$v2" | awk -F, '{print NF}')" -v noise="$(col noise_rsd_pct)" -v s="$(col samples)" \
        -v from="$(col sm_clock_start_mhz)" -v to="$(col throttle_reasons)" \
        'NR == 2 { ok = NF == n && $s == 3 && $noise ~ /^[0-9]+\.[0-9]+$/ && $NF == 2
                   for (i = from; i <= to; i++) ok = ok && $i == "" } END { exit !(ok && NR == 2) }' "$csv"

# --- A schema-1 file keeps schema 1: every row has its header's columns; a note says so
old="$tmp/old.csv"
printf '%s\n%s\n' "$v1" "2026-01-01T00:00:00Z,abc,h,cpu,none,none,0,0,0,none,13.0,mul,gmp,128,words=4;limbs=2,100,3,2,1,1,cpu,0.001,0.001,0.001,1e8,products,reference,0,0" >"$old"
"$MPGPU" mul --method gmp --bits 128 --count 100 --reps 3 --csv "$old" --quiet 2>"$tmp/err"
check "schema-1 file: rows of 29 columns" awk -F, 'NF != 29 { bad = 1 } END { exit bad || NR != 3 }' "$old"
check "schema-1 file: a note on stderr" grep -q "has the header of CSV schema 1" "$tmp/err"
# A schema-2 file takes more rows under its header.
"$MPGPU" mul --method gmp --bits 128 --count 100 --reps 3 --csv "$csv" --quiet
check "schema-2 file appended to: two rows under one header" \
    awk -F, -v n="$(echo "$v2" | awk -F, '{print NF}')" 'NF != n { bad = 1 } END { exit bad || NR != 3 }' "$csv"
# A file that is no mpgpu CSV (another program's, a --json file, a later schema's header) is
# refused before any work and left as it was (rows were appended under its header).
printf 'a,b,c\n1,2,3\n' >"$tmp/other.csv"
printf '{"rows": []}\n' >"$tmp/other.json"
printf '%s,a_later_column\n' "$v2" >"$tmp/later.csv"
for f in other.csv other.json later.csv; do
    cp "$tmp/$f" "$tmp/$f.before"
    expect_fail 2 "--csv '$tmp/$f' does not start with the header of an mpgpu CSV (schema 1 or 2)" -- \
        mul --method gmp --bits 128 --count 100 --csv "$tmp/$f"
    check "--csv $f: left as it was" cmp -s "$tmp/$f" "$tmp/$f.before"
done

# --- Adaptive repetitions: --min-time 0.2 s with passes of milliseconds takes more than --reps
csv="$tmp/adaptive.csv"
"$MPGPU" mul --method gmp --bits 512 --count 10000 --reps 3 --min-time 0.2 --csv "$csv" --quiet
check "--min-time 0.2: more samples than --reps 3, fewer than the cap, reps column 3" \
    awk -F, -v s="$(col samples)" 'NR == 2 { ok = $s > 3 && $s < 1000 && $17 == 3 } END { exit !ok }' "$csv"

# --- --markdown
expect_ok "| method | bits | count | median | min | max | noise |" -- mul --method gmp --bits 128 --count 10 --reps 2 --markdown
expect_ok "| gmp | 128 | 10 |" -- mul --method gmp --bits 128 --count 10 --reps 2 --markdown
# The report's comment lines become a quoted block set apart by blank lines: no "# " line
# (a Markdown heading), and a blank line right before the table's header.
"$MPGPU" mul --method gmp --bits 128 --count 10 --reps 2 --markdown >"$tmp/md" 2>/dev/null
check "--markdown: no comment line left as a heading" awk '/^#/ { bad = 1 } END { exit bad }' "$tmp/md"
check "--markdown: the machine lines quoted" grep -q '^> mpgpu ' "$tmp/md"
check "--markdown: a blank line before the table" \
    awk '/^\| method \|/ { exit !(prev == "") } { prev = $0 } END { if (!NR) exit 1 }' "$tmp/md"

# --- --json: refused up front when it cannot be written; every sample when it can. A build
# without cJSON says so in --help and refuses it.
json_built=true
"$MPGPU" mul --help | grep -q "built without cJSON" && json_built=false
if ! $json_built; then
    expect_fail 2 "--json '$tmp/r.json': this mpgpu was built without cJSON" -- mul --method gmp --bits 128 --count 10 --json "$tmp/r.json"
    printf '{"rows": []}\n' >"$tmp/empty.json"
    expect_fail 2 "is JSON, and this mpgpu was built without cJSON" -- compare "$tmp/empty.json" "$csv"
fi
if $json_built; then
    expect_fail 2 "--json '$tmp' is a directory" -- mul --method gmp --bits 128 --count 10 --json "$tmp"
    expect_fail 2 "--json - is not accepted; accepted: a file" -- mul --method gmp --bits 128 --count 10 --json -
    expect_fail 2 "--csv '$tmp/same' is the file of --json '$tmp/same' too" -- mul --method gmp --bits 128 --count 10 --json "$tmp/same" --csv "$tmp/same"
    # The same file spelt two ways (compared as strings, it turned the CSV into JSON), and the
    # --input file (turned into JSON, exit 0).
    mkdir "$tmp/sub"
    expect_fail 2 "--json '$tmp/sub/../same' is the file of --csv '$tmp/./same' too" -- mul --method gmp --bits 128 --count 10 --csv "$tmp/./same" --json "$tmp/sub/../same"
    printf '3 5\n' >"$tmp/in.txt"
    expect_fail 2 "--json '$tmp/in.txt' is the file of --input '$tmp/in.txt' too" -- mul --method gmp --input "$tmp/in.txt" --json "$tmp/in.txt"
    check "--json: the --input file survives" [ "$(cat "$tmp/in.txt")" = "3 5" ]
    # A file that is not JSON (a results CSV named by mistake) is not replaced by --json (it was,
    # exit 0); a JSON document is, as is an empty file.
    cp "$csv" "$tmp/results.csv"
    expect_fail 2 "--json '$tmp/results.csv' holds something other than JSON" -- \
        mul --method gmp --bits 128 --count 10 --json "$tmp/results.csv"
    check "--json: the CSV survives" cmp -s "$csv" "$tmp/results.csv"
    printf '\n {"rows": []}\n' >"$tmp/again.json"
    : >"$tmp/empty_file.json"
    for f in again.json empty_file.json; do
        "$MPGPU" mul --method gmp --bits 128 --count 10 --quiet --json "$tmp/$f" 2>"$tmp/err"
        check "--json over $f: replaced" grep -q '"command"' "$tmp/$f"
    done
    # A link is followed (it was replaced by a plain file); a FIFO or a device is refused (a
    # rename put a plain file in its place, and the FIFO's reader got nothing).
    ln -s target.json "$tmp/link.json"
    "$MPGPU" mul --method gmp --bits 128 --count 10 --quiet --json "$tmp/link.json" 2>"$tmp/err"
    check "--json LINK: the link stays a link" [ -L "$tmp/link.json" ]
    check "--json LINK: its target holds the rows" grep -q '"rows"' "$tmp/target.json"
    ln -s target2.csv "$tmp/link2.json"
    expect_fail 2 "--json '$tmp/link2.json' is the file of --csv '$tmp/target2.csv' too" -- mul --method gmp --bits 128 --count 10 --csv "$tmp/target2.csv" --json "$tmp/link2.json"
    mkfifo "$tmp/fifo"
    expect_fail 2 "--json '$tmp/fifo' is not a regular file; accepted: a file" -- mul --method gmp --bits 128 --count 10 --json "$tmp/fifo"
    expect_fail 2 "--json '/dev/null' is not a regular file" -- mul --method gmp --bits 128 --count 10 --json /dev/null
    checks=$((checks + 1))
    t0=$(date +%s)
    "$MPGPU" mul --method gmp --bits 4096 --count 2^20 --json /nonexistent/dir/r.json >/dev/null 2>"$tmp/err"
    st=$?
    if [ $st -ne 2 ] || [ $(( $(date +%s) - t0 )) -gt 5 ] || ! grep -qF -- "--json '/nonexistent/dir/r.json'" "$tmp/err"; then
        echo "FAIL: unwritable --json: status $st after $(( $(date +%s) - t0 )) s"; sed 's/^/    /' "$tmp/err"
        fails=$((fails + 1))
    fi
    "$MPGPU" mul --method gmp --bits 128,256 --count 100 --reps 4 --json "$tmp/r.json" --quiet
    if command -v jq >/dev/null; then
        check "--json: two rows of 4 samples, the machine, the build" \
            [ "$(jq -r '[(.rows | length), (.rows[] | .samples_ms | length), .machine.gpu, (.build.commit | length > 0), .schema_version] | map(tostring) | join(" ")' "$tmp/r.json")" = "2 4 4 none true 2" ]
    fi
    check "--json: no partial file left" [ ! -e "$tmp/r.json.partial" ]
fi

# --- mpgpu compare on crafted files
# row SUBCOMMAND METHOD BITS MEDIAN MIN MAX NOISE PARAMS: a schema-2 row (NOISE "" for none).
row() {
    echo "2026-01-01T00:00:00Z,abc,h,cpu,G,9.0,132,1980,3201,13.0,13.0,$1,$2,$3,$8,10240,10,2,1,0,kernels,$4,$5,$6,1e8,products,all,10240,0,$7,10,,,,,,,,,,,2"
}
base="$tmp/base.csv"
new="$tmp/new.csv"
{
    echo "$v2"
    row mul same 1024 1.000 0.98 1.02 2.0 "words=32;batches=1"
    row mul slower 1024 1.000 0.99 1.01 1.0 "words=32;batches=1"
    row mul faster 1024 1.000 0.99 1.01 1.0 "words=32;batches=1"
    row mul gone 1024 1.000 0.99 1.01 1.0 "words=32;batches=1"
} >"$base"
{
    echo "$v2"
    # The same case: a measured key (pass_wall_ms, batches) differs and is not part of its identity.
    row mul same 1024 1.010 0.99 1.03 2.0 "words=32;batches=2;pass_wall_ms=1.2"
    row mul slower 1024 1.200 1.19 1.21 1.0 "words=32;batches=1"
    row mul faster 1024 0.800 0.79 0.81 1.0 "words=32;batches=1"
    row mul added 1024 1.000 0.99 1.01 1.0 "words=32;batches=1"
} >"$new"
"$MPGPU" compare "$base" "$new" >"$tmp/out" 2>"$tmp/err"
st=$?
check "compare: exit 1 with a case 20 % slower (threshold 5 %)" [ "$st" -eq 1 ]
check "compare: SAME within the noise" grep -qE '^SAME .* mul same bits=1024' "$tmp/out"
check "compare: SLOW beyond the threshold" grep -qE '^SLOW! +1\.2000 .* mul slower' "$tmp/out"
check "compare: FAST" grep -qE '^FAST +0\.8000 .* mul faster' "$tmp/out"
# --csv that takes nothing (a full disk) is said before the table, which it followed.
"$MPGPU" compare "$base" "$new" --csv /dev/full >"$tmp/full_out" 2>"$tmp/full_err"; full_st=$?
check "compare --csv /dev/full: exit 2 ($full_st), one line, no table" test "$full_st" -eq 2 -a ! -s "$tmp/full_out" \
    -a "$(cat "$tmp/full_err")" = "mpgpu: --csv '/dev/full': writing failed: No space left on device"
check "compare: only in BASE" grep -q '^only in BASE: mul gone' "$tmp/out"
check "compare: only in NEW" grep -q '^only in NEW: mul added' "$tmp/out"
check "compare: nothing on stderr" [ ! -s "$tmp/err" ]
# BASE and NEW are each read once, start to end: a pipe, '-' (stdin) and a FIFO work (they were
# opened twice, to tell JSON from CSV, and a FIFO hung).
"$MPGPU" compare <(cat "$base") "$new" >"$tmp/out_pipe" 2>&1; st=$?
check "compare from a pipe: exit 1, as from the file" [ "$st" -eq 1 ]
check "compare from a pipe: the same verdicts" diff <(grep -v '^# base' "$tmp/out_pipe") <(grep -v '^# base' "$tmp/out")
"$MPGPU" compare - "$new" <"$base" >"$tmp/out_pipe" 2>&1; st=$?
check "compare - (stdin): exit 1" [ "$st" -eq 1 ]
check "compare - (stdin): the same verdicts" diff <(grep -v '^# base' "$tmp/out_pipe") <(grep -v '^# base' "$tmp/out")
expect_fail 2 "compare: BASE and NEW are both '-' (stdin)" -- compare - -
# A byte order mark before the header (a CSV saved by a spreadsheet) is skipped.
{ printf '\xEF\xBB\xBF'; cat "$base"; } >"$tmp/bom.csv"
"$MPGPU" compare "$tmp/bom.csv" "$new" >"$tmp/out_pipe" 2>&1; st=$?
check "compare a CSV with a byte order mark: exit 1" [ "$st" -eq 1 ]
"$MPGPU" compare "$base" "$new" >"$tmp/out_ref" 2>&1
check "compare a CSV with a byte order mark: the same verdicts" diff <(grep -v '^# base' "$tmp/out_pipe") <(grep -v '^# base' "$tmp/out_ref")
# A noise band of 10 % or more is whole percent, so the column keeps its width (it was 2.2e+02).
{ echo "$v2"; row mul noisy 1024 1.000 0.5 3 220 "words=32"; } >"$tmp/noisy_a.csv"
{ echo "$v2"; row mul noisy 1024 1.500 0.5 3 12.5 "words=32"; } >"$tmp/noisy_b.csv"
"$MPGPU" compare "$tmp/noisy_a.csv" "$tmp/noisy_b.csv" >"$tmp/out_pipe" 2>&1
check "compare: a noise of 220 % and 12.5 % reads '220+12'" grep -qE '^SAME +1\.5000 .* noise 220\+12 % +mul noisy' "$tmp/out_pipe"
# A median of 0 made every ratio NaN, judged SAME: a regression from 0 passed the gate.
{ echo "$v2"; row mul same 1024 0 0 0 2.0 "words=32;batches=1"; } >"$tmp/zero.csv"
expect_fail 2 "line 2: median_ms '0' is not a time in ms above 0" -- compare "$tmp/zero.csv" "$new"
{ echo "$v2"; row mul same 1024 inf 1 1 2.0 "words=32;batches=1"; } >"$tmp/inf.csv"
expect_fail 2 "line 2: median_ms 'inf' is not a time in ms above 0" -- compare "$base" "$tmp/inf.csv"
# Rows of one repetition (checkpointed, --shared-factors, --reps 1) have no noise: only a
# difference beyond --threshold counts (2 % was SLOW by "noise 0+0 %"). gcd --shared-factors'
# findings are results, and its input file is matched by name, not by the folder it was read
# from (two runs of one search matched nothing). A gate that compared nothing exits 2 (it was 0).
one() { # METHOD MEDIAN PARAMS: a row of one repetition
    echo "2026-01-01T00:00:00Z,abc,h,cpu,G,9.0,132,1980,3201,13.0,13.0,gcd,$1,2048,$3,1000,1,0,1,16,cpu,$2,$2,$2,1e4,moduli,all,1001,0,,1,,,,,,,,,,,2"
}
{ echo "$v2"; one tree-cpu 100 "threads=16;found=1;small=1;tree_ms=92;input=/a/first_1000.txt"
  one pairs-gpu 100 "threads=16;found=1;small=1;input=/a/first_1000.txt"; } >"$tmp/one_a.csv"
{ echo "$v2"; one tree-cpu 102 "threads=16;found=2;small=2;tree_ms=95;input=/b/c/first_1000.txt"
  one pairs-gpu 150 "threads=16;found=2;small=2;input=/b/c/first_1000.txt"; } >"$tmp/one_b.csv"
"$MPGPU" compare "$tmp/one_a.csv" "$tmp/one_b.csv" >"$tmp/out" 2>"$tmp/err"; st=$?
check "compare one-sample rows: exit 1 (50 % slower)" [ "$st" -eq 1 ]
check "compare one-sample rows: 2 % is SAME" grep -qE '^SAME +1\.0200 .*1 sample: threshold +gcd tree-cpu .*input=first_1000.txt$' "$tmp/out"
check "compare one-sample rows: 50 % is SLOW!" grep -qE '^SLOW! +1\.5000 .*1 sample: threshold +gcd pairs-gpu' "$tmp/out"
check "compare one-sample rows: both matched" grep -q "^# 2 matched" "$tmp/out"
# experiments/summarize.sh: a row per result, its subcommand named (mul's and gcd's gmp rows
# looked alike), and a second header of a concatenated file skipped (it was printed as a row).
repo=$(cd "$(dirname "$0")/.." && pwd)
"$MPGPU" mul --method gmp --bits 64 --count 4 --reps 1 --csv "$tmp/sum.csv" --quiet
"$MPGPU" gcd --method gmp --bits 64 --count 4 --reps 1 --csv "$tmp/sum2.csv" --quiet
cat "$tmp/sum2.csv" >>"$tmp/sum.csv"
bash "$repo/experiments/summarize.sh" "$tmp/sum.csv" >"$tmp/sum.md"
check "summarize: two rows under its header" [ "$(grep -c '^| ' "$tmp/sum.md")" -eq 4 ]
check "summarize: mul's row" grep -qE '^\| mul \| gmp \(1 thr\) \| 64 \| 4 \|' "$tmp/sum.md"
check "summarize: gcd's row" grep -qE '^\| gcd \| gmp \(1 thr\) \| 64 \| 4 \|' "$tmp/sum.md"
# Bad input: one line, and --csv not written (it was, a header alone, before the exit 2).
echo keep >"$tmp/none.csv"
"$MPGPU" compare "$base" "$tmp/one_b.csv" --csv "$tmp/none.csv" >"$tmp/out" 2>"$tmp/err"; st=$?
check "compare with no case in common: exit 2" [ "$st" -eq 2 ]
check "compare with no case in common: says so in one line" \
    [ "$(grep -c "so nothing was compared ([0-9]* and 2 cases)" "$tmp/err")/$(wc -l <"$tmp/err")" = 1/1 ]
check "compare with no case in common: --csv left as it was" [ "$(cat "$tmp/none.csv")" = keep ]
"$MPGPU" compare "$base" "$new" --threshold 25 --csv "$tmp/cmp.csv" >"$tmp/out" 2>"$tmp/err"
st=$?
check "compare --threshold 25: exit 0 (SLOW, but within it)" [ "$st" -eq 0 ]
check "compare --threshold 25: still SLOW" grep -qE '^SLOW +1\.2000' "$tmp/out"
check "compare --csv: a row per matched case" awk -F, 'NR == 1 { ok = $0 == "case,base_ms,new_ms,ratio,verdict" } END { exit !(ok && NR == 4) }' "$tmp/cmp.csv"
# --csv - is stdout (it made a file named '-'), the table going to stderr; --csv over BASE or
# NEW is refused (BASE was truncated before it was read), and a bad NEW leaves --csv as it was.
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$MPGPU" compare "$base" "$new" --threshold 25 --csv - >"$tmp/out" 2>"$tmp/err"); st=$?
check "compare --csv -: exit 0" [ "$st" -eq 0 ]
check "compare --csv -: stdout is the CSV" cmp -s "$tmp/out" "$tmp/cmp.csv"
check "compare --csv -: the table on stderr" grep -qE '^SLOW +1\.2000' "$tmp/err"
check "compare --csv -: no file named -" [ ! -e "$tmp/cwd/-" ]
cp "$base" "$tmp/base_copy.csv"
expect_fail 2 "--csv '$base' is the file of BASE '$base' too" -- compare "$base" "$new" --csv "$base"
expect_fail 2 "--csv '$new' is the file of NEW '$new' too" -- compare "$base" "$new" --csv "$new"
check "compare: BASE survives --csv over it" cmp -s "$base" "$tmp/base_copy.csv"
cp "$tmp/cmp.csv" "$tmp/cmp_before.csv"
expect_fail 2 "$tmp/absent.csv" -- compare "$base" "$tmp/absent.csv" --csv "$tmp/cmp.csv"
check "compare: a bad NEW leaves --csv as it was" cmp -s "$tmp/cmp.csv" "$tmp/cmp_before.csv"
"$MPGPU" compare "$base" "$base" >"$tmp/out" 2>&1
st=$?
check "compare a file with itself: exit 0" [ "$st" -eq 0 ]
check "compare a file with itself: all SAME" grep -q "4 matched: 0 FAST, 0 SLOW (0 beyond --threshold 5 %), 4 SAME" "$tmp/out"

# A schema-1 base (no noise column): the band is half the min-max range over the median.
printf '%s\n%s\n' "$v1" "2026-01-01T00:00:00Z,abc,h,cpu,G,9.0,132,1980,3201,13.0,13.0,mul,slower,1024,words=32;batches=1,10240,10,2,1,0,kernels,1.000,0.99,1.01,1e8,products,all,10240,0" >"$tmp/v1.csv"
"$MPGPU" compare "$tmp/v1.csv" "$new" >"$tmp/out" 2>"$tmp/err"
st=$?
check "compare a schema-1 base: exit 1" [ "$st" -eq 1 ]
check "compare a schema-1 base: SLOW" grep -qE '^SLOW! .* mul slower' "$tmp/out"
check "compare a schema-1 base: by the min-max range" grep -qE 'noise 1\+1 %' "$tmp/out"

# JSON samples: the rank test decides. Medians 4 % apart with no overlap: SLOW, though that is
# within a noise band of 2+2 %; 3 % apart with the samples overlapping: SAME.
json() { # json FILE METHOD SAMPLES...
    local f=$1 m=$2
    shift 2
    local list
    list=$(IFS=,; echo "$*")
    printf '{"schema_version":2,"rows":[{"subcommand":"mul","method":"%s","bits":1024,"params":"words=32","count":10240,"cpu_threads":0,"timed_region":"kernels","median_ms":%s,"min_ms":%s,"max_ms":%s,"noise_rsd_pct":2,"samples_ms":[%s]}]}\n' \
        "$m" "$(printf '%s\n' "$@" | sort -g | sed -n 3p)" "$(printf '%s\n' "$@" | sort -g | head -1)" \
        "$(printf '%s\n' "$@" | sort -g | tail -1)" "$list" >"$f"
}
if $json_built; then
    json "$tmp/a.json" m 1.00 1.01 0.99 1.00 1.02
    json "$tmp/b.json" m 1.03 1.04 1.03 1.05 1.04
    json "$tmp/c.json" m 0.95 1.03 1.10 0.97 1.05
    "$MPGPU" compare "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>&1
    st=$?
    check "compare JSON: 4 % slower is within --threshold 5: exit 0" [ "$st" -eq 0 ]
    check "compare JSON: no overlap: SLOW by the U test" grep -qE '^SLOW +1\.04[0-9]+ .*U p=' "$tmp/out"
    "$MPGPU" compare "$tmp/a.json" "$tmp/c.json" >"$tmp/out" 2>&1
    check "compare JSON: overlapping samples: SAME by the U test" grep -qE '^SAME .*U p=' "$tmp/out"
    # A FIFO: it hung (opened twice).
    mkfifo "$tmp/compare_fifo"
    (cat "$tmp/a.json" >"$tmp/compare_fifo" &)
    timeout 10 "$MPGPU" compare "$tmp/compare_fifo" "$tmp/b.json" >"$tmp/out_pipe" 2>&1; st=$?
    check "compare from a FIFO of JSON: exit 0 (not hung: $st)" [ "$st" -eq 0 ]
    check "compare from a FIFO of JSON: SLOW by the U test" grep -qE '^SLOW +1\.04[0-9]+ .*U p=' "$tmp/out_pipe"
    # Against a CSV row, which has no samples: judged by the noise bands (2+2 %), SLOW beyond.
    { echo "$v2"; row mul m 1024 1.050 1.03 1.07 2.0 "words=32"; } >"$tmp/m.csv"
    "$MPGPU" compare "$tmp/a.json" "$tmp/m.csv" >"$tmp/out" 2>&1
    check "compare JSON against CSV: by the noise" grep -qE '^SLOW! +1\.0500 .*noise 2\+2 %' "$tmp/out"
    expect_fail 2 "no case of $tmp/a.json is in $new, so nothing was compared (1 and" -- compare "$tmp/a.json" "$new"
    printf '{"rows": 3}\n' >"$tmp/bad.json"
    expect_fail 2 "has no \"rows\" array" -- compare "$tmp/bad.json" "$new"
fi

# Bad input: one line, exit 2
expect_fail 2 "the NEW file is missing" -- compare "$base"
expect_fail 2 "the BASE and NEW files are missing" -- compare
expect_fail 2 "compare: '/nonexistent.csv' cannot be read" -- compare /nonexistent.csv "$new"
expect_fail 2 "--threshold 'abc' is not a number; accepted: percent in 0..1000" -- compare "$base" "$new" --threshold abc
expect_fail 2 "--threshold 2000 is out of range" -- compare "$base" "$new" --threshold 2000
expect_fail 2 "unknown option '--frob'" -- compare "$base" "$new" --frob
expect_fail 2 "unexpected argument 'x'" -- compare "$base" "$new" x
printf 'a,b\n1,2\n' >"$tmp/foreign.csv"
expect_fail 2 "no header line before it" -- compare "$tmp/foreign.csv" "$new"
printf '%s\n%s\n' "timestamp,method" "t,m" >"$tmp/short.csv"
expect_fail 2 "has no column subcommand (line 2)" -- compare "$tmp/short.csv" "$new"
expect_ok "usage: mpgpu compare BASE NEW" -- compare --help
checks=$((checks + 1))
"$MPGPU" compare --help >"$tmp/out"
if awk 'length > 80 { bad = 1 } END { exit !bad }' "$tmp/out"; then
    echo "FAIL: mpgpu compare --help has lines over 80 columns"; fails=$((fails + 1))
fi

# make -f Makefile.plots compare draws the ratios, naming every matched case (needs gnuplot).
repo=$(cd "$(dirname "$0")/.." && pwd)
if command -v gnuplot >/dev/null && command -v make >/dev/null; then
    (cd "$tmp" && make -s -f "$repo/Makefile.plots" compare BASE=base.csv NEW=new.csv OUT=figs/cmp MPGPU="$MPGPU") >"$tmp/out" 2>&1
    st=$?
    check "make compare: status 0 though a case is SLOW" [ "$st" -eq 0 ]
    check "make compare: the figure names the cases" grep -q "mul slower bits=1024" "$tmp/figs/cmp.svg"
    check "make compare: the PNG too" [ -s "$tmp/figs/cmp.png" ]
fi

finish cli_stats
