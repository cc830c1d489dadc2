// SPDX-License-Identifier: MIT
/*
 * The RESULT lines of the FEAT_SPE checks (smoke.c at EL2, nspb.c at EL3), which
 * tests/qemu/spe/smoke.sh judges: "RESULT spe-<name> PASS|FAIL got=0x.. want=0x..".
 */
#include "smoke.h"

unsigned int smoke_failures;

void result(const char *name, int ok, uint64_t got, uint64_t want)
{
	if (!ok)
		smoke_failures++;
	printf("RESULT spe-%s %s got=0x%lx want=0x%lx\n", name, ok ? "PASS" : "FAIL",
	       (unsigned long)got, (unsigned long)want);
}

void expect(const char *name, uint64_t got, uint64_t want)
{
	result(name, got == want, got, want);
}
