# sim: the accessor seam over simulated CPUs, and the executable architecture model behind it.
lib-y += arch/sim/regfile.c arch/sim/model.c arch/sim/pmu.c arch/sim/pmu_regs.c arch/sim/pmu_count.c \
	arch/sim/pmu_fields.c arch/sim/pmu_sync.c arch/sim/arch_regs.c
-include $(srctree)/arch/sim/spe.mk
-include $(srctree)/arch/sim/gic.mk
