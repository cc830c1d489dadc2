# sim: the accessor seam over simulated CPUs; the executable model joins it here.
lib-y += arch/sim/regfile.c
