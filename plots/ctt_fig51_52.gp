# 003 Figs. 5.1 and 5.2: every implementation at 1 word (5.1) and at 512 words (5.2), add, sub
# and mul of 8192 computations, the GPU mappings with and without the transfers of the whole
# memory block (hatched: kernels + transfers), from results/ctt_fig51_52.csv
# (experiments/ctt_fig51_52.sh). One row of panels per operand length of the CSV, one panel per
# operation, one bar per variant the CSV has (median, bars min-max); log time axis.
if (!exists("plotdir")) plotdir = 'plots'
# The operand lengths of the CSV, one row of panels each (read before style.gp, which sizes the
# page). Its rows: the computations of 8192 equal-length operands.
lens = system(sprintf("awk -f %s %s | awk -F'\t' 'NR > 1 && match($15, /(^|;)words=[0-9]+/) { s = substr($15, RSTART, RLENGTH); sub(/.*=/, \"\", s); print s }' | sort -nu | tr '\\n' ' '", "'".plotdir."/csv2tsv.awk'", "'".csv."'"))
nl = words(lens)
fig_w = 1400
fig_h = 130 + 330 * (nl > 0 ? nl : 1)
load plotdir.'/style.gp'
load plotdir.'/ctt_common.gp'
if (nl == 0) {
    print sprintf("ctt_fig51_52: %s has no rows with words=", csv)
    exit status 1
}
ops = "add sub mul"
# The bars, in order: each GPU mapping without and with the transfers, then the CPU.
want = "1 4 2 5 3 6 7 8 9"
hatched(v) = v >= 4 && v <= 6
count = first('1', 16)
set multiplot layout nl,3 title sprintf("mpgpu ctt-vs-ctw: %s computations of equal lengths, every implementation (003 Figs. 5.1 and 5.2), median, bars min-max\n%s (GPU; hatched: kernels + transfers of the whole memory block) and %s (CPU)", count, our_gpu, our_cpu) noenhanced
set logscale y 10
eval ct_ytics
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by 40 right nomirror font ',9'
set grid ytics
unset key
do for [r=1:nl] {
    len = word(lens, r)
    do for [k=1:3] {
        op = word(ops, k)
        c = 'p("op") == "'.op.'" && p("words") == '.len
        have = ct_present(c, want)
        nh = words(have)
        set title sprintf('%s, %s word%s', op, len, len eq '1' ? '' : 's')
        set ylabel (k == 1 ? 'time (ms)' : '')
        set xrange [-0.6:(nh > 0 ? nh : 1) - 0.4]
        set xtics ()
        if (nh == 0) {
            set label 1 'no rows in this CSV' at graph 0.5, graph 0.5 center
            set yrange [0.01:1]
            plot NaN notitle
            unset label 1
            set yrange [*:*]
        } else {
            do for [j=1:nh] { set xtics add (word(ct_short, int(word(have, j))) j - 1) }
            # The bars stand on the decade at or below the fastest (a log axis has no zero), with
            # room above the tallest for its value.
            low = real(system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' && (m == "" || $23 + 0 < m + 0) { m = $23 } END { e = log(m) / log(10); f = int(e); if (f > e) f--; printf "%g", 10 ^ f }'''))
            high = real(system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' && $24 + 0 > m + 0 { m = $24 } END { printf "%g", m * 2.5 }'''))
            set yrange [low * 0.999:high]
            # One plot command for the bars, solid or hatched each, written out and run (gnuplot
            # cannot vary the fill style within one "for", nor loop over an empty list).
            cmd = 'plot'
            do for [j=1:nh] {
                v = int(word(have, j))
                cmd = cmd.sprintf(" ct_rows(c.' && '.ct_cond(%d), '%d') using 1:2 with boxes fs %s lc rgb '%s' notitle,", \
                                  v, j - 1, hatched(v) ? 'pattern 2 border' : 'solid 0.85 border -1', ct_color(v))
            }
            cmd = cmd." for [j=1:nh] ct_rows(c.' && '.ct_cond(int(word(have, j))), sprintf('%d', j - 1)) using 1:3:(0):($4 - $3) with vectors nohead lw 1 lc rgb '#000000' notitle,"
            cmd = cmd." for [j=1:nh] ct_rows(c.' && '.ct_cond(int(word(have, j))), sprintf('%d', j - 1)) using 1:4:($2 >= 1000 ? sprintf('%.0f', $2) : sprintf('%.3g', $2)) with labels offset 0,0.6 font ',8' notitle"
            eval cmd
            set yrange [*:*]
        }
    }
}
unset multiplot
