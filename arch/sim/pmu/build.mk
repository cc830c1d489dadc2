# The PMU family: trap rules, register semantics, counting, the synchronization window.
lib-y += arch/sim/pmu/pmu.c arch/sim/pmu/pmu_regs.c arch/sim/pmu/pmu_count.c \
	arch/sim/pmu/pmu_fields.c arch/sim/pmu/pmu_sync.c arch/sim/pmu/pmu_fgt.c
