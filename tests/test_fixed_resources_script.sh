#!/usr/bin/env bash
# kernels/fixed_resources.sh without a compiler: from a ptxas report written here by hand, in the
# form nvcc -Xptxas=-v prints it for fixed_kernels.cu, it keeps one record per kernel on device
# memory and, of the two kernels in registers, the default one (one element a thread, one modulus:
# fixed_local's ONE = true), with its registers, stack and spills, and drops the loop kernel.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
checks=0
fail() { echo "FAIL: $*" >&2; exit 1; }

# entry NAME REGISTERS STACK STORES LOADS: ptxas's lines for one kernel.
entry() {
    echo "ptxas info    : Compiling entry function '_ZN49_GLOBAL__N__0_16_fixed_kernels_cu_0$1' for 'sm_90'"
    echo "ptxas info    : Function properties for _ZN49_GLOBAL__N__0_16_fixed_kernels_cu_0$1"
    echo "    $3 bytes stack frame, $4 bytes spill stores, $5 bytes spill loads"
    echo "ptxas info    : Used $2 registers, used 0 barriers"
}
{
    # montmul (op 7), ptx (impl 0): the loop kernel, the default kernel, on device memory
    entry 11fixed_localILi7ELN5fixed4ImplE0ELb0EEEvNS_6LayoutENS_7ModulusEm 54 0 0 0
    entry 11fixed_localILi7ELN5fixed4ImplE0ELb1EEEvNS_6LayoutENS_7ModulusEm 40 0 0 0
    entry 12fixed_globalILi7ELN5fixed4ImplE0EEEvNS_6LayoutENS_7ModulusEm 92 0 0 0
    # powm (op 8), c (impl 1): the default kernel, which spills, reported before the loop kernel
    entry 11fixed_localILi8ELN5fixed4ImplE1ELb1EEEvNS_6LayoutENS_7ModulusEm 250 16 8 4
    entry 11fixed_localILi8ELN5fixed4ImplE1ELb0EEEvNS_6LayoutENS_7ModulusEm 255 360 368 976
} >"$work/fixed_resources_256.txt"
sh "$repo/kernels/fixed_resources.sh" "$work/out.h" "$work/fixed_resources_256.txt"
records=$(grep -c '^    {' "$work/out.h")
[ "$records" -eq 3 ] || fail "$records records, expected 3: $(cat "$work/out.h")"
checks=$((checks + 1))
# expect RECORD: the line of that record is in the header
expect() {
    grep -qxF "    {$1}," "$work/out.h" || fail "no record {$1} in: $(cat "$work/out.h")"
    checks=$((checks + 1))
}
expect "256, (mpgpu_fixed_op)7, (mpgpu_fixed_impl)0, 0, 40, 0, 0, 0"
expect "256, (mpgpu_fixed_op)7, (mpgpu_fixed_impl)0, 1, 92, 0, 0, 0"
expect "256, (mpgpu_fixed_op)8, (mpgpu_fixed_impl)1, 0, 250, 16, 8, 4"
echo "fixed_resources_script: $checks checks passed"
