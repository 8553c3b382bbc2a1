# Issue 38's shared-factor search (experiments/gcd_search.sh): seconds for the whole search of
# the first N of 10^5 RSA-like 2048-bit moduli, each method timed once (median_ms of its row, a
# run of one), against N, log-log: Bernstein's tree with GMP on every host core (tree-cpu), the
# same with its bottom levels on the GPU (tree-gpu), and every pair on the GPU (pairs-gpu). Where
# the pairs' line crosses the trees' is where a tree overtakes all pairs; no paper prints these.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
threads = first('$13 == "tree-cpu"', 20)
set title sprintf("Shared-factor search, 2048-bit moduli: the whole search against N\n%s and %s host threads (%s)", our_gpu, threads, our_cpu) noenhanced
set xlabel 'moduli N'
set ylabel 'seconds (one run)'
set logscale xy
set xrange [700:150000]
set format x '10^{%L}'
set key inside top left Left reverse samplen 3
plot rows('tree-cpu') using 16:($22 / 1000) with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'tree-cpu (GMP, host cores)', \
     rows('tree-gpu') using 16:($22 / 1000) with linespoints pt 5 lw 2 lc rgb '#2ca02c' title 'tree-gpu (levels 0-3 on the GPU)', \
     rows('pairs-gpu') using 16:($22 / 1000) with linespoints pt 9 lw 2 lc rgb '#ff7f0e' title 'pairs-gpu (every pair on the GPU)'
