# 004 Fig. 3.5: C against PTX, 131-bit add, operands in registers (local), over the launch sweep
# (results/fixed_sweep.csv). The study prints no numbers, so nothing of the paper is drawn.
fig_w = 1280
fig_h = 640
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/fixed_common.gp'
hp_a = '$14 == 131 && $13 == "add-ptx" && p("mem") == "local"'
hp_b = '$14 == 131 && $13 == "add-c" && p("mem") == "local"'
hp_name_a = 'PTX'
hp_name_b = 'C'
hp_what = 'mpgpu fixed: C vs PTX, 131-bit add, local operands (004 Fig. 3.5)'
hp_lo = 0.8
hp_hi = 1.25
load plotdir.'/fixed_heatpair.gp'
