# 003 Figs. 5.3 and 5.4: qadd, qsub, qmul and qdiv of 256 (5.3) and of 2048 (5.4) rational
# computations, numerator and denominator lengths around a mean of 1..512 words (by doubling),
# deviation sigma = 1 word, from results/ctt_fig53_54.csv (experiments/ctt_fig53_54.sh). One row
# of panels per count of the CSV, one panel per operation: time against the mean length, the GPU
# mappings by their kernels (solid) and with the transfers of the whole memory block (dashed, same
# colour; the shaded band between auto's two lines is the transfers' share), and the CPU: GMP on
# one core and on all host cores, and the CTT code ported to one core. 003's claim (5.2, 6.3):
# 2048 computations hide the transfers, 256 do not. Median, bars min-max; each operation's two
# panels share the time axis, so the counts compare. A variant the CSV lacks is left out; a panel
# with none says so.
if (!exists("plotdir")) plotdir = 'plots'
# The counts of the CSV, one row of panels each (read before style.gp, which sizes the page).
counts = system(sprintf("awk -f %s %s | awk -F'\t' 'NR > 1 { print $16 }' | sort -nu | tr '\\n' ' '", "'".plotdir."/csv2tsv.awk'", "'".csv."'"))
nr = words(counts)
fig_w = 1400
fig_h = 150 + 340 * (nr > 0 ? nr : 1)
load plotdir.'/style.gp'
load plotdir.'/ctt_common.gp'
if (nr == 0) {
    print sprintf("ctt_fig53_54: %s has no rows", csv)
    exit status 1
}
ops = "qadd qsub qmul qdiv"
want = "1 2 3 4 5 6 7 8 9"
# The band's colour: that of its mapping (CTT, CTW, auto) mixed with 3 parts of white, opaque (an
# SVG viewer may ignore fill-opacity).
band_color(v) = word("#c7ddec #ffdfc3 #cae7ca", v)
# The GPU variants (with transfers, 4..6) dashed.
ct_dt(v) = v >= 4 && v <= 6 ? 2 : 1
ct_lw(v) = v >= 4 && v <= 6 ? 1.5 : 2
sigma_ = system(tsv.' | awk -F"\t" '''.ct_awk.' NR == 2 { printf "%s", p("sigma") }''')
# The band: auto's kernel time and its time with the transfers, by mean length (the first mapping
# of 3 1 2, auto, CTT, CTW, that has both).
band(c, k, t) = '< '.tsv.' | awk -F"\t" -v OFS="\t" '''.ct_awk.' NR > 1 && '.c.' && '.ct_cond(k).' { a[p("words")] = $22 } NR > 1 && '.c.' && '.ct_cond(t).' { b[p("words")] = $22 } END { for (w in a) if (w in b) print w, a[w], b[w] }'' | sort -n'
# yrange_of(c): "low high" of the min and max times of the rows of condition c, widened a little.
yrange_of(c) = system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' { if (lo == "" || $23 + 0 < lo + 0) lo = $23; if ($24 + 0 > hi + 0) hi = $24 } END { if (lo == "") print "0.01 1"; else printf "%g %g", lo * 0.7, hi * 1.5 }''')
kb = 110.0 / fig_h
set multiplot layout nr,4 margins 0.055, 0.99, kb + 45.0 / fig_h, 1 - 85.0 / fig_h spacing 0.04, 80.0 / fig_h \
    title sprintf("mpgpu ctt-vs-ctw: rational numbers (003 Figs. 5.3 and 5.4), numerator and denominator lengths around a mean with sigma = %s word%s, time against the mean\n%s (GPU; solid: kernels, dashed: kernels + transfers of the whole memory block, shaded: the transfers' share of auto) and %s (CPU); median, bars min-max", sigma_, sigma_ eq '1' ? '' : 's', our_gpu, our_cpu) noenhanced
set logscale x 2
set xrange [0.7:750]
set xtics (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) font ',9'
set logscale y 10
eval ct_ytics
unset key
do for [r=1:nr] {
    n = word(counts, r)
    do for [k=1:4] {
        op = word(ops, k)
        c = 'p("op") == "'.op.'" && $16 == '.n
        yr = yrange_of('p("op") == "'.op.'"')
        set yrange [real(word(yr, 1)):real(word(yr, 2))]
        have = ct_present(c, want)
        set title sprintf('%s, %s computations', op, n)
        set xlabel (r == nr ? 'mean length (32-bit words)' : '')
        set ylabel (k == 1 ? 'time (ms)' : '')
        if (words(have) == 0) {
            set label 1 sprintf("no %s rows of %s computations\nin this CSV", op, n) at graph 0.5, graph 0.5 center
            plot NaN notitle
            unset label 1
        } else {
            bk = 0
            do for [m in "3 1 2"] {
                if (bk == 0 && strstrt(' '.have.' ', ' '.m.' ') && strstrt(' '.have.' ', ' '.(int(m) + 3).' ')) { bk = int(m) }
            }
            cmd = 'plot'
            if (bk) { cmd = cmd.sprintf(" band(c, %d, %d) using 1:2:3 with filledcurves fs solid 1.0 noborder lc rgb '%s' notitle,", bk, bk + 3, band_color(bk)) }
            eval cmd." for [s in have] ct_rows(c.' && '.ct_cond(int(s)), 'p(\"words\")') using 1:2:3:4 with yerrorlines lw ct_lw(int(s)) dt ct_dt(int(s)) pt ct_pt(int(s)) ps 0.6 lc rgb ct_color(int(s)) notitle"
        }
    }
}
# One key for all, below the panels: an empty plot across the page that only draws the key.
# In the key's order (gnuplot fills it column by column): each mapping above the same with the
# transfers, then the CPU.
all = ct_present('1', "1 4 2 5 3 6 7 8 9")
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
# The band's entry when some panel could draw it (auto, or failing that CTT or CTW, with and
# without the transfers).
hasb(m) = strstrt(' '.all.' ', ' '.m.' ') && strstrt(' '.all.' ', ' '.(m + 3).' ')
bkey = hasb(3) ? 3 : hasb(1) ? 1 : hasb(2) ? 2 : 0
cmd = "plot for [s in all] NaN with linespoints lw ct_lw(int(s)) dt ct_dt(int(s)) pt ct_pt(int(s)) ps 0.7 lc rgb ct_color(int(s)) title ct_label(int(s))"
if (bkey) { cmd = cmd.sprintf(", NaN with filledcurves fs solid 1.0 noborder lc rgb '%s' title 'transfers of %s (shaded)'", band_color(bkey), ct_title(bkey)) }
if (words(all) == 0) { cmd = "plot NaN notitle" }
eval cmd
unset multiplot
