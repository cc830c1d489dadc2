# The gic family of the model.
lib-y += arch/sim/gic.c
