# 000 Table 4.5 as a figure: delay rate against the base bits of B, C and J (A: 25 bits), ours on
# the machine of results/collatz_table45.machine.txt next to the paper's GTX TITAN X and i7-4790.
load 'plots/style.gp'
load 'plots/collatz_common.gp'
set title 'mpgpu delay: numbers/s vs B, C, J base bits (000 Table 4.5, A: 25 bits)'
set xlabel 'base bits d of tables B, C and J'
set xrange [7.5:20.5]
set xtics 1
$paper << EOD
# d shared global cpu (000 Table 4.5, x 1e6 numbers/s)
8 939e6 924e6 9.26e6
9 951e6 933e6 11.2e6
10 946e6 870e6 11.2e6
11 936e6 851e6 12.6e6
12 922e6 407e6 12.4e6
13 NaN 360e6 11.5e6
14 NaN 383e6 12.3e6
15 NaN 375e6 9.05e6
16 NaN 397e6 8.09e6
17 NaN 413e6 7.97e6
18 NaN 393e6 7.85e6
19 NaN 218e6 6.08e6
20 NaN 134e6 2.97e6
EOD
plot series('$13 == "gpu" && $15 ~ /memory=shared/', 'bc_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'GPU, B, C, J in shared memory', \
     series('$13 == "gpu" && $15 ~ /memory=global/', 'bc_bits') using 1:2 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title 'GPU, global memory', \
     series('$13 == "cpu"', 'bc_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'CPU twin, 1 thread', \
     $paper using 1:2 with linespoints dt 2 pt 6 lc rgb '#1f77b4' title 'paper: TITAN X, shared', \
     $paper using 1:3 with linespoints dt 2 pt 4 lc rgb '#ff7f0e' title 'paper: TITAN X, global', \
     $paper using 1:4 with linespoints dt 2 pt 8 lc rgb '#2ca02c' title 'paper: i7-4790'
