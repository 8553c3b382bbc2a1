# Shared by the collatz_* figures (loaded after plots/style.gp): the rows of one series as
# "x throughput" pairs, x read from the params column (15) as key=value; awk splits the CSV, so
# the data gnuplot reads (and the paper's values in each figure) are whitespace separated.
set datafile separator whitespace
series(cond, key) = sprintf("< awk -F, 'NR > 1 && %s { if (match($15, /(^|;)%s=[0-9]+/)) { s = substr($15, RSTART, RLENGTH); sub(/.*=/, \"\", s); print s, $25 } }' %s | sort -n", cond, key, csv)
set logscale y 10
set format y '10^{%L}'
set ylabel 'numbers per second'
set key outside below
set offsets graph 0.03, graph 0.03, graph 0.08, graph 0.08
