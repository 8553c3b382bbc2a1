# 001 Table II as a figure: time for 100000 products, 1024..32768 bits, by execution unit and
# multiplication method. Solid: Comba; dashed: Karatsuba; dotted: Karatsuba^2.
load 'plots/style.gp'
set title 'mpgpu mul: 100000 products (001 Table II), kernel time, median of 10'
set xlabel 'operand bits'
set ylabel 'time (ms)'
set logscale xy 2
set logscale y 10
set format y '10^{%T}'
set xtics (1024, 2048, 4096, 8192, 16384, 32768)
set xrange [900:37000]
thread = "thread-comba thread-karatsuba thread-karatsuba2"
shared = "sumrotate-shared sumrotate-shared-karatsuba sumrotate-shared-karatsuba2"
shuffle = "sumrotate-shuffle sumrotate-shuffle-karatsuba sumrotate-shuffle-karatsuba2"
plot for [i=1:3] rows(word(thread, i)) using 14:22:23:24 with yerrorlines lw 2 dt i lc rgb '#d62728' title word(thread, i), \
     for [i=1:3] rows(word(shared, i)) using 14:22:23:24 with yerrorlines lw 2 dt i lc rgb '#1f77b4' title word(shared, i), \
     for [i=1:3] rows(word(shuffle, i)) using 14:22:23:24 with yerrorlines lw 2 dt i lc rgb '#2ca02c' title word(shuffle, i)
