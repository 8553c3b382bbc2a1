# 002 Fig. 4: the least-squares line T = a N + b through the time per GCD over the linear range
# 16..160 Kibit, beside the paper's T = 0.35 N + 1.62 (V100, ms and Kibit). Ours: the gpu-coop-fermat
# rows of results/gcd_table2.csv (the default's barrier from 32 Kibit on, and the one barrier that
# ran at every size), the first row of each size, median_ms / count; the V100's points from
# plots/paper_gcd_table2.dat. The fitted a and b are printed in the key.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
ours = sprintf("< %s | awk -F'\t' -v OFS='\t' 'NR > 1 && $13 == \"gpu-coop-fermat\" && $16 > 0 && !seen[$14]++ { print $14 / 1024, $22 / $16 }' | sort -n", tsv)
set fit quiet
set fit logfile '/dev/null'
a = 0.3
b = 1.0
fit [16:160] a * x + b ours using 1:2 via a, b
set title sprintf("002 Fig. 4: time per GCD against size, least squares over 16..160 Kibit\n%s (coop barrier, Fermat inverse) beside the paper's Tesla V100 (custom barrier)", our_gpu) noenhanced
set xlabel 'input size N (Kibit)'
set ylabel 'time per GCD T (ms)'
set xrange [0:368]
set xtics 32
set key inside top left Left reverse samplen 3 font ',10'
plot ours using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4' title sprintf('%s, measured', our_gpu), \
     [16:160] a * x + b with lines lw 2 lc rgb '#1f77b4' title sprintf('fit: T = %.3f N %s %.2f', a, b < 0 ? '-' : '+', abs(b)), \
     paper('gcd_table2') using 1:5 with points pt 6 ps 0.8 lc rgb '#ff7f0e' title 'paper, Tesla V100', \
     [16:160] 0.35 * x + 1.62 with lines lw 2 dt 2 lc rgb '#ff7f0e' title 'paper: T = 0.35 N + 1.62'
