# 000 Fig. 4.5: delay rate of the CPU twin (one thread) against the base bits of table A.
load 'plots/style.gp'
load 'plots/collatz_common.gp'
set title 'mpgpu delay, CPU twin, 1 thread: numbers/s vs A base bits (000 Fig. 4.5)'
set xlabel 'base bits a of table A (t = 2^a)'
set xtics 2
$paper << EOD
# 000 section 4.5.2: 1.39e7 numbers/s with A of 23 bits (its optimum) on an i7-4790, one thread
23 1.39e7
EOD
plot series('$13 == "cpu"', 'a_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'CPU twin, 1 thread (d = 11)', \
     $paper using 1:2 with points pt 6 ps 2 lc rgb '#d62728' title 'paper: i7-4790, 1.39e7'
