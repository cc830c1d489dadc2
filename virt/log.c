// SPDX-License-Identifier: MIT
/* Log lines to the hypervisor, through ops->log when it has one. */
#include "fmt.h"
#include "log.h"
#include "ops.h"

void vperf_log(enum vperf_log_level level, const char *msg)
{
	if (vperf_ops && vperf_ops->log)
		vperf_ops->log(level, msg);
}

/* A guest can repeat a mistake at every schedule-in (Linux 6.1 writes its event number into
 * PMCCFILTR_EL0's RES0 bits): a VM's 1st, 2nd, 4th, 8th... notice is logged, every one is
 * counted in its statistics. */
static bool notice_due(struct vperf_vm *vm)
{
	uint32_t n = ++vm->notices;

	return (n & (n - 1)) == 0;
}

void vperf_log_notice(struct vperf_vm *vm, const char *msg)
{
	if (notice_due(vm))
		vperf_log(VPERF_LOG_NOTICE, msg);
}

/* The trap control a new register in the PMU/SPE space most likely has: PMB* sit at CRn=9,
 * CRm=10 (E2PB), PMS* at CRm=9 (TPMS), everything else is a PMU register (TPM). */
static const char *guess_trap(uint32_t enc)
{
	if (VPERF_ENC_CRN(enc) == 9 && VPERF_ENC_OP1(enc) == 0 && VPERF_ENC_CRM(enc) == 9)
		return "TPMS";
	if (VPERF_ENC_CRN(enc) == 9 && VPERF_ENC_OP1(enc) == 0 && VPERF_ENC_CRM(enc) == 10)
		return "E2PB";
	return "TPM";
}

static void fmt_enc_name(struct fmt *f, uint32_t enc)
{
	vperf_fmt_str(f, "S");
	vperf_fmt_dec(f, VPERF_ENC_OP0(enc));
	vperf_fmt_str(f, "_");
	vperf_fmt_dec(f, VPERF_ENC_OP1(enc));
	vperf_fmt_str(f, "_C");
	vperf_fmt_dec(f, VPERF_ENC_CRN(enc));
	vperf_fmt_str(f, "_C");
	vperf_fmt_dec(f, VPERF_ENC_CRM(enc));
	vperf_fmt_str(f, "_");
	vperf_fmt_dec(f, VPERF_ENC_OP2(enc));
}

static void fmt_enc_fields(struct fmt *f, uint32_t enc)
{
	const uint32_t field[5] = { VPERF_ENC_OP0(enc), VPERF_ENC_OP1(enc), VPERF_ENC_CRN(enc),
				    VPERF_ENC_CRM(enc), VPERF_ENC_OP2(enc) };

	for (unsigned int i = 0; i < 5; i++) {
		vperf_fmt_str(f, ", ");
		vperf_fmt_dec(f, field[i]);
	}
}

/* "unknown sysreg S3_3_C9_C13_5 (MRS x3); add to sysregs.def: SYSREG(S3_3_C9_C13_5, 3, 3, 9,
 * 13, 5, RW, TPM, PMUV3, 0x0ull, 0x0, NONE, NONE, NONE, NONE)": the line to paste once the
 * register is named. */
void vperf_log_unknown_sysreg(struct vperf_vm *vm, const struct vperf_esr_sysreg *a)
{
	const char *trap = guess_trap(a->enc);
	char buf[192];
	struct fmt f;

	if (!notice_due(vm))
		return;
	vperf_fmt_init(&f, buf, sizeof(buf));
	vperf_fmt_str(&f, "vperf: unknown sysreg ");
	fmt_enc_name(&f, a->enc);
	vperf_fmt_str(&f, a->read ? " (MRS x" : " (MSR x");
	vperf_fmt_dec(&f, a->rt);
	vperf_fmt_str(&f, "); add to sysregs.def: SYSREG(");
	fmt_enc_name(&f, a->enc);
	fmt_enc_fields(&f, a->enc);
	vperf_fmt_str(&f, ", RW, ");
	vperf_fmt_str(&f, trap);
	vperf_fmt_str(&f, trap[0] == 'T' && trap[3] == '\0' ? ", PMUV3" : ", SPE");
	vperf_fmt_str(&f, ", 0x0ull, 0x0, NONE, NONE, NONE, NONE)");
	vperf_log(VPERF_LOG_NOTICE, buf);
}

/* "vperf: guest wrote RES0 bits 0x100 of PMCR_EL0 (value 0x141): ignored" */
void vperf_log_bad_bits(struct vperf_vm *vm, const struct vperf_sysreg_desc *desc, uint64_t val,
			uint64_t bad)
{
	char buf[128];
	struct fmt f;

	if (!notice_due(vm))
		return;
	vperf_fmt_init(&f, buf, sizeof(buf));
	vperf_fmt_str(&f, "vperf: guest wrote RES0 bits ");
	vperf_fmt_hex(&f, bad, 1);
	vperf_fmt_str(&f, " of ");
	vperf_fmt_str(&f, desc->name);
	vperf_fmt_str(&f, " (value ");
	vperf_fmt_hex(&f, val, 1);
	vperf_fmt_str(&f, "): ignored");
	vperf_log(VPERF_LOG_NOTICE, buf);
}
