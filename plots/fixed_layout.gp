# 004 section 3.4 (Figs. 3.7, 3.8): the operand layouts at every precision built, from
# results/fixed_layout.csv (experiments/fixed_layout.sh: 2^20 elements, each operation once,
# operands in registers): separate arrays for a and b against one interleaved array, and the
# coalesced word order (word i of every element together, COAL_IDX) against the contiguous one
# (the words of one element together, IDX). One panel per operation; PTX lines, C open points in
# the same colour. The study prints no numbers, so nothing of the paper is drawn.
fig_w = 1400
fig_h = 820
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/fixed_common.gp'
ops = "add sub addm subm mul karatsuba montred montmul"
layouts = "separate:coalesced interleaved:coalesced separate:contiguous interleaved:contiguous"
layout_title = "'separate, coalesced' 'interleaved, coalesced' 'separate, contiguous' 'interleaved, contiguous'"
# Colour: the word order; line: solid for separate arrays, dashed for interleaved.
colors = "#1f77b4 #17becf #d62728 #ff9896"
dts = "1 2 1 2"
operands(l) = l[1:strstrt(l, ':') - 1]
order(l) = l[strstrt(l, ':') + 1:]
# lay(op, impl, l): "x throughput" of operation op in impl with layout l, x the place of its
# precision (0, 1, ...) among those of the CSV.
lay(op, impl, l) = '< '.tsv.' | awk -F"\t" -v OFS="\t" -v list="'.bits.'" '''.fx_awk.' BEGIN { n = split(list, b, " "); for (i = 1; i <= n; i++) x[b[i]] = i - 1 } NR > 1 && $13 == "'.op.'-'.impl.'" && p("operands") == "'.operands(l).'" && p("word_order") == "'.order(l).'" { print x[$14], $25 }'' | sort -n'
n = int(system(tsv." | awk -F'\t' 'NR > 1 { n++ } END { print n + 0 }'"))
if (n == 0) {
    print sprintf("fixed_layout: %s has no rows", csv)
    exit status 1
}
bits = system(tsv." | awk -F'\t' 'NR > 1 { print $14 }' | sort -nu | tr '\\n' ' '")
count = first('1', 16)
nb = words(bits)
# One y range for every panel, so that they compare.
ylo = real(system(tsv." | awk -F'\t' 'NR > 1 && (m == \"\" || $25 + 0 < m + 0) { m = $25 } END { print m * 0.8 / 1e9 }'"))
yhi = real(system(tsv." | awk -F'\t' 'NR > 1 && $25 + 0 > m + 0 { m = $25 } END { print m * 1.25 / 1e9 }'"))
set yrange [ylo:yhi]
set logscale y 10
set ytics (1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100, 200)
set xrange [-0.5:nb - 0.5]
set xtics () nomirror
do for [i=1:nb] { set xtics add (word(bits, i) i - 1) }
set grid xtics ytics
set multiplot layout 2,4 margins 0.06, 0.99, 0.15, 0.9 spacing 0.045, 0.1 title sprintf("mpgpu fixed: operand layouts at every precision (004 section 3.4, Figs. 3.7 and 3.8), %s, %s elements, each operation once, kernel time (median of 10)\nseparate arrays vs one interleaved array, coalesced (COAL_IDX) vs contiguous (IDX) word order; PTX lines, C open points in the same colour", our_gpu, count) noenhanced
do for [k=1:8] {
    op = word(ops, k)
    set title op
    set xlabel (k > 4 ? 'operand bits' : '')
    set ylabel ((k - 1) % 4 == 0 ? '10^9 operations per second' : '')
    unset key
    plot for [i=1:4] lay(op, 'ptx', word(layouts, i)) using 1:($2 / 1e9) with linespoints lw 2 dt int(word(dts, i)) pt 7 ps 0.7 lc rgb word(colors, i) title word(layout_title, i), \
         for [i=1:4] lay(op, 'c', word(layouts, i)) using 1:($2 / 1e9) with points pt 6 ps 1.1 lw 1.2 lc rgb word(colors, i) notitle
}
# One key for all, below the panels: an empty plot across the page that only draws the key.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
set margins 0, 0, 0, 0
set origin 0, 0
set size 1, 0.07
unset logscale y
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 1 samplen 4 width 2 font ',10'
plot for [i=1:4] NaN with linespoints lw 2 dt int(word(dts, i)) pt 7 ps 0.7 lc rgb word(colors, i) title word(layout_title, i), \
     NaN with points pt 6 ps 1.1 lw 1.2 lc rgb '#555555' title 'C (open points)'
unset multiplot
