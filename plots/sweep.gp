# Plot your own sweep: throughput against operand bits, one line per (subcommand, method) of any
# mpgpu CSV, log-log; the key names the methods and the title the GPU and commit the CSV records.
#   make -f /path/to/mpgpu/Makefile.plots sweep CSV=my.csv [OUT=prefix]
# Rows whose results were not compared with GMP (verify_mode none), or that differed from it,
# are drawn DASHED in their method's colour and marked in the key; all other rows are solid.
# plots/sweep.awk groups the rows into series and says how.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
sweep(what) = sprintf("%s | awk -v what=%s -f %s", tsv, what, q(plotdir.'/sweep.awk'))
# One series' block (awk prints just that one: gnuplot stopping early would break the pipe).
series(s) = sprintf("< %s | awk -v what=data -v only=%d -f %s", tsv, s, q(plotdir.'/sweep.awk'))
n = int(system(sweep('count')))
if (n == 0) {
    print sprintf("sweep: %s has no rows with a size in bits and a throughput to draw", csv)
    exit status 1
}
styles = system(sweep('style'))
unit = system(sweep('unit'))
colors = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf"
# Past ten methods the colours repeat with another point shape.
colour(s) = word(colors, int(word(styles, 2 * s - 1)) % 10 + 1)
shape(s) = (int(word(styles, 2 * s - 1)) / 10) % 4
dashed(s) = int(word(styles, 2 * s))
dtype(s) = dashed(s) ? 2 : 1
ptype(s) = (dashed(s) ? 6 : 7) + 2 * shape(s)
file = csv
while (strstrt(file, '/') > 0) { file = file[strstrt(file, '/') + 1:] }
set title sprintf("mpgpu: %s per second against operand bits\n%s (%s)", unit, system(sweep('title')), file) noenhanced
set xlabel 'operand bits'
set ylabel sprintf('%s per second', unit) noenhanced
set logscale x 2
set logscale y 10
set format x '%.0f'
set format y '10^{%L}'
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set key outside right top Left reverse samplen 2
plot for [s=1:n] series(s) using 1:2 with linespoints lw 2 dt dtype(s) pt ptype(s) \
         lc rgb colour(s) title columnheader(1)
