# Shared by every figure. Makefile.plots sets plotdir (this folder, so it runs from any
# directory), fmt ('svg' or 'png'), out (the file to write) and csv (the CSV to draw); a figure
# may set fig_w and fig_h (pixels) before loading this file.
if (!exists("plotdir")) plotdir = 'plots'
if (!exists("fmt")) fmt = 'svg'
if (!exists("fig_w")) fig_w = 860
if (!exists("fig_h")) fig_h = 520
if (fmt eq 'svg') {
    set terminal svg size fig_w,fig_h dynamic enhanced font 'Helvetica,13' background rgb 'white'
} else {
    set terminal pngcairo size fig_w,fig_h enhanced font 'Helvetica,11' background rgb 'white'
}
set output out
# Every data stream is tab-separated: the CSVs through csv2tsv.awk (a quoted field may hold a
# comma), the papers' tables through paper(); "-" is where a paper prints a dash, not a number.
set datafile separator "\t"
set datafile missing '-'
set grid back lc rgb '#dddddd'
# Keys and titles hold method and machine names such as thread-karatsuba2 or NVIDIA_X: plain text.
set key outside right top noenhanced
# q(s): s in single quotes for the shell (a path holding a single quote is not supported).
q(s) = "'".s."'"
tsv = sprintf("awk -f %s %s", q(plotdir.'/csv2tsv.awk'), q(csv))
# CSV columns (docs/csv.md): 4 cpu, 5 gpu, 13 method, 14 bits, 15 params, 16 count,
# 20 cpu_threads, 22 median_ms, 23 min_ms, 24 max_ms, 25 throughput_per_s.
rows(m) = sprintf("< %s | awk -F'\t' 'NR > 1 && $13 == \"%s\"'", tsv, m)
rows_threads(m, t) = sprintf("< %s | awk -F'\t' 'NR > 1 && $13 == \"%s\" && ($20 == 1) == (%d == 1)'", tsv, m, t)
# first(cond, col): column col of the first row where the awk condition holds ('' if none).
# (It reads to the end: exiting early would break the pipe under csv2tsv.awk, which mawk reports.)
first(cond, col) = system(sprintf("%s | awk -F'\t' 'NR > 1 && !done && %s { printf \"%%s\", $%d; done = 1 }'", tsv, cond, col))
# Our machine, named in the keys beside the paper's: the first GPU of the CSV (CPU rows say
# none) and the host CPU.
our_gpu = first('$5 != "none"', 5)
our_cpu = first('1', 4)
# paper(name): plots/paper_NAME.dat, one of the papers' tables as printed (whitespace-separated,
# with # comments), without the comments and tab-separated like everything else.
paper(name) = sprintf("< awk '{ sub(/[ \t]*#.*/, \"\") } NF { $1 = $1; print }' OFS='\t' %s", q(plotdir.'/paper_'.name.'.dat'))
