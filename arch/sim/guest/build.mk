# Guest-side code on the model: the micro-op workload generators, and the SPE sequences that
# guests in the tests, the benchmark and the demo share.
lib-y += arch/sim/guest/workload.c arch/sim/guest/spe.c
