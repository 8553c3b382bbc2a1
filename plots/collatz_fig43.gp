# 000 Fig. 4.3: convergence rate of the CPU twin (one thread) against the base bits of table S.
load 'plots/style.gp'
load 'plots/collatz_common.gp'
set title 'mpgpu collatz, CPU twin, 1 thread: starting values/s vs S base bits (000 Fig. 4.3)'
set xlabel 'base bits k of table S'
set xtics 2
$paper << EOD
# 000 section 4.5.1: 5.25e9 numbers/s with S of 37 bits on an i7-4790, one thread
37 5.25e9
EOD
plot series('$13 == "cpu"', 's_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'CPU twin, 1 thread', \
     $paper using 1:2 with points pt 6 ps 2 lc rgb '#d62728' title 'paper: i7-4790, 5.25e9'
