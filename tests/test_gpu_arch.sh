#!/usr/bin/env bash
# cpu suite: the kernel sources with a path for each GPU architecture compile for both. A header
# that uses sm_90's PTX (mbarrier.try_wait) has an sm_80 fallback (kernels/mbarrier_handoff.cuh),
# and README's gpu_arch option offers sm_80; every source that includes such a header is compiled
# to machine code for sm_80 and sm_90 (ptxas rejects an instruction its target lacks). The whole
# library for sm_80 is `meson setup -Dgpu_arch=sm_80`, too long for a test.
# Usage: test_gpu_arch.sh NVCC SOURCE_ROOT
set -u
nvcc=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checks=0
fails=0
sources=$(grep -l '#include "mbarrier_handoff.cuh"' "$root"/kernels/*.cu)
for src in $sources; do
    for arch in 80 90; do
        checks=$((checks + 1))
        if ! "$nvcc" -std=c++17 --expt-relaxed-constexpr -gencode=arch=compute_$arch,code=sm_$arch \
            -cubin -I "$root/kernels" -o "$tmp/out.cubin" "$src" >"$tmp/log" 2>&1; then
            echo "FAIL: $(basename "$src") does not compile for sm_$arch:"
            sed 's/^/    /' "$tmp/log" | head -10
            fails=$((fails + 1))
        fi
    done
done
if [ "$checks" -eq 0 ]; then
    echo "FAIL: no kernel source includes mbarrier_handoff.cuh: nothing was checked"
    exit 1
fi
echo "gpu_arch: $checks compilations, $fails failed"
[ "$fails" -eq 0 ]
