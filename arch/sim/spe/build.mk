# The SPE family (SPE supplement, Arm DDI 0487 K.a D17.5, D18.2).
lib-y += arch/sim/spe/spe.c arch/sim/spe/spe_regs.c arch/sim/spe/spe_ctl.c \
	arch/sim/spe/spe_sample.c arch/sim/spe/spe_filter.c arch/sim/spe/spe_record.c \
	arch/sim/spe/spe_packet.c arch/sim/spe/spe_buffer.c arch/sim/spe/spe_flight.c \
	arch/sim/spe/spe_event.c arch/sim/spe/spe_wptr.c arch/sim/spe/spe_ctx.c arch/sim/spe/spe_fgt.c
