# 000 Table 3.4 as a figure: GMP on the host CPU against the GPU, 10240 products, 64..65536
# bits. Ours solid with min-max bars, from the CSV; the paper's numbers (plots/paper_table34.dat)
# dashed in the colour of the series they compare with: GMP on one thread of its Xeon X7460
# (grey, as our GMP on one thread) and its method on the GTX 980 (green, as sumrotate-shuffle,
# the paper's Comba; its Toom-k points are labelled). The paper's CUMP row has no series of ours
# and gets its own colour. (001 Table III counts 100000 products, so it is not drawn here.)
fig_w = 980
fig_h = 600
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
if (!exists("fast")) fast = ''
set title sprintf("mpgpu mul: 10240 products (000 Table 3.4), GPU kernel time vs GMP\n%s and its host (solid, median of 10) beside the paper's GTX 980 and Xeon X7460 (dashed)", our_gpu) noenhanced
set xlabel 'operand bits'
set ylabel 'time (ms)'
set logscale x 2
set logscale y 10
set format y '10^{%T}'
set xtics (64, 256, 1024, 4096, 16384, 65536)
set xrange [56:75000]
set key outside below left Left reverse horizontal maxcols 2 samplen 3
set yrange [0.004:*]
plot rows_threads("gmp", 1) using 14:22:23:24 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb '#7f7f7f' title sprintf('GMP, 1 thread, %s', our_cpu), \
     rows_threads("gmp", 0) using 14:22:23:24 with yerrorlines lw 2 pt 5 ps 0.8 lc rgb '#000000' title sprintf('GMP, all host cores, %s', our_cpu), \
     rows("sumrotate-shuffle") using 14:22:23:24 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb '#2ca02c' title sprintf('sumrotate-shuffle, %s', our_gpu), \
     for [m in fast] rows(m) using 14:22:23:24 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb '#9467bd' title sprintf('%s, %s', m, our_gpu), \
     paper('table34') using 1:2 with linespoints lw 2 dt 2 pt 6 lc rgb '#7f7f7f' title 'paper, Xeon X7460, GMP 6.1.0, 1 thread', \
     paper('table34') using 1:4 with linespoints lw 2 dt 2 pt 6 lc rgb '#2ca02c' title 'paper, GTX 980, Comba (Toom-k where labelled)', \
     paper('table34') using 1:4:(strcol(7) eq 'Comba' ? '' : strcol(7)) with labels right offset -0.8,0.6 font ',9' tc rgb '#2ca02c' notitle, \
     paper('table34') using 1:3 with linespoints lw 2 dt 2 pt 4 lc rgb '#8c564b' title 'paper, GTX 980, CUMP 1.0.1'
