// SPDX-License-Identifier: MIT
/* Guest-side SPE sequences on the model: see sim/guest_spe.h. */
#include <arch/barrier.h>
#include <sim/arch_regs.h>
#include <sim/guest_spe.h>
#include <sim/model.h>

void sim_guest_spe_disable_and_drain(void)
{
	guest_msr(SIM_ENC_PMSCR_EL1, 0);
	isb();
	psb_csync();
	dsb_nsh();
	guest_msr(SIM_ENC_PMBLIMITR_EL1, 0);
	isb();
}
