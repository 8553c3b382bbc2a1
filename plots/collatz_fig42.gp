# 000 Fig. 4.2: convergence rate on the GPU against the base bits of table S.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/collatz_common.gp'
set title 'mpgpu collatz, GPU: starting values/s vs S base bits (000 Fig. 4.2)'
set xlabel 'base bits k of table S'
set xtics 2
# (tab-separated, like every data stream; see style.gp)
$paper << EOD
# 000 section 4.5.1: 1.31e12 numbers/s with S of 37 bits on a GTX TITAN X
37	1.31e12
EOD
plot series('$13 == "gpu"', 's_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title sprintf('%s, mpgpu defaults', our_gpu), \
     $paper using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#1f77b4' title 'paper, GTX TITAN X, S 37 bits: 1.31e12'
