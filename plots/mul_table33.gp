# 000 Table 3.3 as a figure: 100000 products of 1024 bits, a pair of bars per method: ours
# (solid, from the CSV) and the paper's on a GTX 980 (dashed outline, same colour;
# plots/paper_table33.dat). GMP rows are left out (the table has no CPU column).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
set title sprintf("mpgpu mul: 100000 products of 1024 bits (000 Table 3.3), kernel time\n%s (median of 10) beside the paper's GTX 980 (average of 10)", our_gpu) noenhanced
set ylabel 'time (ms)'
set logscale y 10
set format y '10^{%T}'
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by 30 right noenhanced
set xrange [-0.6:*]
set autoscale xfixmax
set key inside top right
set rmargin 3
joined = sprintf("< %s | awk -F'\t' -v skip=gmp -f %s %s -", tsv, q(plotdir.'/paper_join.awk'), q(plotdir.'/paper_table33.dat'))
plot joined using ($0 - 0.2):2:xtic(1) with boxes lc rgb '#2ca02c' title our_gpu, \
     joined using ($0 + 0.2):3 with boxes fs empty border lc rgb '#2ca02c' lw 2 dt 2 lc rgb '#2ca02c' title 'paper, GTX 980'
