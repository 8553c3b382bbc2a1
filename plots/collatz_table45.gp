# 000 Table 4.5 as a figure: delay rate against the base bits of B, C and J (A: 25 bits).
# Ours solid, from the CSV; the paper's GTX TITAN X and i7-4790 dashed in the same colours, from
# plots/paper_table45.dat (printed in 10^6 numbers/s, scaled here).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/collatz_common.gp'
set title sprintf("mpgpu delay: numbers/s vs B, C, J base bits (000 Table 4.5, A: 25 bits)\n%s and its host (solid) beside the paper's GTX TITAN X and Core i7-4790 (dashed)", our_gpu) noenhanced
set xlabel 'base bits d of tables B, C and J'
set xrange [7.5:20.5]
set xtics 1
set key outside below center Left reverse vertical maxrows 3
plot series('$13 == "gpu" && $15 ~ /memory=shared/', 'bc_bits') using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title sprintf('%s, B, C, J in shared memory', our_gpu), \
     series('$13 == "gpu" && $15 ~ /memory=global/', 'bc_bits') using 1:2 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title sprintf('%s, global memory', our_gpu), \
     series('$13 == "cpu"', 'bc_bits') using 1:2 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title sprintf('CPU twin, 1 thread, %s', our_cpu), \
     paper('table45') using 1:($2 * 1e6) with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title 'paper, GTX TITAN X, shared memory', \
     paper('table45') using 1:($3 * 1e6) with linespoints lw 2 dt 2 pt 4 lc rgb '#ff7f0e' title 'paper, GTX TITAN X, global memory', \
     paper('table45') using 1:($4 * 1e6) with linespoints lw 2 dt 2 pt 8 lc rgb '#2ca02c' title 'paper, Core i7-4790, 1 thread'
