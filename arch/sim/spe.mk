# The SPE family of the model (SPE supplement, D17.5, D18.2) and the simulated memory and
# translation its Profiling Buffer writes through.
lib-y += arch/sim/spe.c arch/sim/spe_regs.c arch/sim/spe_ctl.c arch/sim/spe_sample.c \
	arch/sim/spe_filter.c arch/sim/spe_record.c arch/sim/spe_packet.c arch/sim/spe_buffer.c arch/sim/spe_flight.c arch/sim/spe_event.c arch/sim/spe_wptr.c arch/sim/spe_ctx.c \
	arch/sim/mem.c arch/sim/mem_tlb.c
