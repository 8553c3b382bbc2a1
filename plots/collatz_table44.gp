# 000 Table 4.4 as a figure: convergence rate against the base bits of B and C (S: 32 bits), ours
# on the machine of results/collatz_table44.machine.txt next to the paper's GTX TITAN X and i7-4790.
load 'plots/style.gp'
load 'plots/collatz_common.gp'
set title 'mpgpu collatz: starting values/s vs B, C base bits (000 Table 4.4, S: 32 bits)'
set xlabel 'base bits d of tables B and C'
set xrange [9.5:20.5]
set xtics 1
$paper << EOD
# d shared global cpu (000 Table 4.4, x 1e9 numbers/s)
10 677e9 566e9 3.70e9
11 697e9 583e9 3.92e9
12 763e9 611e9 4.29e9
13 NaN 698e9 4.02e9
14 NaN 739e9 3.75e9
15 NaN 747e9 3.03e9
16 NaN 872e9 3.08e9
17 NaN 931e9 2.85e9
18 NaN 983e9 3.07e9
19 NaN 371e9 3.12e9
20 NaN 160e9 2.05e9
EOD
plot series('$13 == "gpu" && $15 ~ /memory=shared/', 'bc_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'GPU, B and C in shared memory', \
     series('$13 == "gpu" && $15 ~ /memory=global/', 'bc_bits') using 1:2 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title 'GPU, global memory', \
     series('$13 == "cpu"', 'bc_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'CPU twin, 1 thread', \
     $paper using 1:2 with linespoints dt 2 pt 6 lc rgb '#1f77b4' title 'paper: TITAN X, shared', \
     $paper using 1:3 with linespoints dt 2 pt 4 lc rgb '#ff7f0e' title 'paper: TITAN X, global', \
     $paper using 1:4 with linespoints dt 2 pt 8 lc rgb '#2ca02c' title 'paper: i7-4790'
