# The launch sweep at the study's five precisions (experiments/fixed_sweep.sh, second part;
# 004 section 3.2 sweeps grid and block sizes): 2^20 elements, one per thread, every block size
# 1..1024 with as many blocks as that takes, add, mul and montmul; throughput against block size,
# one colour per precision, PTX solid and C dashed. A missing point at 1024 threads is a kernel
# of more than 64 registers (plots/fixed_fig36), which cannot launch such a block.
fig_w = 1400
fig_h = 560
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/fixed_common.gp'
ops = "add mul montmul"
colors = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2"
# The rows mpgpu chose the grid of (grid=0).
auto = 'NR > 1 && p("grid") == 0'
bits = system(tsv.' | awk -F"\t" '''.fx_awk.' '.auto.' { print $14 }'' | sort -nu | tr "\n" " "')
nb = words(bits)
if (nb == 0) {
    print sprintf("fixed_blocks: %s has no rows of the five-precision sweep (grid=0)", csv)
    exit status 1
}
count = system(tsv.' | awk -F"\t" '''.fx_awk.' '.auto.' { c = $16 } END { printf "%s", c }''')
# blk(op, impl, b): "log2 block, throughput" of operation op in impl at b bits.
blk(op, impl, b) = '< '.tsv.' | awk -F"\t" -v OFS="\t" '''.fx_awk.' '.auto.' && $13 == "'.op.'-'.impl.'" && $14 == '.b.' { print lg(p("block")), $25 / 1e9 }'' | sort -n'
set logscale y 10
set ytics (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
set xrange [-0.3:10.3]
eval 'set xtics '.pow2tics
set xlabel 'block (threads per block)'
set key inside bottom right Left reverse samplen 3 font ',10'
set multiplot layout 1,3 title sprintf("mpgpu fixed: throughput against block size at %s elements, one per thread (launch sweep of 004 section 3.2), %s, kernel time (median of 10)\ncolour: precision; PTX solid, C dashed", count, our_gpu) noenhanced
do for [k=1:3] {
    op = word(ops, k)
    set title op
    set ylabel (k == 1 ? '10^9 operations per second' : '')
    if (k == 3) { set key } else { unset key }
    plot for [i=1:nb] blk(op, 'ptx', word(bits, i)) using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb word(colors, i) title sprintf('%s bits', word(bits, i)), \
         for [i=1:nb] blk(op, 'c', word(bits, i)) using 1:2 with linespoints lw 2 dt 2 pt 6 ps 0.7 lc rgb word(colors, i) notitle
}
unset multiplot
