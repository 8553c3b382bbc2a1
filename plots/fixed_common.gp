# Shared by the fixed_* figures (loaded after style.gp). mpgpu fixed writes its variant into the
# params column (15) as key=value pairs: op, impl, mem, operands, word_order, grid, block...
# fx_awk: awk functions for the inline programs below: p(k) is the value of key k in params ("" if
# absent), lg(x) the base-2 logarithm of a power of two.
fx_awk = 'function p(k,  s) { if (!match($15, "(^|;)" k "=[^;]*")) return ""; s = substr($15, RSTART, RLENGTH); sub(/.*=/, "", s); return s } function lg(x,  n) { for (n = 0; x > 1; n++) x /= 2; return n }'
# The launch sweep of experiments/fixed_sweep.sh: the rows with an explicit grid (its
# five-precision part leaves the grid to mpgpu, grid=0) and one element per thread.
fx_sweep = 'NR > 1 && p("grid") > 0 && $16 == p("grid") * p("block")'
# fx_pairs(a, b): one line per launch configuration of the sweep where both the row of awk
# condition a and that of b exist: log2 grid, log2 block, a's median ms, b's median ms.
fx_pairs(a, b) = sprintf("< %s | awk -F'\t' -v OFS='\t' '%s %s { k = lg(p(\"grid\")) OFS lg(p(\"block\")); if (%s) ta[k] = $22; if (%s) tb[k] = $22 } END { for (k in ta) if (k in tb) print k, ta[k], tb[k] }'", tsv, fx_awk, fx_sweep, a, b)
# fx_count(c): how many sweep rows hold awk condition c.
fx_count(c) = int(system(sprintf("%s | awk -F'\t' '%s %s && %s { n++ } END { print n + 0 }'", tsv, fx_awk, fx_sweep, c)))
# fx_best(c): e.g. "4.91e+10/s (grid 1024 x block 512)", the sweep row of condition c with the
# highest throughput (column 25).
# (Joined with '.', not sprintf: gnuplot 5.4's sprintf cuts a long result short after a %%.)
fx_best(c) = system(tsv.' | awk -F"\t" '''.fx_awk.' '.fx_sweep.' && '.c.' && $25 + 0 > best + 0 { best = $25; at = p("grid") " x block " p("block") } END { printf "%.3g/s (grid %s)", best, at }''')
# Tics 1, 2, 4, ..., 1024 at log2 positions 0..10 (the sweep's powers of two).
pow2tics = '("1" 0, "2" 1, "4" 2, "8" 3, "16" 4, "32" 5, "64" 6, "128" 7, "256" 8, "512" 9, "1024" 10)'
