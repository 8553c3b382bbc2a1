# Shared by every figure: the output format comes from Makefile.plots (fmt = 'svg' or 'png').
if (!exists("fmt")) fmt = 'svg'
if (fmt eq 'svg') {
    set terminal svg size 860,520 dynamic enhanced font 'Helvetica,13' background rgb 'white'
} else {
    set terminal pngcairo size 860,520 enhanced font 'Helvetica,11' background rgb 'white'
}
set output out
set datafile separator ','
set grid back lc rgb '#dddddd'
set key outside right top
# CSV columns (README, "CSV schema"): 13 method, 14 bits, 16 count, 20 cpu_threads,
# 22 median_ms, 23 min_ms, 24 max_ms, 25 throughput_per_s.
rows(m) = sprintf("< awk -F, 'NR > 1 && $13 == \"%s\"' %s", m, csv)
rows_threads(m, t) = sprintf("< awk -F, 'NR > 1 && $13 == \"%s\" && ($20 == 1) == (%d == 1)' %s", m, t, csv)
