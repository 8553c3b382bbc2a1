# 000 Fig. 3.5: time of 10240 products, Comba on sum-rotate and Toom-2..9 on sum-rotate, 1024 to
# 65536 bits (kernel time, median of 10; bars: min and max).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
set title 'mpgpu toom: 10240 products (000 Fig. 3.5), GPU kernel time'
set xlabel 'operand bits'
set ylabel 'time (ms)'
set logscale y 10
set format y '10^{%T}'
set xrange [0:67584]
set xtics 8192
set mxtics 8
toom = "toom-2 toom-3 toom-4 toom-5 toom-6 toom-7 toom-8 toom-9"
colors = "#9467bd #1f77b4 #17becf #2ca02c #bcbd22 #ff7f0e #d62728 #8c564b"
plot rows("sumrotate-shuffle") using 14:22:23:24 with yerrorlines lw 3 lc rgb '#000000' title 'Comba (sumrotate-shuffle)', \
     for [i=1:8] rows(word(toom, i)) using 14:22:23:24 with yerrorlines lw 2 lc rgb word(colors, i) title word(toom, i)
