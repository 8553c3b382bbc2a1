# 000 Fig. 4.2: convergence rate on the GPU against the base bits of table S.
load 'plots/style.gp'
load 'plots/collatz_common.gp'
set title 'mpgpu collatz, GPU: starting values/s vs S base bits (000 Fig. 4.2)'
set xlabel 'base bits k of table S'
set xtics 2
$paper << EOD
# 000 section 4.5.1: 1.31e12 numbers/s with S of 37 bits on a GTX TITAN X
37 1.31e12
EOD
plot series('$13 == "gpu"', 's_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'GPU (mpgpu defaults)', \
     $paper using 1:2 with points pt 6 ps 2 lc rgb '#d62728' title 'paper: TITAN X, 1.31e12'
