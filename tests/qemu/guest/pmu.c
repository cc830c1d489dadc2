// SPDX-License-Identifier: MIT
/* Guest PMU accessors: one MRS/MSR per counter number (the encodings differ per n: Arm
 * DDI 0487 K.a, PMEVCNTR<n>_EL0 = 3, 3, 14, 0b10:n[4:3], n[2:0]). Generated switch tables, kept explicit so
 * the instruction a test executes is exactly the one it names. */
#include "pmu.h"

uint64_t pmu_evcntr(unsigned int n)
{
	switch (n) {
	case 0:
		return read_sysreg(pmevcntr0_el0);
	case 1:
		return read_sysreg(pmevcntr1_el0);
	case 2:
		return read_sysreg(pmevcntr2_el0);
	case 3:
		return read_sysreg(pmevcntr3_el0);
	case 4:
		return read_sysreg(pmevcntr4_el0);
	case 5:
		return read_sysreg(pmevcntr5_el0);
	case 6:
		return read_sysreg(pmevcntr6_el0);
	case 7:
		return read_sysreg(pmevcntr7_el0);
	case 8:
		return read_sysreg(pmevcntr8_el0);
	case 9:
		return read_sysreg(pmevcntr9_el0);
	case 10:
		return read_sysreg(pmevcntr10_el0);
	case 11:
		return read_sysreg(pmevcntr11_el0);
	case 12:
		return read_sysreg(pmevcntr12_el0);
	case 13:
		return read_sysreg(pmevcntr13_el0);
	case 14:
		return read_sysreg(pmevcntr14_el0);
	case 15:
		return read_sysreg(pmevcntr15_el0);
	case 16:
		return read_sysreg(pmevcntr16_el0);
	case 17:
		return read_sysreg(pmevcntr17_el0);
	case 18:
		return read_sysreg(pmevcntr18_el0);
	case 19:
		return read_sysreg(pmevcntr19_el0);
	case 20:
		return read_sysreg(pmevcntr20_el0);
	case 21:
		return read_sysreg(pmevcntr21_el0);
	case 22:
		return read_sysreg(pmevcntr22_el0);
	case 23:
		return read_sysreg(pmevcntr23_el0);
	case 24:
		return read_sysreg(pmevcntr24_el0);
	case 25:
		return read_sysreg(pmevcntr25_el0);
	case 26:
		return read_sysreg(pmevcntr26_el0);
	case 27:
		return read_sysreg(pmevcntr27_el0);
	case 28:
		return read_sysreg(pmevcntr28_el0);
	case 29:
		return read_sysreg(pmevcntr29_el0);
	case 30:
		return read_sysreg(pmevcntr30_el0);
	default:
		return 0;
	}
}

void pmu_set_evcntr(unsigned int n, uint64_t v)
{
	switch (n) {
	case 0:
		write_sysreg(v, pmevcntr0_el0);
		break;
	case 1:
		write_sysreg(v, pmevcntr1_el0);
		break;
	case 2:
		write_sysreg(v, pmevcntr2_el0);
		break;
	case 3:
		write_sysreg(v, pmevcntr3_el0);
		break;
	case 4:
		write_sysreg(v, pmevcntr4_el0);
		break;
	case 5:
		write_sysreg(v, pmevcntr5_el0);
		break;
	case 6:
		write_sysreg(v, pmevcntr6_el0);
		break;
	case 7:
		write_sysreg(v, pmevcntr7_el0);
		break;
	case 8:
		write_sysreg(v, pmevcntr8_el0);
		break;
	case 9:
		write_sysreg(v, pmevcntr9_el0);
		break;
	case 10:
		write_sysreg(v, pmevcntr10_el0);
		break;
	case 11:
		write_sysreg(v, pmevcntr11_el0);
		break;
	case 12:
		write_sysreg(v, pmevcntr12_el0);
		break;
	case 13:
		write_sysreg(v, pmevcntr13_el0);
		break;
	case 14:
		write_sysreg(v, pmevcntr14_el0);
		break;
	case 15:
		write_sysreg(v, pmevcntr15_el0);
		break;
	case 16:
		write_sysreg(v, pmevcntr16_el0);
		break;
	case 17:
		write_sysreg(v, pmevcntr17_el0);
		break;
	case 18:
		write_sysreg(v, pmevcntr18_el0);
		break;
	case 19:
		write_sysreg(v, pmevcntr19_el0);
		break;
	case 20:
		write_sysreg(v, pmevcntr20_el0);
		break;
	case 21:
		write_sysreg(v, pmevcntr21_el0);
		break;
	case 22:
		write_sysreg(v, pmevcntr22_el0);
		break;
	case 23:
		write_sysreg(v, pmevcntr23_el0);
		break;
	case 24:
		write_sysreg(v, pmevcntr24_el0);
		break;
	case 25:
		write_sysreg(v, pmevcntr25_el0);
		break;
	case 26:
		write_sysreg(v, pmevcntr26_el0);
		break;
	case 27:
		write_sysreg(v, pmevcntr27_el0);
		break;
	case 28:
		write_sysreg(v, pmevcntr28_el0);
		break;
	case 29:
		write_sysreg(v, pmevcntr29_el0);
		break;
	case 30:
		write_sysreg(v, pmevcntr30_el0);
		break;
	default:
		break;
	}
}

uint64_t pmu_evtyper(unsigned int n)
{
	switch (n) {
	case 0:
		return read_sysreg(pmevtyper0_el0);
	case 1:
		return read_sysreg(pmevtyper1_el0);
	case 2:
		return read_sysreg(pmevtyper2_el0);
	case 3:
		return read_sysreg(pmevtyper3_el0);
	case 4:
		return read_sysreg(pmevtyper4_el0);
	case 5:
		return read_sysreg(pmevtyper5_el0);
	case 6:
		return read_sysreg(pmevtyper6_el0);
	case 7:
		return read_sysreg(pmevtyper7_el0);
	case 8:
		return read_sysreg(pmevtyper8_el0);
	case 9:
		return read_sysreg(pmevtyper9_el0);
	case 10:
		return read_sysreg(pmevtyper10_el0);
	case 11:
		return read_sysreg(pmevtyper11_el0);
	case 12:
		return read_sysreg(pmevtyper12_el0);
	case 13:
		return read_sysreg(pmevtyper13_el0);
	case 14:
		return read_sysreg(pmevtyper14_el0);
	case 15:
		return read_sysreg(pmevtyper15_el0);
	case 16:
		return read_sysreg(pmevtyper16_el0);
	case 17:
		return read_sysreg(pmevtyper17_el0);
	case 18:
		return read_sysreg(pmevtyper18_el0);
	case 19:
		return read_sysreg(pmevtyper19_el0);
	case 20:
		return read_sysreg(pmevtyper20_el0);
	case 21:
		return read_sysreg(pmevtyper21_el0);
	case 22:
		return read_sysreg(pmevtyper22_el0);
	case 23:
		return read_sysreg(pmevtyper23_el0);
	case 24:
		return read_sysreg(pmevtyper24_el0);
	case 25:
		return read_sysreg(pmevtyper25_el0);
	case 26:
		return read_sysreg(pmevtyper26_el0);
	case 27:
		return read_sysreg(pmevtyper27_el0);
	case 28:
		return read_sysreg(pmevtyper28_el0);
	case 29:
		return read_sysreg(pmevtyper29_el0);
	case 30:
		return read_sysreg(pmevtyper30_el0);
	default:
		return 0;
	}
}

void pmu_set_evtyper(unsigned int n, uint64_t v)
{
	switch (n) {
	case 0:
		write_sysreg(v, pmevtyper0_el0);
		break;
	case 1:
		write_sysreg(v, pmevtyper1_el0);
		break;
	case 2:
		write_sysreg(v, pmevtyper2_el0);
		break;
	case 3:
		write_sysreg(v, pmevtyper3_el0);
		break;
	case 4:
		write_sysreg(v, pmevtyper4_el0);
		break;
	case 5:
		write_sysreg(v, pmevtyper5_el0);
		break;
	case 6:
		write_sysreg(v, pmevtyper6_el0);
		break;
	case 7:
		write_sysreg(v, pmevtyper7_el0);
		break;
	case 8:
		write_sysreg(v, pmevtyper8_el0);
		break;
	case 9:
		write_sysreg(v, pmevtyper9_el0);
		break;
	case 10:
		write_sysreg(v, pmevtyper10_el0);
		break;
	case 11:
		write_sysreg(v, pmevtyper11_el0);
		break;
	case 12:
		write_sysreg(v, pmevtyper12_el0);
		break;
	case 13:
		write_sysreg(v, pmevtyper13_el0);
		break;
	case 14:
		write_sysreg(v, pmevtyper14_el0);
		break;
	case 15:
		write_sysreg(v, pmevtyper15_el0);
		break;
	case 16:
		write_sysreg(v, pmevtyper16_el0);
		break;
	case 17:
		write_sysreg(v, pmevtyper17_el0);
		break;
	case 18:
		write_sysreg(v, pmevtyper18_el0);
		break;
	case 19:
		write_sysreg(v, pmevtyper19_el0);
		break;
	case 20:
		write_sysreg(v, pmevtyper20_el0);
		break;
	case 21:
		write_sysreg(v, pmevtyper21_el0);
		break;
	case 22:
		write_sysreg(v, pmevtyper22_el0);
		break;
	case 23:
		write_sysreg(v, pmevtyper23_el0);
		break;
	case 24:
		write_sysreg(v, pmevtyper24_el0);
		break;
	case 25:
		write_sysreg(v, pmevtyper25_el0);
		break;
	case 26:
		write_sysreg(v, pmevtyper26_el0);
		break;
	case 27:
		write_sysreg(v, pmevtyper27_el0);
		break;
	case 28:
		write_sysreg(v, pmevtyper28_el0);
		break;
	case 29:
		write_sysreg(v, pmevtyper29_el0);
		break;
	case 30:
		write_sysreg(v, pmevtyper30_el0);
		break;
	default:
		break;
	}
}

unsigned int pmu_n(void)
{
	return (unsigned int)FIELD(read_sysreg(pmcr_el0), 15, 11);
}

uint64_t pmu_mask(void)
{
	return (BIT(pmu_n()) - 1) | CYCLE_BIT;
}

bool pmu_cycles_denied(void)
{
	return arg_str("deny") && arg_u64("deny", 0) == EVT_CYCLES;
}

unsigned int pmu_ver(void)
{
	return (unsigned int)FIELD(read_sysreg(id_aa64dfr0_el1), 11, 8);
}

bool pmu_is_v3(void)
{
	return pmu_ver() != 0 && pmu_ver() != 0xf;
}

void pmu_quiesce(void)
{
	unsigned int n = pmu_n();

	write_sysreg(read_sysreg(pmcr_el0) & ~PMCR_E, pmcr_el0);
	/* Bits [31:0] only: [63:32] are RES0 in the set/clear registers (Arm DDI 0487 K.a I5.3),
	 * and vperf counts a guest that sets them as a bad value. */
	write_sysreg(0xffffffffull, pmcntenclr_el0);
	write_sysreg(0xffffffffull, pmintenclr_el1);
	write_sysreg(0xffffffffull, pmovsclr_el0);
	write_sysreg(0, pmuserenr_el0);
	for (unsigned int i = 0; i < n; i++) {
		pmu_set_evtyper(i, 0);
		pmu_set_evcntr(i, 0);
	}
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(0, pmccntr_el0);
	isb();
}
