# The GIC virtual CPU interface family of the model, and the workload generators.
lib-y += arch/sim/gic.c arch/sim/gic_phys.c arch/sim/gic_virt.c arch/sim/workload.c
