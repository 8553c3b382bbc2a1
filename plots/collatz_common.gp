# Shared by the collatz_* figures (loaded after style.gp): the rows of one series as
# "x<TAB>throughput" pairs, x read from the params column (15) as key=value.
series(cond, key) = sprintf("< %s | awk -F'\t' 'NR > 1 && %s { if (match($15, /(^|;)%s=[0-9]+/)) { s = substr($15, RSTART, RLENGTH); sub(/.*=/, \"\", s); print s \"\t\" $25 } }' | sort -n", tsv, cond, key)
set logscale y 10
set format y '10^{%L}'
set ylabel 'numbers per second'
set key outside below
set offsets graph 0.03, graph 0.03, graph 0.08, graph 0.08
