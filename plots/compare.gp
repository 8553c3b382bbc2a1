# The ratios of `mpgpu compare BASE NEW` (docs/compare.md): one horizontal bar per matched case,
# new / base (above 1: slower), red SLOW, green FAST, grey SAME, with the line at 1.
#   make -f /path/to/mpgpu/Makefile.plots compare BASE=base.csv NEW=new.csv [OUT=prefix]
# Makefile.plots runs mpgpu compare --csv into `csv` (case,base_ms,new_ms,ratio,verdict) and sets
# base and new (the files' names, for the title).
if (!exists("plotdir")) plotdir = 'plots'
n = int(system(sprintf("awk 'END { print NR - 1 }' %s", "'".csv."'")))
fig_h = 160 + 22 * (n > 1 ? n : 1)
fig_w = 1100
load plotdir.'/style.gp'
if (n == 0) {
    print sprintf("compare: %s and %s have no case in common", base, new)
    exit status 1
}
# Columns of the compare CSV through csv2tsv.awk: 1 case, 2 base_ms, 3 new_ms, 4 ratio, 5 verdict.
data = sprintf("< %s | awk -F'\t' 'NR > 1'", tsv)
colour(v) = v eq 'SLOW' ? 0xd62728 : v eq 'FAST' ? 0x2ca02c : 0x999999
set title sprintf("mpgpu compare: new / base per case (above 1: slower)\nbase %s, new %s", base, new) noenhanced
set xlabel 'new / base (median time)'
unset ylabel
set yrange [n - 0.5:-0.5]
set ytics noenhanced font ',9'
set style fill solid 0.8 noborder
set key off
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 1, graph 0 to 1, graph 1 nohead lc rgb '#333333' dt 2 front
set lmargin 60
plot data using (($4 + 1) / 2):($0):(abs($4 - 1) / 2):(0.35):(colour(strcol(5))):ytic(1) \
     with boxxyerror lc rgb variable
