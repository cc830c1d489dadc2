/* SPDX-License-Identifier: MIT */
/* Shared by the assembler cross-check's generator and its test. */
#ifndef VPERF_TEST_REGDB_ASM_H
#define VPERF_TEST_REGDB_ASM_H

#include <string.h>

/* Database registers Debian's binutils 2.40 has no name for (newer than its tables): their
 * encodings come from the Arm DDI 0487 K.a System register index and are checked by the golden
 * vectors in test_regdb.c instead. */
static const char *const regdb_asm_unknown[] = { "PMZR_EL0",	  "PMSDSFR_EL1", "PMICNTR_EL0",
						 "PMICFILTR_EL0", "PMUACR_EL1",	 "HDFGRTR2_EL2",
						 "HDFGWTR2_EL2" };

static inline int regdb_asm_known(const char *name)
{
	for (size_t i = 0; i < sizeof(regdb_asm_unknown) / sizeof(regdb_asm_unknown[0]); i++)
		if (!strcmp(name, regdb_asm_unknown[i]))
			return 0;
	return 1;
}

#endif
