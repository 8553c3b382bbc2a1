# 003 Fig. 5.5: CTT against CTW, 8192 computations of equal lengths, 1..512 words by doubling,
# log-log time against length, one panel per operation, from results/ctt_fig55.csv
# (experiments/ctt_fig55.sh). mpgpu's auto (beyond 003) is drawn beside them. Kernel time,
# median (003 averages 64 runs), bars min-max. A variant the CSV lacks is left out; a panel with
# none says so.
fig_w = 1400
fig_h = 560
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/ctt_common.gp'
# ctt_fig56.gp loads this file with cpu_fig = 1 and its own variants.
if (!exists("cpu_fig")) cpu_fig = 0
if (!exists("want")) want = "1 2 3"
fig_what = cpu_fig ? sprintf("cpu-port and GMP on %s vs CTT on %s (003 Fig. 5.6; median, bars min-max)", our_cpu, our_gpu) \
                   : sprintf("CTT vs CTW (003 Fig. 5.5) on %s, kernel time (median, bars min-max)", our_gpu)
ops = "add sub mul"
count = first('1', 16)
set multiplot layout 1,3 title sprintf("mpgpu ctt-vs-ctw: %s computations of equal lengths, time against operand length\n%s", count, fig_what) noenhanced
set xlabel 'operand length (32-bit words)'
set logscale x 2
set xrange [0.7:750]
set xtics (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
set logscale y 10
eval ct_ytics
set key inside top left Left reverse samplen 3 font ',10'
do for [k=1:3] {
    op = word(ops, k)
    c = 'p("op") == "'.op.'" && p("sigma") == 0'
    have = ct_present(c, want)
    set title op
    set ylabel (k == 1 ? 'time (ms)' : '')
    if (words(have) == 0) {
        set label 1 sprintf('no %s rows of these methods in this CSV', op) at graph 0.5, graph 0.5 center
        set yrange [0.01:1]
        plot NaN notitle
        unset label 1
        set yrange [*:*]
    } else {
        plot for [s in have] ct_rows(c.' && '.ct_cond(int(s)), 'p("words")') using 1:2:3:4 with yerrorlines lw 2 pt ct_pt(int(s)) ps 0.7 \
                 lc rgb ct_color(int(s)) title ct_label(int(s))
    }
}
unset multiplot
