/* SPDX-License-Identifier: MIT */
/*
 * The reference hypervisor's objects: VMs, vCPUs and the state it switches. Each physical CPU
 * runs the vCPUs whose home it is round-robin (sched.c); vperf is called exactly where a
 * production hypervisor would call it (docs/integration.md).
 */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include <vperf/vperf.h>

#include "../lib/arm.h"
#include "../lib/lib.h"
#include "asm.h"
#include "platform.h"

#define MAX_VCPUS_PER_VM 4
#define MAX_LRS		 16
#define MAX_PCPUS	 4
#define ARGS_MAX	 2048 /* a guest's bootargs with the NUL: Linux's arm64 COMMAND_LINE_SIZE */

/* INTIDs (GICv3, Arm IHI 0069: PPI n = INTID 16 + n). */
#define INTID_KICK     0 /* physical SGI: another pCPU made an interrupt pending for our vCPU */
#define INTID_SPURIOUS 1023
#define VUART_SPI      33 /* the PL011's interrupt in the guest DT: never raised (vgic_mmio.c) */

struct vcpu_regs {
	uint64_t x[31];
	uint64_t elr;
	uint64_t spsr;
	uint64_t pad;
};

struct fpsimd {
	uint64_t v[64];
	uint64_t fpsr, fpcr;
} __attribute__((aligned(16)));

/* The EL1 System registers a guest owns, switched with the vCPU. */
struct el1_ctx {
	uint64_t sctlr, ttbr0, ttbr1, tcr, mair, amair, vbar, elr, spsr, sp_el0, sp_el1, esr, far;
	uint64_t afsr0, afsr1, contextidr, tpidr_el0, tpidr_el1, tpidrro, par, cpacr, cntkctl;
	uint64_t csselr, mdscr, cntv_ctl, cntv_cval, cntp_ctl, cntp_cval;
};

/* The vGIC's view of one vCPU's SGIs and PPIs (INTID 0-31; no SPIs are given to guests). */
struct vgic_cpu {
	uint32_t enabled; /* GICR_ISENABLER0 as the guest set it */
	uint32_t level;	  /* level-sensitive lines that are high (PMU, timer) */
	uint32_t pending; /* edge-triggered pending (SGIs) not yet in a list register */
	uint32_t in_lr;	  /* INTIDs currently held by a list register */
	uint32_t group;	  /* GICR_IGROUPR0 */
	uint8_t prio[32];
	bool sleep; /* GICR_WAKER.ProcessorSleep */
	uint64_t lr[MAX_LRS];
	uint64_t vmcr, ap0r0, ap1r0;
	uint64_t injected; /* interrupts written to a list register, for the logs */
};

enum vcpu_state { VCPU_OFF, VCPU_RUNNABLE, VCPU_STOPPED };

struct vm;

struct vcpu {
	struct vcpu_regs regs; /* first: the vectors find it through TPIDR_EL2 */
	struct fpsimd fp;
	struct el1_ctx el1;
	struct vgic_cpu gic;
	struct vperf_vcpu vperf;
	struct vm *vm;
	unsigned int id;
	enum vcpu_state state;
	bool vtimer_hw_masked; /* physical PPI 27 disabled while its virtual timer line is high */
	bool ptimer_hw_masked; /* physical PPI 30 likewise for its EL1 physical timer */
	int on_pcpu;	       /* the pCPU it is loaded on (between load and put), -1: none */
	unsigned int home;     /* the pCPU whose scheduler runs it (sched.c) */
	unsigned int slices;   /* ticks on its home pCPU since it last migrated */
	unsigned int last_pcpu;
	bool blocked; /* in WFI: not run until an interrupt for it is pending (sched_wfi) */
	uint64_t exits, wfi_exits, switches;
	uint64_t sysreg_traps; /* MSR/MRS traps (EC 0x18) taken from this vCPU */
	uint64_t vperf_traps;  /* of those, the ones vperf_handle_sysreg() claimed */
};

struct vm_config {
	int image;  /* image slot, -1: none */
	int initrd; /* slot holding the initramfs (a newc cpio archive), -1: none */
	enum vperf_pmu_mode pmu;
	enum vperf_partition part;
	unsigned int counters;	/* guest PMCR_EL0.N */
	unsigned int emu_slots; /* emulated partition: physical counters to multiplex on, 0: all */
	unsigned int vcpus;
	uint64_t mem; /* bytes of guest RAM */
	bool uart_passthrough;
	bool spe; /* vmI.spe=1: ask vperf for SPE (refused on a PE without it) */
	enum vperf_spe_buffer spe_buffer; /* vmI.spe=trapped|untrapped|outside (1: default) */
	/* vmI.spe_pa=1, vmI.spe_pct=1: the policy grants physical addresses, physical time */
	bool spe_pa, spe_pct;
	bool s2_lazy;	  /* vmI.s2=lazy: RAM mapped at its first fault (mm.c) */
	uint64_t cntvoff; /* vmI.cntvoff=N: CNTVOFF_EL2 while the VM runs (virtual time) */
	uint32_t deny[4]; /* vmI.deny=E+E: events the VM's filter denies */
	unsigned int nr_deny;
	bool expect_refused; /* vmI.expect=refused: the VM must be refused (bootargs, policy) */
	bool args_too_long;  /* vmI.args did not fit in args[]: the VM is refused */
	char args[ARGS_MAX]; /* the guest's /chosen/bootargs */
};

struct vm {
	unsigned int id;
	struct vm_config cfg;
	struct vperf_vm vperf;
	bool has_vpmu; /* vperf accepted the policy */
	uint64_t ram_pa;
	uint64_t vttbr;
	uint64_t *s2_l1;
	struct vcpu vcpus[MAX_VCPUS_PER_VM];
	unsigned int nr_vcpus;
	bool running;
	char line[160]; /* console line being assembled by the emulated PL011 */
	unsigned int line_len;
	uint64_t dtb_ipa, entry_ipa;
	uint64_t initrd_ipa, initrd_size; /* in guest RAM, for /chosen (0: none) */
	/* Stage 2 with vmI.s2=lazy: pages mapped at the guest's own faults, for vperf (its
	 * Profiling Buffer: stage2_map), and taken away by s2_scrub (mm.c, spe.c) */
	uint64_t s2_cpu_maps, s2_spe_maps, s2_walk_maps, s2_unmapped;
};

/* Deliberately broken integrations (bootargs mutant=...), for proving that the guest suite
 * notices: vperf's emulation removed, its switch skipped, its interrupt dropped, no vperf at
 * all (the guest touches the physical PMU), the stage2_map op refusing every range (a guest's
 * buffer stage 2 fault is then never recovered), or every VM profiled from outside given the
 * same spe_context (its records can no longer be told apart), the boot-time HPMN probe run
 * with nothing hidden (hpmn_probe.c: it measures a PE that ignores HPMN). Never set in a real
 * configuration. */
enum mutant {
	MUT_NONE,
	MUT_NO_TRAP,
	MUT_NO_PUT,
	MUT_NO_IRQ,
	MUT_PASSTHROUGH,
	MUT_NO_S2MAP,
	MUT_SAME_CONTEXT,
	MUT_HPMN_UNENFORCED
};

/* One physical CPU: what it runs, its vperf object, its redistributor. Touched by its own CPU
 * only, except `current`, which every scheduler reads under hyp.lock. */
struct pcpu {
	unsigned int id; /* MPIDR_EL1.Aff0 */
	struct vcpu *current;
	struct vperf_pcpu vperf;
	uint64_t gicr;
	uint64_t ticks;
	bool online;
	bool new_slice;	    /* arm the slice timer at the next entry into a guest (sched_enter) */
	bool hpmn_enforced; /* the boot-time probe found HPMN enforced at EL1 (hpmn_probe.c) */
};

struct hyp {
	enum mutant mutant;
	struct vm vms[MAX_VMS];
	unsigned int nr_vms;
	struct pcpu pcpus[MAX_PCPUS];
	unsigned int nr_pcpus;	    /* pcpus=N (default 1; QEMU -smp N) */
	unsigned int migrate_every; /* migrate_every=N: a vCPU moves on after N slices, 0: never */
	uint32_t lock;		    /* the big hypervisor lock: every trap holds it (main.c) */
	uint64_t gicd, gicr, uart;
	unsigned int nr_lrs;
	uint64_t slice_ticks;
	unsigned int host_counters;
	int hpmn_expect; /* hpmn_expect=0|1: the probe must find HPMN unenforced / enforced
			  * (RESULT host hpmn-probe); -1: no verdict, the log line only */
	bool bench;
	unsigned int s2_scrub; /* s2_scrub=N: lazy VMs lose their RAM mappings every N slices */
	enum vperf_log_level loglevel; /* loglevel=N: vperf's lines printed up to N (default 0) */
	uint64_t ticks;
	bool vms_ready; /* the VMs exist: the secondary pCPUs may schedule (main.c) */
};

extern struct hyp hyp;

/* The pCPU we run on (QEMU virt numbers CPUs by Aff0; pcpus=N is at most MAX_PCPUS). */
static inline struct pcpu *this_pcpu(void)
{
	return &hyp.pcpus[read_sysreg(mpidr_el1) & (MAX_PCPUS - 1)];
}

/* main.c: a test-and-set spinlock on the exclusive instructions (no SIMD, no atomics
 * library); acquire on take, release on drop. */
void hyp_lock(void);
void hyp_unlock(void);

/* vectors.S */
void guest_enter(struct vcpu_regs *regs) __attribute__((noreturn));
void fpsimd_save(struct fpsimd *fp);
void fpsimd_restore(const struct fpsimd *fp);

/* main.c */
void hyp_panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void hyp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* vm.c: the name of a XENPMU mode as the banners print it (OFF, SELF, HV, ALL). */
const char *pmu_mode_name(enum vperf_pmu_mode mode);
struct vcpu_regs *hyp_trap(struct vcpu_regs *regs, unsigned int kind);
void hyp_panic_exception(unsigned int kind) __attribute__((noreturn));
void hyp_shutdown(void) __attribute__((noreturn));

/* mm.c */
void stage2_build(struct vm *vm);
bool stage2_map_ram(struct vm *vm, uint64_t ipa, bool *now);
unsigned int stage2_unmap_ram(struct vm *vm);
void virt_init_el2(void);

/* spe.c: the SPE side of the ops contract, PMBIRQ, lazy stage 2, vmI.spe= */
void spe_parse(struct vm_config *c, const char *v);
int spe_guest_va_to_ipa(void *hv_vcpu, uint64_t va, uint64_t *ipa);
int spe_stage2_map(void *hv_vm, uint64_t ipa, uint64_t size);
void spe_pmbirq(void);
bool s2_lazy_fault(struct vcpu *v, uint64_t ipa);
void s2_tick(void);
void spe_report(void);

/* spe_outside.c: the hypervisor's own Profiling Buffer sampling vmI.spe=outside VMs */
bool spe_outside_wanted(void);
uint32_t spe_outside_context(const struct vm *vm);
void spe_outside_cpu_init(void);
bool spe_outside_irq(void);
void spe_outside_report(void);

/* gic.c: the physical GICv3 */
void gic_init(void);
void gic_cpu_init(void);
uint32_t gic_ack(void);
void gic_eoi(uint32_t intid);
void gic_ppi_enable(uint32_t intid, bool on);
void gic_kick(unsigned int pcpu);

/* vgic.c / vgic_mmio.c */
void vgic_init_hw(void);
void vgic_vcpu_init(struct vcpu *v);
void vgic_set_level(struct vcpu *v, uint32_t intid, bool level);
void vgic_raise_sgi(struct vcpu *v, uint32_t intid);
void vgic_sync(struct vcpu *v);
void vgic_flush(struct vcpu *v);
void vgic_save(struct vcpu *v);
void vgic_restore(struct vcpu *v);
bool vgic_mmio(struct vcpu *v, uint64_t ipa, bool write, unsigned int size, uint64_t *val);
void vgic_sgi1r(struct vcpu *v, uint64_t val);
uint32_t vgic_pending_mask(const struct vcpu *t);
uint32_t vgic_active_mask(const struct vcpu *t);
bool vgic_wakeup_pending(const struct vcpu *t);

/* vcpu.c */
void vcpu_reset(struct vcpu *v, uint64_t entry, uint64_t x0);
void vcpu_ctx_save(struct vcpu *v);
void vcpu_ctx_restore(struct vcpu *v);
void vcpu_inject_undef(struct vcpu *v);
void timers_sync(struct vcpu *v);
bool vcpu_wakeup(const struct vcpu *v);

/* sched.c */
void sched_start(void) __attribute__((noreturn));
void sched_smp_boot(void);
struct vcpu *sched_tick(struct vcpu *cur);
struct vcpu *sched_yield(struct vcpu *cur);
struct vcpu *sched_wfi(struct vcpu *cur);
struct vcpu *sched_stop_vm(struct vcpu *cur, const char *why);
void sched_switch_to(struct vcpu *next);
void sched_enter(void);
unsigned int vm_index(const struct vm *vm);

/* trap.c, psci.c, vuart.c */
struct vcpu *trap_sync(struct vcpu *v);
void trap_report_vm(const struct vm *vm);
struct vcpu *psci_call(struct vcpu *v, bool smc);
bool vuart_mmio(struct vcpu *v, bool write, uint64_t off, uint64_t *val);
void vuart_flush(struct vm *vm);

/* vm.c, guest_dt.c */
void vm_parse_args(const char *bootargs);
void vm_create_all(void);
int guest_dt_build(struct vm *vm, void *buf, size_t size);

/* pmu_host.c */
void pmu_host_init(void);
void pmu_host_cpu_init(void);
void pmu_host_idle(void);
void pmu_host_tick(const struct vcpu *prev);
void pmu_host_bench_vperf(bool load, uint64_t t0);
void pmu_host_bench_vm(const struct vcpu *v);
void pmu_host_bench_sysreg(uint64_t t0);
void pmu_host_report(void);
void pmu_host_bench_mark(struct vcpu *v, uint64_t what);
void pmu_host_bench_switch(uint64_t t0);
uint64_t pmu_host_el2_insns(void);
void pmu_host_bench_probe(uint64_t t0);
void pmu_host_bench_pmuirq(void);
/* pmu_bench.c: the set_irq_line op of a PMUIRQ (vperf's share ends there); the BENCH lines. */
void pmu_host_bench_irq_line(void);
void pmu_host_bench_report(void);
bool hpmn_probe(void);
void hpmn_report(void);
void trap_bench_calibrate(void);
void sched_reswitch(struct vcpu *v);
extern const struct vperf_hyp_ops hyp_vperf_ops;

#endif /* HYP_HYP_H */
