// SPDX-License-Identifier: MIT
/*
 * Print the register database as AArch64 assembly, by register *name*: one MRS for each readable
 * register and one MSR for each writable one, in database order. Assembling it with
 * aarch64-linux-gnu-as gives the encodings binutils knows; test_regdb compares them with the
 * database's numbers.
 */
#include <stdio.h>

#include <vperf/sysreg.h>

#include "regdb_asm.h"

int main(void)
{
	puts("\t.text");
#define SYSREG(name, op0, op1, crn, crm, op2, acc, ...) \
	if (regdb_asm_known(#name)) {                   \
		if (VPERF_ACC_##acc & VPERF_ACC_RO)     \
			puts("\tmrs x0, " #name);       \
		if (VPERF_ACC_##acc & VPERF_ACC_WO)     \
			puts("\tmsr " #name ", x0");    \
	}
#include <vperf/sysregs.def>
#undef SYSREG
	return 0;
}
