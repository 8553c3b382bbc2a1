# mpgpu against NVIDIA CGBN, products (issue 39; docs/peers.md): at each size and count, CGBN's
# fastest threads per instance and block size over mpgpu's fastest method, both from the same run
# (experiments/peers/cgbn.sh, results/cgbn_mul.csv), held and with the launch; above 1 mpgpu is
# faster. Beside them, at 10240 products, the most any kernel could reach held: CGBN's time over
# a kernel that only copies each product's operands into its product's words
# (experiments/mul_floor.sh, results/mul_floor.csv, whose session docs/peers.md names), and the
# issue's 1.2x; and, where experiments/peers/cgbn_rounds.sh wrote results/cgbn_rounds.md beside
# them, its ratio of the medians over the rounds at 10240 products, with the range of the rounds'
# ratios.
# Makefile.plots passes csv (cgbn_mul.csv); the ratio table and the floor CSV lie beside it.
fig_w = 900
fig_h = 560
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
results_dir = csv[1:strlen(csv) - strlen('cgbn_mul.csv')]
floor_csv = results_dir.'mul_floor.csv'
# The ratios are the table cgbn.sh wrote beside the CSV (cgbn_mul_ratios.md), so that the figure
# and the docs take the same rows by the same rule (verified rows only, each side's best). Its
# columns, split at '|': 2 subcommand, 3 bits, 4 count, 5 timed region, 6 CGBN's best ("T ms
# (cgbn-tpiN[-bM])"), 8 the ratio ("1.20x"; "-" without an mpgpu row).
ratios_md = results_dir.'cgbn_mul_ratios.md'
table = sprintf("awk -F'|' -v OFS='|' '{ for (i = 2; i <= 8; i++) gsub(/^ +| +$/, \"\", $i) } $2 == \"mul\" && $8 ~ /x$/' %s", q(ratios_md))
# ratio(count, region): bits and the ratio at that count, one line a size.
ratio(count, region) = sprintf("< %s | awk -F'|' '$4 == %d && $5 == \"%s\" { print $3 \"\t\" $8 + 0 }' | sort -n", table, count, region)
# The largest count at each size (2^20 up to 8192 bits, fewer above), held.
largest = sprintf("< %s | awk -F'|' '$5 == \"kernels\" && $4 + 0 > most[$3] { most[$3] = $4 + 0; r[$3] = $8 + 0 } END { for (b in r) print b \"\t\" r[b] }' | sort -n", table)
# CGBN's held time at 10240 over the copy at its best threads a product (mul_floor.csv: 5 bits,
# 6 kernel, 8 median_ms).
reach = sprintf("< { %s | awk -F'|' '$4 == 10240 && $5 == \"kernels\" { print \"c\t\" $3 \"\t\" $6 + 0 }'; awk -F, 'NR > 1 && $6 == \"copy\" { if (!($5 in f) || $8 < f[$5]) f[$5] = $8 } END { for (b in f) print \"f\t\" b \"\t\" f[b] }' %s; } | awk -F'\t' '$1 == \"c\" { c[$2] = $3 } $1 == \"f\" { f[$2] = $3 } END { for (b in f) if (b in c) print b \"\t\" c[b] / f[b] }' | sort -n", table, q(floor_csv))
# The rounds' summary (cgbn_rounds.md), split at '|': 2 bits, 3 count, 7 the ratio of the medians
# ("1.189x"), 8 the rounds' range ("1.14-1.23x"); bits, ratio, low and high, one line a size.
rounds_md = results_dir.'cgbn_rounds.md'
have_rounds = system(sprintf("test -r %s && echo 1 || echo 0", q(rounds_md))) + 0
# The series as a macro, nothing when there are no rounds (before the 1.2x line: gnuplot looks
# for a macro outside quotes, and that line's title holds an apostrophe).
rounds_plot = have_rounds ? ", rounds using 1:2:3:4 with yerrorbars pt 13 ps 0.9 lc rgb '#2ca02c' title '10240 products, held, rounds: ratio of the medians, range of the rounds'" : ""
rounds = sprintf("< awk -F'|' '$3 + 0 == 10240 && $7 ~ /x *$/ { split($8, r, \"-\"); print $2 + 0 \"\t\" $7 + 0 \"\t\" r[1] + 0 \"\t\" r[2] + 0 }' %s | sort -n", q(rounds_md))
set title sprintf("mpgpu against NVIDIA CGBN, products: CGBN's best time over mpgpu's best, each from one run\n%s; above 1 mpgpu is faster", our_gpu) noenhanced
set xlabel 'operand bits'
set ylabel 'CGBN time / mpgpu time'
set logscale x 2
set xtics (256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
set xrange [200:42000]
set yrange [0.8:3.2]
set key outside below left Left reverse horizontal maxcols 2 samplen 3
plot largest using 1:2 with linespoints lw 2 pt 7 ps 0.8 lc rgb '#1f77b4' title '2^20 products (2^16, 2^14 above 8192 bits), held', \
     ratio(10240, 'kernels') using 1:2 with linespoints lw 2 pt 5 ps 0.8 lc rgb '#d62728' title '10240 products, held', \
     ratio(10240, 'kernels+launch') using 1:2 with linespoints lw 2 dt 2 pt 4 ps 0.8 lc rgb '#d62728' title '10240 products, with the launch', \
     reach using 1:2 with linespoints lw 2 dt 3 pt 9 ps 0.9 lc rgb '#7f7f7f' title '10240 products: CGBN over a copy of the operands (the most reachable)' @rounds_plot, \
     1.2 with lines lw 1 dt 4 lc rgb '#000000' title "issue 39's 1.2x"
