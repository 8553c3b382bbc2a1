#!/usr/bin/env bash
# cpu suite: the `mpgpu fixed` command line. Its help documents every option; bad input (a
# precision that was not built, an even modulus for Montgomery operations, operands of --input
# not below the modulus, unknown operations, methods and layouts) gets exit status 2 and exactly
# one line on stderr naming the value; without a GPU the subcommand says so and exits 3.
source "$(dirname "$0")/cli_expect.sh" "$@"

# --- help: listed, and every option documented
expect_ok "fixed" -- --help
for opt in --method OP-IMPL --op --chain --impl --operands --word-order --mem --grid --block --modulus --moduli --input \
           --count --bits --reps --warmup --seed --device --csv --verify --include-transfers --include-launch \
           --quiet 109 131 163 191 239 256 384 512 -Dfixed_bits; do
    expect_ok "$opt" -- fixed --help
done

# --- bad input: precision
expect_fail 2 "--bits 200 was not built; accepted: one of the precisions built: 109, 131, 163, 191, 239, 256, 384, 512; add it with meson setup -Dfixed_bits=200" -- fixed --bits 200
expect_fail 2 "--bits 300 was not built" -- fixed --bits 256,300 --op add
# The accepted sizes named are those built (it named 64..1024, inside which 200 is refused).
expect_fail 2 "--bits 32 is not accepted; accepted: one of the precisions built: 109, 131, 163, 191, 239, 256, 384, 512 (others in 64..1024 by meson setup -Dfixed_bits=P)" -- fixed --bits 32
expect_fail 2 "--bits 2000 is not accepted; accepted: one of the precisions built:" -- fixed --bits 2000
"$MPGPU" fixed --help | tr -s ' \n' ' ' >"$tmp/help"
check "fixed --help: --bits names the precisions built" \
    grep -qF -- "--bits B[,B...] operand size in bits, one of the precisions built: 109, 131, 163, 191, 239, 256, 384, 512 (default 256)" "$tmp/help"
expect_fail 2 "--bits 2048 is not accepted" -- fixed --bits 2048
expect_fail 2 "--bits 'x' is not a number" -- fixed --bits x

# --- bad input: operations and layouts
expect_fail 2 "--op 'div' is not accepted; accepted: add, sub, addm, subm, mul, karatsuba, montred, montmul, powm" -- fixed --op div
expect_fail 2 "--op 'add,,mul' is not accepted: it has an empty item" -- fixed --op add,,mul
expect_fail 2 "--impl 'asm' is not accepted; accepted: ptx, c, fp64" -- fixed --impl asm
# fp64 has montmul and powm alone: an op no given impl has is refused, one another impl has runs
expect_fail 2 "--op add is not in --impl fp64 or hybrid, which have montmul and powm" -- fixed --impl fp64 --op montmul,add
expect_fail 2 "--op montred is not in --impl fp64 or hybrid" -- fixed --impl fp64 --op montred
expect_fail 2 "--op mul is not in --impl fp64 or hybrid" -- fixed --impl hybrid,fp64 --op mul
expect_fail 2 "--moduli 'each' is not accepted; accepted: shared, per-element" -- fixed --moduli each
expect_fail 2 "--moduli per-element draws each element's modulus; give no --modulus" -- fixed --bits 109 --op montmul --moduli per-element --modulus 0x11
expect_fail 2 "--operands 'mixed' is not accepted; accepted: separate, interleaved" -- fixed --operands mixed
expect_fail 2 "--word-order 'rows' is not accepted; accepted: contiguous, coalesced" -- fixed --word-order rows
expect_fail 2 "--mem 'shared' is not accepted; accepted: local, global" -- fixed --mem shared
expect_fail 2 "--chain 0 is out of range" -- fixed --chain 0
expect_fail 2 "--block 2048 is out of range" -- fixed --block 2048
expect_fail 2 "--grid 0 is out of range" -- fixed --grid 0
expect_fail 2 "--count 0 is out of range" -- fixed --count 0
# --method names (op, impl) pairs as the rows do, instead of --op and --impl
expect_fail 2 "fixed: unknown method 'x'; accepted: OP-IMPL, OP one of --op's, IMPL one of --impl's (fp64 and hybrid: montmul and powm only), or all" -- fixed --method x
expect_fail 2 "fixed: unknown method 'montmul'" -- fixed --method montmul
expect_fail 2 "fixed: unknown method 'montmul-asm'" -- fixed --method montmul-ptx,montmul-asm
expect_fail 2 "fixed: unknown method 'ptx-montmul'" -- fixed --method ptx-montmul
expect_fail 2 "fixed: method add-fp64 is not built: --impl fp64 has montmul and powm only" -- fixed --method montmul-fp64,add-fp64
expect_fail 2 "fixed: method montred-hybrid is not built: --impl hybrid has montmul" -- fixed --method montred-hybrid
expect_fail 2 "--method names the op and the impl together (montmul-fp64); give it or --op and --impl, not both" -- fixed --method montmul-ptx --op montmul
expect_fail 2 "--method names the op and the impl together" -- fixed --impl ptx --method all
expect_fail 2 "--method 'montmul-ptx,' is not accepted: it has an empty item" -- fixed --method montmul-ptx,

# --- bad input: the modulus
expect_fail 2 "--modulus 0x10 is even; montred, montmul and powm need an odd modulus" -- fixed --bits 109 --op montmul --modulus 0x10
expect_fail 2 "--modulus 0x1000 is even" -- fixed --bits 131 --op addm,powm --modulus 0x1000
expect_fail 2 "--modulus 'xyz' is not a hex number" -- fixed --bits 109 --op addm --modulus xyz
expect_fail 2 "--modulus 0x2 is too small; accepted: at least 3" -- fixed --bits 109 --op addm --modulus 0x2
expect_fail 2 "has 110 bits; accepted: below 2^109" -- fixed --bits 109 --op addm --modulus 0x2$(printf '0%.0s' $(seq 27))
expect_fail 2 "--modulus is of one precision; give one --bits, not 2" -- fixed --bits 109,131 --op addm --modulus 0x11

# --- bad input: --input
printf '5 3\n0x10 2\n' >"$tmp/pairs"
expect_fail 2 "element 1: operand not below the modulus m" -- fixed --bits 109 --op addm --modulus 0xb --input "$tmp/pairs"
expect_fail 2 "element 0: operand not below the modulus m" -- fixed --bits 109 --op montmul --modulus 0x5 --input "$tmp/pairs"
expect_fail 2 "--input with --op addm needs --modulus" -- fixed --bits 109 --op addm --input "$tmp/pairs"
expect_fail 2 "--moduli per-element draws each element's modulus; give no --input" -- fixed --bits 109 --op addm --moduli per-element --input "$tmp/pairs"
expect_fail 2 "give one --bits and one --op" -- fixed --bits 109 --op add,sub --input "$tmp/pairs"
expect_fail 2 "give one --bits and one --op" -- fixed --bits 109 --method add-ptx,sub-ptx --input "$tmp/pairs"
printf "%s 1\n" "0x3$(printf "0%.0s" $(seq 32))" >"$tmp/big"
expect_fail 2 "element 0: T is not below m R = m 2^128" -- fixed --bits 109 --op montred --modulus 0x3 --input "$tmp/big"
printf '%s 1\n' "0x1$(printf '0%.0s' $(seq 28))" >"$tmp/wide"
expect_fail 2 "element 0 has an operand not below 2^109" -- fixed --bits 109 --op mul --input "$tmp/wide"

# --- --resources: ptxas's report of every kernel, recorded at build time, without a GPU
expect_ok "registers" -- fixed --resources
expect_ok "256   local  montmul   ptx" -- fixed --resources --bits 256
expect_ok "256   local  powm      fp64" -- fixed --resources --bits 256
expect_ok "256   local  montmul   hybrid" -- fixed --resources --bits 256
"$MPGPU" fixed --resources >"$tmp/res" 2>&1
for bits in 109 131 163 191 239 256 384 512; do
    checks=$((checks + 1))
    # (9 operations x 2 impls + montmul and powm of fp64 and of hybrid) x 2 memories (registers,
    # device memory)
    if [ "$(grep -c "^$bits " "$tmp/res")" -ne 44 ]; then
        echo "FAIL: fixed --resources lists $(grep -c "^$bits " "$tmp/res") kernels of $bits bits, want 44"
        fails=$((fails + 1))
    fi
done
expect_fail 2 "--bits 200 was not built" -- fixed --resources --bits 200
# --resources prints every kernel of --bits: what it would not use is refused (--op and --csv
# were dropped without a word).
expect_fail 2 "--op is not accepted with --resources" -- fixed --resources --op add
expect_fail 2 "--csv is not accepted with --resources" -- fixed --resources --csv "$tmp/r.csv"
check "fixed --resources --csv: no file" [ ! -e "$tmp/r.csv" ]

# --- without a GPU: one line, exit 3 (on the GPU machine the run succeeds instead); fp64 or
# hybrid beside ptx with an op they lack is accepted (add runs in ptx alone), and so is "all",
# which every list of names takes
for args in "--bits 131 --op add" "--bits 256 --op add,montmul --impl ptx,fp64" \
            "--bits 256 --op add,powm --impl ptx,fp64 --moduli per-element" \
            "--bits 384 --op add,montmul,powm --impl ptx,hybrid" "--bits 256 --op all --impl all"; do
    "$MPGPU" fixed $args --count 16 --reps 1 --warmup 0 >"$tmp/out" 2>"$tmp/err"
    status=$?
    checks=$((checks + 1))
    if [ $status -eq 3 ]; then
        if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "fixed runs on the GPU only" "$tmp/err"; then
            echo "FAIL: fixed $args without a GPU: want one line naming why"; cat "$tmp/err"
            fails=$((fails + 1))
        fi
    elif [ $status -ne 0 ]; then
        echo "FAIL: fixed $args -> status $status"; cat "$tmp/err"
        fails=$((fails + 1))
    fi
done

finish cli_fixed
