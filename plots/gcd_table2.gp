# 002 Table 2 (and its Fig. 3) as a figure: time per GCD against input size, 16..352 Kibit.
# Left: ours solid with min-max bars, from results/gcd_table2.csv (one row per size and method is
# a pass over ten random pairs: the time per GCD is median_ms / count, as the paper averages ten
# pairs), one colour per grid barrier with the Fermat inverse, one for coop with the paper's
# Euclid inverse, the k-ary and Lehmer methods (beyond 002) from results/gcd_kary.csv and
# results/gcd_lehmer.csv beside it, and GMP's mpz_gcd on one host core; the paper's Tesla V100
# (custom barrier, so in the colour of ours) and GMP on its Xeon E5-2620 dashed, from
# plots/paper_gcd_table2.dat. Right: the paper's V100 time over ours, against issue 10's target
# of 5x.
fig_w = 1320
fig_h = 600
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
methods = "gpu-coop-fermat gpu-custom-fermat gpu-cluster-fermat gpu-coop-euclid"
method_title = "'coop, Fermat inverse' 'custom (slot array, as 002 4.1), Fermat' 'cluster (one thread-block cluster), Fermat' 'coop, Euclid inverse (002 3.2)'"
colors = "#1f77b4 #ff7f0e #2ca02c #9467bd"
# The k-ary and Lehmer rows are in gcd_kary.csv and gcd_lehmer.csv beside csv
# (experiments/gcd_kary.sh, gcd_lehmer.sh); each is drawn when its file is there.
kary_csv = csv[1:strstrt(csv, 'gcd_table2.csv') - 1].'gcd_kary.csv'
lehmer_csv = csv[1:strstrt(csv, 'gcd_table2.csv') - 1].'gcd_lehmer.csv'
readable(f) = int(system(sprintf("test -r %s && echo 1 || echo 0", q(f))))
if (readable(kary_csv)) {
    methods = methods.' gpu-kary'
    method_title = method_title." 'k-ary (beyond 002, no grid barrier)'"
    colors = colors.' #8c564b'
}
if (readable(lehmer_csv)) {
    methods = methods.' gpu-lehmer'
    method_title = method_title." 'Lehmer (beyond 002, one block, no moduli)'"
    colors = colors.' #e377c2'
}
n_methods = words(methods)
tsv_of(m) = m eq 'gpu-kary' ? sprintf("awk -f %s %s", q(plotdir.'/csv2tsv.awk'), q(kary_csv)) : \
            m eq 'gpu-lehmer' ? sprintf("awk -f %s %s", q(plotdir.'/csv2tsv.awk'), q(lehmer_csv)) : tsv
# gpu_of(m): the GPU that ran method m, from its file (the Lehmer rows may come from another
# machine than the modular ones).
gpu_of(m) = system(sprintf("%s | awk -F'\t' 'NR > 1 && !done && $13 == \"%s\" { printf \"%%s\", $5; done = 1 }'", tsv_of(m), m))
col_gmp = '#555555'
# per_gcd(m): "Kibit, ms per GCD, min, max" of method m.
per_gcd(m) = sprintf("< %s | awk -F'\t' -v OFS='\t' 'NR > 1 && $13 == \"%s\" && $16 > 0 { print $14 / 1024, $22 / $16, $23 / $16, $24 / $16 }' | sort -n", tsv_of(m), m)
# vs_v100(m): "Kibit, paper V100 ms / our ms" of method m, at the sizes the paper has.
vs_v100(m) = sprintf("< %s | awk -F'\t' -v OFS='\t' 'FNR == NR { sub(/#.*/, \"\"); if (split($0, f, /[ \t]+/) >= 5) v100[f[1]] = f[5]; next } FNR > 1 && $13 == \"%s\" && $16 > 0 && (($14 / 1024) in v100) { print $14 / 1024, v100[$14 / 1024] / ($22 / $16) }' %s - | sort -n", tsv_of(m), m, q(plotdir.'/paper_gcd_table2.dat'))
n = int(system(tsv." | awk -F'\t' 'NR > 1 && $13 ~ /^gpu-|^gmp$/ { n++ } END { print n + 0 }'"))
if (n == 0) {
    print sprintf("gcd_table2: %s has no gpu-* or gmp rows", csv)
    exit status 1
}
set multiplot layout 1,2 title sprintf("mpgpu gcd: the modular integer GCD (002 Table 2, Fig. 3), ten random pairs a size, time per GCD\n%s and one core of its host (solid, median of the passes, bars min-max) beside the paper's Tesla V100 and Xeon E5-2620 (dashed, average of ten pairs)", our_gpu) noenhanced
set xlabel 'input size (Kibit)'
set xrange [0:368]
set xtics 32
set mxtics 2
set title 'time per GCD'
set ylabel 'time per GCD (ms)'
set logscale y 10
set format y '10^{%T}'
set key inside bottom right Left reverse samplen 3 font ',10'
plot for [i=1:n_methods] per_gcd(word(methods, i)) using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6 lc rgb word(colors, i) title sprintf('%s, %s', word(method_title, i), gpu_of(word(methods, i))), \
     per_gcd('gmp') using 1:2:3:4 with yerrorlines lw 2 pt 5 ps 0.6 lc rgb col_gmp title sprintf('GMP mpz_gcd, 1 core, %s', our_cpu), \
     paper('gcd_table2') using 1:5 with linespoints lw 2 dt 2 pt 6 ps 0.7 lc rgb word(colors, 2) title 'paper, Tesla V100, custom barrier', \
     paper('gcd_table2') using 1:6 with linespoints lw 2 dt 2 pt 4 ps 0.7 lc rgb col_gmp title 'paper, GMP, Xeon E5-2620'
set title "paper's V100 time / ours (above 1: faster than the V100)" noenhanced
set ylabel 'speed-up over the paper''s Tesla V100'
unset logscale y
set format y '%g'
set yrange [0:7]
set ytics 1
set key inside top left Left reverse samplen 3 font ',10'
plot 5 with lines lw 2 dt 3 lc rgb '#d62728' title "issue 10's target: 5x the V100", \
     1 with lines lw 1 lc rgb '#000000' notitle, \
     for [i=1:n_methods] vs_v100(word(methods, i)) using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb word(colors, i) title word(method_title, i)
unset multiplot
