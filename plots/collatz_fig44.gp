# 000 Fig. 4.4: delay rate on the GPU against the base bits of table A.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/collatz_common.gp'
set title 'mpgpu delay, GPU: numbers/s vs A base bits (000 Fig. 4.4)'
set xlabel 'base bits a of table A (t = 2^a)'
set xtics 2
# (tab-separated, like every data stream; see style.gp)
$paper << EOD
# 000 section 4.5.2: 1.01e9 numbers/s with A of 12 bits (its optimum) on a GTX TITAN X
12	1.01e9
EOD
plot series('$13 == "gpu"', 'a_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title sprintf('%s, mpgpu defaults', our_gpu), \
     $paper using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#1f77b4' title 'paper, GTX TITAN X, A 12 bits (its optimum): 1.01e9'
