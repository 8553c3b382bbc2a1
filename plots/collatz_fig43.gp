# 000 Fig. 4.3: convergence rate of the CPU twin (one thread) against the base bits of table S.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/collatz_common.gp'
set title 'mpgpu collatz, CPU twin, 1 thread: starting values/s vs S base bits (000 Fig. 4.3)'
set xlabel 'base bits k of table S'
set xtics 2
# (tab-separated, like every data stream; see style.gp)
$paper << EOD
# 000 section 4.5.1: 5.25e9 numbers/s with S of 37 bits on an i7-4790, one thread
37	5.25e9
EOD
plot series('$13 == "cpu"', 's_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title sprintf('CPU twin, 1 thread, %s', our_cpu), \
     $paper using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#2ca02c' title 'paper, Core i7-4790, 1 thread, S 37 bits: 5.25e9'
