/* SPDX-License-Identifier: MIT */
/* Declarations shared by the virt/ modules; not part of the public API. */
#ifndef VPERF_INTERNAL_H
#define VPERF_INTERNAL_H

#include <vperf/esr.h>
#include <vperf/vperf.h>

extern const struct vperf_hyp_ops *vperf_ops;

#ifdef CONFIG_VPERF_STATS
#define STAT_INC(stats, field) ((stats)->field++)
#else
#define STAT_INC(stats, field) ((void)(stats))
#endif

/* One access being emulated: what a register handler sees. Handlers never touch guest GPRs:
 * perform_access() loads val for MSR and stores it for MRS. */
struct vperf_access {
	const struct vperf_sysreg_desc *desc;
	uint32_t enc;
	bool read;
	uint64_t val;
};

/* A handler returns true when the access was emulated, false for UNDEF. */
typedef bool (*vperf_access_fn)(struct vperf_vcpu *vcpu, struct vperf_access *acc);

/* Emulate one decoded access with fn (NULL: UNDEF): load the MSR value from gprs (XZR reads
 * as 0), call fn, store the MRS value (XZR discards it), advance the PC; UNDEF when fn refuses
 * or the register has no such direction. */
enum vperf_trap_result vperf_perform_access(struct vperf_vcpu *vcpu,
					    const struct vperf_sysreg_desc *desc,
					    const struct vperf_esr_sysreg *a, uint64_t gprs[31],
					    vperf_access_fn fn);

struct fmt {
	char *buf;
	size_t len, cap;
};
void vperf_fmt_init(struct fmt *f, char *buf, size_t cap);
void vperf_fmt_str(struct fmt *f, const char *s);
void vperf_fmt_dec(struct fmt *f, uint64_t v);
void vperf_fmt_hex(struct fmt *f, uint64_t v, unsigned int min_digits);

void vperf_log(enum vperf_log_level level, const char *msg);
/* vperf_handle_sysreg() without the fast path (virt/trap.c). */
enum vperf_trap_result vperf_handle_sysreg_full(struct vperf_vcpu *vcpu, uint64_t esr,
						uint64_t gprs[31]);
/* Recompute the loaded vCPU's MDCR_EL2 and write it if it changed. */
void vperf_update_mdcr(struct vperf_vcpu *vcpu);

/* One of the vCPU's MDCR_EL2 inputs changed while it is not loaded (its trap state, e.g. at
 * put): its next load computes the value again instead of reusing the cached one. */
static inline void vperf_mdcr_stale(struct vperf_vcpu *vcpu)
{
	vcpu->mdcr_pcpu = NULL;
}
/* A guest mistake with its architectural outcome: counted by the caller, logged rate-limited. */
void vperf_log_notice(struct vperf_vm *vm, const char *msg);
void vperf_log_unknown_sysreg(struct vperf_vm *vm, const struct vperf_esr_sysreg *a);
/* A guest wrote RES0 bits: it gets them ignored, the host a line saying which. */
/* The same for bits the VM's features make RES0 (bad: the bits that were ignored). */
void vperf_log_bad_bits(struct vperf_vm *vm, const struct vperf_sysreg_desc *desc, uint64_t val,
			uint64_t bad);

#endif /* VPERF_INTERNAL_H */
