# Two heat maps over the launch sweep of experiments/fixed_sweep.sh (grid x block, powers of two
# 1..1024, one element per thread): left, the kernel time of variant A in microseconds; right,
# the time of B over that of A (blue: B faster, red: B slower), each cell's value printed in it.
# Loaded by fixed_fig35.gp, fixed_fig320.gp and fixed_fig321.gp (after fixed_common.gp), which set:
#   hp_a, hp_b          awk conditions selecting the rows of A and of B
#   hp_name_a, hp_name_b  their names in titles
#   hp_what             the title's first line
#   hp_lo, hp_hi        the ratio's colour range (a log scale, so 1 lies in the middle when
#                       hp_lo = 1 / hp_hi)
if (fx_count(hp_a) == 0 || fx_count(hp_b) == 0) {
    print sprintf("%s: no sweep rows of '%s' or of '%s' in %s", out, hp_a, hp_b, csv)
    exit status 1
}
data = fx_pairs(hp_a, hp_b)
set multiplot layout 1,2 title sprintf("%s\n%s, kernel time (median of 10), one element per thread, so grid x block elements; best: %s %s, %s %s", hp_what, our_gpu, hp_name_a, fx_best(hp_a), hp_name_b, fx_best(hp_b)) noenhanced
unset grid
unset key
set tics out nomirror
set xrange [-0.5:10.5]
set yrange [-0.5:10.5]
eval 'set xtics '.pow2tics
eval 'set ytics '.pow2tics
set xlabel 'grid (blocks)'
set ylabel 'block (threads per block)'
set logscale cb
set tmargin at screen 0.84
set bmargin at screen 0.12
# Each panel's place on the page, its colour bar beside it.
set lmargin at screen 0.07
set rmargin at screen 0.41
set colorbox user origin screen 0.42, screen 0.12 size screen 0.015, screen 0.72
set cbtics (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 500, 1000)
set title sprintf('%s: kernel time (us)', hp_name_a) noenhanced
set palette defined (0 '#fff7ec', 0.35 '#fdd49e', 0.7 '#fc8d59', 1 '#d7301f')
set cbrange [*:*]
plot data using 1:2:(0.5):(0.5):($3 * 1000) with boxxyerror fs solid 1.0 noborder fc palette, \
     data using 1:2:(sprintf('%.3g', $3 * 1000)) with labels font ',8' tc rgb '#000000'
# The geometric mean of the ratio over every cell.
# (Joined with '.', not sprintf: gnuplot 5.4's sprintf cuts a long result short after a %%.)
gmean = system(data[3:].' | awk -F"\t" ''{ s += log($4 / $3); n++ } END { printf "%.2f", exp(s / n) }''')
set title sprintf('%s time / %s time (geometric mean over the cells: %s)', hp_name_b, hp_name_a, gmean) noenhanced
set palette defined (0 '#2166ac', 0.25 '#92c5de', 0.5 '#f7f7f7', 0.75 '#f4a582', 1 '#b2182b')
set cbrange [hp_lo:hp_hi]
set lmargin at screen 0.56
set rmargin at screen 0.90
set colorbox user origin screen 0.91, screen 0.12 size screen 0.015, screen 0.72
set cbtics (0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2, 3)
# A ratio past the colour range takes the end colour (its value is printed anyway).
clip(r) = r < hp_lo ? hp_lo : r > hp_hi ? hp_hi : r
plot data using 1:2:(0.5):(0.5):(clip($4 / $3)) with boxxyerror fs solid 1.0 noborder fc palette, \
     data using 1:2:(sprintf('%.2f', $4 / $3)) with labels font ',8' tc rgb '#000000'
unset multiplot
