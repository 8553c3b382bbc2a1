# Shared by the ctt_* figures (loaded after style.gp): the series of an `mpgpu ctt-vs-ctw` CSV.
# Its params column (15) holds op=, words=, sigma= ...; timed_region (21) says whether a GPU
# row's time includes the transfers ("kernels+transfers"); cpu_threads (20) tells GMP on one
# core from GMP on all of them. A figure draws only the series its CSV has, so a CSV of the CPU
# methods alone (no GPU) draws too.
# ct_awk: awk function p(k), the value of key k in params ("" if absent).
ct_awk = 'function p(k,  s) { if (!match($15, "(^|;)" k "=[^;]*")) return ""; s = substr($15, RSTART, RLENGTH); sub(/.*=/, "", s); return s }'
# The variants, in the order the figures draw them: awk condition, title, colour, point type,
# dash type. (Joined with '.', not sprintf: gnuplot 5.4's sprintf cuts a long result short.)
ct_n = 9
ct_conds = '$13=="ctt"&&$21=="kernels" $13=="ctw"&&$21=="kernels" $13=="auto"&&$21=="kernels" $13=="ctt"&&$21=="kernels+transfers" $13=="ctw"&&$21=="kernels+transfers" $13=="auto"&&$21=="kernels+transfers" $13=="cpu-port" $13=="gmp"&&$20==1 $13=="gmp"&&$20>1'
ct_titles = "'CTT' 'CTW' 'auto' 'CTT + transfers' 'CTW + transfers' 'auto + transfers' 'cpu-port (CTT code, 1 core)' 'GMP, 1 core' 'GMP, all cores'"
ct_short = "'CTT' 'CTW' 'auto' 'CTT+T' 'CTW+T' 'auto+T' 'cpu-port' 'GMP 1' 'GMP all'"
ct_colors = "#1f77b4 #ff7f0e #2ca02c #1f77b4 #ff7f0e #2ca02c #9467bd #7f7f7f #000000"
ct_pts = "7 5 9 6 4 8 11 13 15"
ct_cond(v) = word(ct_conds, v)
ct_title(v) = word(ct_titles, v)
ct_color(v) = word(ct_colors, v)
ct_pt(v) = int(word(ct_pts, v))
# Whether variant v runs on the host (its title then names the CPU, else the GPU).
ct_cpu(v) = v >= 7
ct_where(v) = ct_cpu(v) ? our_cpu : our_gpu
# ct_count(c): how many rows hold awk condition c.
ct_count(c) = int(system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' { n++ } END { print n + 0 }'''))
# ct_rows(c, x): "x, median ms, min ms, max ms" of the rows of condition c, by x (an awk
# expression such as p("sigma")).
ct_rows(c, x) = '< '.tsv.' | awk -F"\t" -v OFS="\t" '''.ct_awk.' NR > 1 && '.c.' { print '.x.', $22, $23, $24 }'' | sort -n'
# ct_present(c, list): the variants of list (numbers) that have rows of condition c.
ct_present(c, list) = system(tsv.' | awk -F"\t" '''.ct_awk.' NR > 1 && '.c.' { '.ct_tally(list).' } END { for (i = 1; i <= n; i++) if (seen[i]) printf "%s ", v[i] }''')
# (the awk statements that mark, for each variant of list, whether this row is one of it)
ct_tally(list) = ct_tally_rec(list, 1, '')
ct_tally_rec(list, i, acc) = i > words(list) ? acc.' n = '.words(list).';' : ct_tally_rec(list, i + 1, acc.' v['.i.'] = '.word(list, i).'; if ('.ct_cond(int(word(list, i))).') seen['.i.'] = 1;')
# How many threads "GMP, all cores" ran on (cpu_threads of its first row).
ct_gmp_threads = first('$13 == "gmp" && $20 > 1', 20)
ct_label(v) = v == 9 && ct_gmp_threads ne '' ? sprintf('GMP, %s threads', ct_gmp_threads) : ct_title(v)
# Times in ms over many decades: tics at 1, 2, 5 of each.
ct_ytics = 'set ytics ("0.001" 0.001, "0.002" 0.002, "0.005" 0.005, "0.01" 0.01, "0.02" 0.02, "0.05" 0.05, "0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000, "5000" 5000, "10^4" 1e4, "2x10^4" 2e4, "5x10^4" 5e4, "10^5" 1e5)'
# A CSV of the CPU methods alone names no GPU.
if (our_gpu eq '') our_gpu = '(no GPU rows in this CSV)'
