# 000 Fig. 4.5: delay rate of the CPU twin (one thread) against the base bits of table A.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/collatz_common.gp'
set title 'mpgpu delay, CPU twin, 1 thread: numbers/s vs A base bits (000 Fig. 4.5)'
set xlabel 'base bits a of table A (t = 2^a)'
set xtics 2
# (tab-separated, like every data stream; see style.gp)
$paper << EOD
# 000 section 4.5.2: 1.39e7 numbers/s with A of 23 bits (its optimum) on an i7-4790, one thread
23	1.39e7
EOD
plot series('$13 == "cpu"', 'a_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title sprintf('CPU twin, 1 thread (d = 11), %s', our_cpu), \
     $paper using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#2ca02c' title 'paper, Core i7-4790, 1 thread, A 23 bits (its optimum): 1.39e7'
