# 004 Fig. 3.21: column-order multiplication against one-level Karatsuba, 131 bits, PTX, local
# operands, over the launch sweep (results/fixed_sweep.csv). The study prints no numbers, so
# nothing of the paper is drawn.
fig_w = 1280
fig_h = 640
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/fixed_common.gp'
hp_a = '$14 == 131 && $13 == "mul-ptx" && p("mem") == "local"'
hp_b = '$14 == 131 && $13 == "karatsuba-ptx" && p("mem") == "local"'
hp_name_a = 'mul'
hp_name_b = 'Karatsuba'
hp_what = 'mpgpu fixed: column-order mul vs Karatsuba, 131 bits, PTX, local operands (004 Fig. 3.21)'
hp_lo = 0.8
hp_hi = 1.25
load plotdir.'/fixed_heatpair.gp'
