# Mixed operand lengths (003 section 4.3 warns that a warp's lengths should be similar, and never
# measures it): 8192 computations whose lengths spread around a mean of 64 words with deviation
# sigma, 0..64 words, from results/ctt_mixed.csv (experiments/ctt_mixed.sh). Time against sigma,
# one panel per operation: CTT, CTW and auto on the GPU (kernel time, median of 10, bars
# min-max), and GMP on all host cores. A variant the CSV lacks is left out.
fig_w = 1400
fig_h = 560
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/ctt_common.gp'
ops = "add sub mul"
want = "1 2 3 4 5 6 7 8 9"
count = first('1', 16)
words_ = system(tsv.' | awk -F"\t" '''.ct_awk.' NR == 2 { printf "%s", p("words") }''')
set multiplot layout 1,3 title sprintf("mpgpu ctt-vs-ctw: %s computations of mixed lengths, mean %s words, deviation sigma (003 section 4.3), time against sigma\n%s (kernel time, median, bars min-max) and its host", count, words_, our_gpu) noenhanced
set xlabel 'sigma of the operand lengths (words)'
set xrange [-2:66]
set xtics 8
set logscale y 10
eval ct_ytics
set key inside top left Left reverse samplen 3 font ',10'
do for [k=1:3] {
    op = word(ops, k)
    c = 'p("op") == "'.op.'"'
    have = ct_present(c, want)
    set title op
    set ylabel (k == 1 ? 'time (ms)' : '')
    if (words(have) == 0) {
        set label 1 sprintf('no %s rows in this CSV', op) at graph 0.5, graph 0.5 center
        set yrange [0.01:1]
        plot NaN notitle
        unset label 1
        set yrange [*:*]
    } else {
        plot for [s in have] ct_rows(c.' && '.ct_cond(int(s)), 'p("sigma")') using 1:2:3:4 with yerrorlines lw 2 pt ct_pt(int(s)) ps 0.7 \
                 lc rgb ct_color(int(s)) title ct_label(int(s))
    }
}
unset multiplot
