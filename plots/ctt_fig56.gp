# 003 Fig. 5.6: the CPU against the GPU over the lengths of Fig. 5.5 (8192 computations of equal
# lengths, 1..512 words): 003's CTT code ported to one CPU core (cpu-port), GMP on one core (in
# the place of 003's LEDA) and on all host cores, and CTT on the GPU (kernel time), from
# results/ctt_fig55.csv (experiments/ctt_fig55.sh runs them all). 003 saw its CPU code jump
# past 32 words (its section 5.4). A variant the CSV lacks is left out.
want = "7 8 9 1"
cpu_fig = 1
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/ctt_fig55.gp'
