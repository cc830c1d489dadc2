# The core: the model's register table, the register files behind the seam, the PE state.
lib-y += arch/sim/core/arch_regs.c arch/sim/core/regfile.c arch/sim/core/pe.c \
	arch/sim/core/reg_fields.c \
	arch/sim/core/profiles.c
