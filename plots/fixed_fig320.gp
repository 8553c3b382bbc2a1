# 004 Fig. 3.20: operands in registers (local: loaded once, the sum formed in registers) against
# used in place in device memory (global), 239-bit add in PTX, over the launch sweep
# (results/fixed_sweep.csv). The study prints no numbers, so nothing of the paper is drawn.
fig_w = 1280
fig_h = 640
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/style.gp'
load plotdir.'/fixed_common.gp'
hp_a = '$14 == 239 && $13 == "add-ptx" && p("mem") == "local"'
hp_b = '$14 == 239 && $13 == "add-ptx" && p("mem") == "global"'
hp_name_a = 'local'
hp_name_b = 'global'
hp_what = 'mpgpu fixed: local vs global operands, 239-bit add, PTX (004 Fig. 3.20)'
hp_lo = 0.5
hp_hi = 2
load plotdir.'/fixed_heatpair.gp'
