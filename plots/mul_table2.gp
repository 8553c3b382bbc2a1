# 001 Table II as a figure: time for 100000 products, 1024..32768 bits, one panel per execution
# unit (one thread; one warp with shared memory; one warp with shuffles), one colour per method
# (Comba, Karatsuba, Karatsuba^2). Ours solid with min-max bars, from the CSV; the paper's GTX
# 980 dashed in the same colour, from plots/paper_table2.dat.
fig_w = 1320
fig_h = 560
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
units = "thread sumrotate-shared sumrotate-shuffle"
unit_title = "'one thread per product' 'one warp, shared memory' 'one warp, warp shuffles'"
kinds = "comba karatsuba karatsuba2"
kind_title = "Comba Karatsuba Karatsuba^2"
colors = "#1f77b4 #ff7f0e #2ca02c"
# method(u, k): mpgpu's name for unit u and kind k; the one-warp Comba has no suffix.
method(u, k) = (u == 1 ? "thread-".word(kinds, k) : word(units, u).(k == 1 ? "" : "-".word(kinds, k)))
# Paper column of unit u, kind k in paper_table2.dat (1: bits).
pcol(u, k) = 1 + 3 * (u - 1) + k
set logscale x 2
set logscale y 10
set format y '10^{%T}'
set xtics (1024, 2048, 4096, 8192, 16384, 32768) rotate by 30 right
set xrange [800:42000]
set yrange [0.02:30000]
set key inside top left reverse Left samplen 3 spacing 1.1 font ',10'
set multiplot layout 1,3 title sprintf("mpgpu mul: 100000 products (001 Table II), kernel time: %s (solid, median of 10, bars min-max) beside the paper's GTX 980 (dashed, average of 10)", our_gpu) noenhanced
do for [u=1:3] {
    set title word(unit_title, u)
    set xlabel 'operand bits'
    if (u == 1) { set ylabel 'time (ms)' } else { unset ylabel }
    plot for [k=1:3] rows(method(u, k)) using 14:22:23:24 with yerrorlines lw 2 pt 7 ps 0.8 lc rgb word(colors, k) \
             title sprintf("%s, %s", method(u, k), our_gpu), \
         for [k=1:3] paper('table2') using 1:pcol(u, k) with linespoints lw 2 dt 2 pt 6 lc rgb word(colors, k) \
             title sprintf("paper, GTX 980, %s", word(kind_title, k))
}
unset multiplot
