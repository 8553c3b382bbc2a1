# 004 Fig. 3.6: registers per thread of the C and PTX kernels, for every operation and
# precision, with the operands in registers (local, solid) and, where mpgpu builds one, used in
# place in device memory (global, hatched): ptxas's report of the build (-Xptxas -v), from
# results/fixed_resources.csv (experiments/fixed_resources.sh, which reads `mpgpu fixed
# --resources`). Spills or a stack frame, if any, are printed above their bar. The study shows
# only 131-bit add and prints no numbers, so nothing of the paper is drawn.
fig_w = 1320
fig_h = 940
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
# This CSV has its own columns: 1 commit, 2 bits, 3 mem, 4 op, 5 impl, 6 registers,
# 7 stack_bytes, 8 spill_stores, 9 spill_loads.
ops = "add sub addm subm mul karatsuba montred montmul powm"
bits = system(tsv." | awk -F'\t' 'NR > 1 { print $2 }' | sort -nu | tr '\\n' ' '")
nbits = words(bits)
if (nbits == 0) {
    print sprintf("fixed_fig36: %s has no kernels", csv)
    exit status 1
}
commit = system(tsv." | awk -F'\t' 'NR == 2 { printf \"%s\", $1 }'")
spilling = int(system(tsv." | awk -F'\t' 'NR > 1 && $7 + $8 + $9 > 0 { n++ } END { print n + 0 }'"))
most = int(system(tsv." | awk -F'\t' 'NR > 1 && $6 > m { m = $6 } END { print m + 0 }'"))
# kern(op, mem, impl): "x registers note" of each precision's kernel, x the precision's place
# (0, 1, ...) among those of the CSV; note is the spills and stack, or "" when there are none.
# (Joined with '.', not sprintf: gnuplot 5.4's sprintf cuts a long result short after a %%.)
kern(op, mem, impl) = '< '.tsv.' | awk -F"\t" -v OFS="\t" -v list="'.bits.'" ''BEGIN { n = split(list, l, " "); for (i = 1; i <= n; i++) x[l[i]] = i - 1 } NR > 1 && $4 == "'.op.'" && $3 == "'.mem.'" && $5 == "'.impl.'" { note = $7 + $8 + $9 > 0 ? sprintf("%d+%d spill, %d B", $8, $9, $7) : ""; print x[$2], $6, note }'''
nrows(op, mem) = int(system(tsv." | awk -F'\t' 'NR > 1 && $4 == \"".op."\" && $3 == \"".mem."\" { n++ } END { print n + 0 }'"))
# The bars of one precision: PTX then C, local then global where there is a global kernel.
set style fill solid 0.85 border -1
set yrange [0:(most > 64 ? most : 64) * 1.22]
set xrange [-0.6:nbits - 0.4]
set xtics () nomirror
do for [i=1:nbits] { set xtics add (word(bits, i) i - 1) }
set ytics 16 nomirror
set grid ytics
set key inside top left horizontal Left reverse samplen 1.5 width 1 font ',9'
col_ptx = '#1f77b4'
col_c = '#ff7f0e'
set multiplot layout 3,3 title sprintf("mpgpu fixed: registers per thread of each kernel (004 Fig. 3.6), ptxas -v of the build of commit %s\nPTX (blue) vs C (orange), operands local (solid) or global (hatched); dashed: 64, the most that lets a block of 1024 threads launch; %s", commit, spilling == 0 ? 'no kernel spills or uses a stack frame' : sprintf('%d kernels spill (labelled)', spilling)) noenhanced
do for [k=1:9] {
    op = word(ops, k)
    g = nrows(op, 'global') > 0
    w = g ? 0.19 : 0.36
    set boxwidth w
    set title op
    set xlabel (k > 6 ? 'operand bits' : '')
    set ylabel ((k - 1) % 3 == 0 ? 'registers per thread' : '')
    if (g) {
        plot 64 with lines dt 2 lc rgb '#555555' notitle, \
             kern(op, 'local', 'ptx') using ($1 - 1.5 * w):2 with boxes lc rgb col_ptx title (k == 1 ? 'PTX local' : ''), \
             kern(op, 'local', 'c') using ($1 - 0.5 * w):2 with boxes lc rgb col_c title (k == 1 ? 'C local' : ''), \
             kern(op, 'global', 'ptx') using ($1 + 0.5 * w):2 with boxes fs pattern 2 border lc rgb col_ptx title (k == 1 ? 'PTX global' : ''), \
             kern(op, 'global', 'c') using ($1 + 1.5 * w):2 with boxes fs pattern 2 border lc rgb col_c title (k == 1 ? 'C global' : ''), \
             kern(op, 'local', 'ptx') using ($1 - 1.5 * w):2:2 with labels rotate by 90 left offset 0,0.3 font ',7' notitle, \
             kern(op, 'local', 'c') using ($1 - 0.5 * w):2:2 with labels rotate by 90 left offset 0,0.3 font ',7' notitle, \
             kern(op, 'global', 'ptx') using ($1 + 0.5 * w):2:2 with labels rotate by 90 left offset 0,0.3 font ',7' notitle, \
             kern(op, 'global', 'c') using ($1 + 1.5 * w):2:2 with labels rotate by 90 left offset 0,0.3 font ',7' notitle, \
             kern(op, 'local', 'ptx') using ($1 - 1.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle, \
             kern(op, 'local', 'c') using ($1 - 0.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle, \
             kern(op, 'global', 'ptx') using ($1 + 0.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle, \
             kern(op, 'global', 'c') using ($1 + 1.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle
    } else {
        plot 64 with lines dt 2 lc rgb '#555555' notitle, \
             kern(op, 'local', 'ptx') using ($1 - 0.5 * w):2 with boxes lc rgb col_ptx notitle, \
             kern(op, 'local', 'c') using ($1 + 0.5 * w):2 with boxes lc rgb col_c notitle, \
             kern(op, 'local', 'ptx') using ($1 - 0.5 * w):2:2 with labels offset 0,0.5 font ',8' notitle, \
             kern(op, 'local', 'c') using ($1 + 0.5 * w):2:2 with labels offset 0,0.5 font ',8' notitle, \
             kern(op, 'local', 'ptx') using ($1 - 0.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle, \
             kern(op, 'local', 'c') using ($1 + 0.5 * w):2:3 with labels offset 0,1.4 font ',8' tc rgb '#d62728' notitle
    }
}
unset multiplot
