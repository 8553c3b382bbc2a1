# 003 Figs. C.4-C.7: rational computations, 256, 512, 1024 and 2048 of them (one figure each in
# 003), numerator and denominator lengths around a mean of 1..512 words with deviation sigma = 1
# to 32 words, from results/ctt_figC4_C7.csv (experiments/ctt_figC4_C7.sh). 003 draws a 6 x 4
# grid (sigma x operation) per count; here one panel per count (columns) and operation (rows;
# qadd and qmul by default, qsub costs as qadd and qdiv as qmul: set ops to draw others), time
# against the mean length, one colour per sigma: the best GPU kernel time of CTT, CTW and auto
# (solid; the point's shape names the fastest) and GMP on all host cores (dashed, same colour).
# Medians; each operation's panels share the time axis, so the counts compare. A panel without
# rows says so.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("ops")) ops = "qadd qmul"
nr = words(ops)
fig_w = 1400
fig_h = 160 + 360 * nr
load plotdir.'/style.gp'
load plotdir.'/ctt_common.gp'
counts = system(tsv." | awk -F'\t' 'NR > 1 { print $16 }' | sort -nu | tr '\\n' ' '")
sigmas = system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 { print p("sigma") }'' | sort -nu | tr "\n" " "')
nc = words(counts)
ns = words(sigmas)
if (nc == 0) {
    print sprintf("ctt_figC4_C7: %s has no rows", csv)
    exit status 1
}
# The sigmas' colours, by hue from blue (1 word) through green and gold to red (32 words); past
# six they repeat.
sg_colors = "#2166ac #1b9e77 #66a61e #e6ab02 #d95f02 #a50f15"
sg_color(i) = word(sg_colors, (i - 1) % 6 + 1)
gpu = '(('.ct_cond(1).') || ('.ct_cond(2).') || ('.ct_cond(3).'))'
gmp = ct_cond(9)
# best(c): "mean length, best median ms, point type of the mapping that has it" over the GPU
# kernel rows of condition c, by mean length.
best(c) = '< '.tsv.' | awk -F"\t" -v OFS="\t" '''.ct_awk.' NR > 1 && '.c.' && '.gpu.' { w = p("words"); if (!(w in t) || $22 + 0 < t[w] + 0) { t[w] = $22; m[w] = $13 } } END { pt["ctt"] = '.ct_pt(1).'; pt["ctw"] = '.ct_pt(2).'; pt["auto"] = '.ct_pt(3).'; for (w in t) print w, t[w], pt[m[w]] }'' | sort -n'
# yrange_of(c): "low high" of the medians of the rows of condition c, widened a little.
yrange_of(c) = system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' { if (lo == "" || $22 + 0 < lo + 0) lo = $22; if ($22 + 0 > hi + 0) hi = $22 } END { if (lo == "") print "0.01 1"; else printf "%g %g", lo * 0.7, hi * 1.5 }''')
kb = 90.0 / fig_h
set multiplot layout nr,nc margins 0.055, 0.99, kb + 50.0 / fig_h, 1 - 85.0 / fig_h spacing 0.04, 80.0 / fig_h \
    title sprintf("mpgpu ctt-vs-ctw: rational numbers (003 Figs. C.4-C.7), numerator and denominator lengths around a mean with deviation sigma, time against the mean\n%s: the fastest of CTT, CTW and auto, kernel time (solid; point: which), and GMP on all cores of %s (dashed); median, one colour per sigma", our_gpu, our_cpu) noenhanced
set logscale x 2
set xrange [0.7:750]
set xtics (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) font ',9'
set logscale y 10
eval ct_ytics
unset key
do for [r=1:nr] {
    op = word(ops, r)
    yr = yrange_of('p("op") == "'.op.'" && ('.gpu.' || '.gmp.')')
    set yrange [real(word(yr, 1)):real(word(yr, 2))]
    do for [k=1:nc] {
        n = word(counts, k)
        c = 'p("op") == "'.op.'" && $16 == '.n
        set title sprintf('%s, %s computations', op, n)
        set xlabel (r == nr ? 'mean length (32-bit words)' : '')
        set ylabel (k == 1 ? 'time (ms)' : '')
        if (ct_count(c.' && ('.gpu.' || '.gmp.')') == 0) {
            set label 1 sprintf("no %s rows of %s computations\nin this CSV", op, n) at graph 0.5, graph 0.5 center
            plot NaN notitle
            unset label 1
        } else {
            # Sigmas without rows of a kind plot nothing (gnuplot warns and goes on).
            sg_gpu = ''
            sg_gmp = ''
            do for [i=1:ns] {
                s = word(sigmas, i)
                if (ct_count(c.' && p("sigma") == '.s.' && '.gpu) > 0) { sg_gpu = sg_gpu.' '.i }
                if (ct_count(c.' && p("sigma") == '.s.' && '.gmp) > 0) { sg_gmp = sg_gmp.' '.i }
            }
            cmd = 'plot'
            if (words(sg_gmp) > 0) { cmd = cmd." for [i in sg_gmp] ct_rows(c.' && p(\"sigma\") == '.word(sigmas, int(i)).' && '.gmp, 'p(\"words\")') using 1:2 with lines lw 1.3 dt 2 lc rgb sg_color(int(i)) notitle," }
            if (words(sg_gpu) > 0) { cmd = cmd." for [i in sg_gpu] best(c.' && p(\"sigma\") == '.word(sigmas, int(i))) using 1:2:3 with linespoints lw 2 pt variable ps 0.8 lc rgb sg_color(int(i)) notitle," }
            eval cmd[1:strlen(cmd) - 1]
        }
    }
}
# One key for all, below the panels: an empty plot across the page that only draws the key.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set margins 0, 0, 0, 0
set origin 0, 0
set size 1, kb
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 2 Left reverse samplen 3 width 1 font ',11'
# Per sigma a line; then the mappings' points and the two line styles, in grey.
plot for [i=1:ns] NaN with lines lw 3 lc rgb sg_color(i) title sprintf('sigma = %s', word(sigmas, i)), \
     NaN with points pt ct_pt(1) ps 0.9 lc rgb '#555555' title 'fastest: CTT', \
     NaN with points pt ct_pt(2) ps 0.9 lc rgb '#555555' title 'fastest: CTW', \
     NaN with points pt ct_pt(3) ps 0.9 lc rgb '#555555' title 'fastest: auto', \
     NaN with lines lw 2 lc rgb '#555555' title 'GPU, kernels', \
     NaN with lines lw 1.3 dt 2 lc rgb '#555555' title ct_label(9)
unset multiplot
