# 000 Table 3.3 as a figure: 100000 products of 1024 bits, one bar per method.
load 'plots/style.gp'
set title 'mpgpu mul: 100000 products of 1024 bits (000 Table 3.3), kernel time, median of 10'
set ylabel 'time (ms)'
set logscale y 10
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -30 left
set key off
set yrange [*:*]
plot sprintf("< awk -F, 'NR > 1 && $13 != \"gmp\"' %s", csv) using 0:22:xtic(13) with boxes lc rgb '#2ca02c'
