# The spe family of the model.
lib-y += arch/sim/spe.c
