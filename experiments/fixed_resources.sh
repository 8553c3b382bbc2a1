#!/usr/bin/env bash
# 004 Fig. 3.6 (registers of the C and PTX kernels): ptxas's report of every fixed kernel, which
# the build records (kernels/fixed_resources.sh) and `mpgpu fixed --resources` prints as a
# table, turned into results/fixed_resources.csv for plots/fixed_fig36.gp:
#   commit,bits,mem,op,impl,registers,stack_bytes,spill_stores,spill_loads
# commit is the one the binary was built from. It needs no GPU (the report is compiled in), so
# any build of the commit that ran results/fixed_sweep.csv gives the same numbers for the same
# gpu_arch and CUDA version.
#   MPGPU=build/cli/mpgpu experiments/fixed_resources.sh
source "$(dirname "$0")/common.sh"
CSV="$RESULTS/fixed_resources.csv"
commit=$("$MPGPU" --version | sed -nE 's/.*\(commit ([^)]+)\).*/\1/p')
"$MPGPU" fixed --resources | awk -v commit="${commit:-unknown}" -v OFS=, '
    NR == 1 {
        if ($1 != "bits" || $5 != "registers" || NF != 8) {
            print "fixed_resources: unexpected header from mpgpu fixed --resources: " $0 > "/dev/stderr"
            exit 1
        }
        print "commit", $1, $2, $3, $4, $5, $6, $7, $8
        next
    }
    NF == 8 { print commit, $1, $2, $3, $4, $5, $6, $7, $8; n++ }
    END { if (n == 0) exit 1 }' >"$CSV.tmp"
mv "$CSV.tmp" "$CSV"
echo "experiment fixed_resources -> $CSV ($(($(wc -l <"$CSV") - 1)) kernels)" >&2
