# 000 Table 3.4 / 001 Table III as a figure: GMP on the host CPU against the GPU, 10240
# products, 64..65536 bits.
load 'plots/style.gp'
set title 'mpgpu mul: 10240 products (000 Table 3.4), GPU kernel time vs GMP'
set xlabel 'operand bits'
set ylabel 'time (ms)'
set logscale x 2
set logscale y 10
set format y '10^{%T}'
set xtics (64, 256, 1024, 4096, 16384, 65536)
set xrange [56:75000]
if (!exists("fast")) fast = ''
plot rows_threads("gmp", 1) using 14:22:23:24 with yerrorlines lw 2 lc rgb '#7f7f7f' title 'GMP, 1 thread', \
     rows_threads("gmp", 0) using 14:22:23:24 with yerrorlines lw 2 dt 2 lc rgb '#7f7f7f' title 'GMP, all host cores', \
     rows("sumrotate-shuffle") using 14:22:23:24 with yerrorlines lw 2 lc rgb '#2ca02c' title 'sumrotate-shuffle', \
     for [m in fast] rows(m) using 14:22:23:24 with yerrorlines lw 2 lc rgb '#9467bd' title m
