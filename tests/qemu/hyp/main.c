// SPDX-License-Identifier: MIT
/*
 * Boot and the trap dispatcher of the reference hypervisor. hyp_main() runs once at EL2 with
 * the MMU on: it reads the host device tree QEMU passed in x0 (libfdt), brings up the console,
 * the GIC and vperf, creates the VMs the command line (/chosen/bootargs) describes and starts
 * the scheduler. Every later entry comes from a guest through hyp_trap().
 */
#include <libfdt.h>

#include "hyp.h"

struct hyp hyp;

void hyp_lock(void)
{
	uint32_t busy;

	do {
		__asm__ volatile("	sevl\n"
				 "1:	wfe\n"
				 "	ldaxr	%w0, [%1]\n"
				 "	cbnz	%w0, 1b\n"
				 "	stxr	%w0, %w2, [%1]\n"
				 : "=&r"(busy)
				 : "r"(&hyp.lock), "r"(1u)
				 : "memory");
	} while (busy);
}

void hyp_unlock(void)
{
	__asm__ volatile("stlr wzr, [%0]" : : "r"(&hyp.lock) : "memory");
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	char buf[256];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	uart_puts(prefix);
	uart_puts(buf);
	uart_puts("\n");
}

void hyp_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("vperf-hyp: ", fmt, ap);
	va_end(ap);
}

/* Power off through PSCI SYSTEM_OFF. QEMU without EL3 implements PSCI itself on SMC from EL2
 * (its DT says method = "smc" with virtualization=on). */
static void __attribute__((noreturn)) system_off(void)
{
	register uint64_t x0 __asm__("x0") = 0x84000008;

	__asm__ volatile("smc #0" : "+r"(x0) : : "memory");
	for (;;)
		wfi();
}

void hyp_shutdown(void)
{
	system_off();
}

void hyp_panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("vperf-hyp: PANIC: ", fmt, ap);
	va_end(ap);
	system_off();
}

void hyp_panic_exception(unsigned int kind)
{
	hyp_panic("EL2 exception kind %u ESR %lx ELR %lx FAR %lx", kind, read_sysreg(esr_el2),
		  read_sysreg(elr_el2), read_sysreg(far_el2));
}

/* Physical interrupts: everything routes to EL2 while a guest runs (HCR_EL2.IMO). */
static struct vcpu *handle_irq(struct vcpu *v)
{
	uint32_t intid = gic_ack();

	if (intid >= INTID_SPURIOUS)
		return v;
	switch (intid) {
	case INTID_HYPTIM:
		gic_eoi(intid);
		s2_tick();
		return sched_tick(v);
	case INTID_SPE:
		spe_pmbirq();
		break;
	case INTID_PMU:
		if (hyp.bench)
			pmu_host_bench_pmuirq();
		if (!vperf_handle_pmu_irq(&this_pcpu()->vperf))
			hyp_log("PMUIRQ with no overflow flag taken");
		break;
	case INTID_VTIMER:
	case INTID_PTIMER:
		timers_sync(v); /* a line is high: masks its physical PPI until it drops */
		break;
	case INTID_KICK:
		break; /* the exit itself was the point: vgic_flush() below */
	case INTID_MAINT:
		vgic_sync(v); /* a level interrupt was deactivated: resample its line */
		break;
	default:
		hyp_log("unexpected interrupt %u", intid);
		break;
	}
	gic_eoi(intid);
	return v;
}

struct vcpu_regs *hyp_trap(struct vcpu_regs *regs, unsigned int kind)
{
	struct vcpu *v = (struct vcpu *)(void *)regs; /* regs is its first member */
	struct vcpu *next;

	hyp_lock();
	/* PMUIRQ latency probe (make bench): from a physical interrupt's entry to its LR write. */
	if (kind == TRAP_IRQ && hyp.bench)
		pmu_host_bench_mark(v, 0x100);
	v->exits++;
	vgic_sync(v);
	timers_sync(v);
	switch (kind) {
	case TRAP_SYNC:
		next = trap_sync(v);
		break;
	case TRAP_IRQ:
		next = handle_irq(v);
		break;
	default:
		next = sched_stop_vm(v, kind == TRAP_FIQ ? "FIQ" : "SError");
		break;
	}
	timers_sync(next);
	vgic_flush(next);
	sched_enter();
	if (kind == TRAP_IRQ && hyp.bench)
		pmu_host_bench_mark(v, 0x102);
	hyp_unlock();
	return &next->regs;
}

/* Host devices from QEMU's device tree; QEMU virt's fixed addresses when a node is missing. */
static uint64_t dt_reg(const void *fdt, const char *compat, unsigned int idx, uint64_t dflt)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, compat);
	int len;
	const fdt32_t *reg = node < 0 ? NULL : fdt_getprop(fdt, node, "reg", &len);

	if (!reg || len < (int)((idx + 1) * 16))
		return dflt;
	return (uint64_t)fdt32_to_cpu(reg[idx * 4]) << 32 | fdt32_to_cpu(reg[idx * 4 + 1]);
}

static const char *dt_bootargs(const void *fdt)
{
	int node = fdt_path_offset(fdt, "/chosen");
	const char *args = node < 0 ? NULL : fdt_getprop(fdt, node, "bootargs", NULL);

	return args ? args : "";
}

void hyp_main(uint64_t dtb);
void hyp_main(uint64_t dtb)
{
	const void *fdt = (const void *)dtb;
	const char *args = "";

	if (fdt_check_header(fdt) == 0) {
		hyp.uart = dt_reg(fdt, "arm,pl011", 0, 0x09000000);
		hyp.gicd = dt_reg(fdt, "arm,gic-v3", 0, 0x08000000);
		hyp.gicr = dt_reg(fdt, "arm,gic-v3", 1, 0x080a0000);
		args = dt_bootargs(fdt);
	} else {
		hyp.uart = 0x09000000;
		hyp.gicd = 0x08000000;
		hyp.gicr = 0x080a0000;
	}
	for (unsigned int i = 0; i < MAX_PCPUS; i++)
		hyp.pcpus[i].id = i;
	uart_init(hyp.uart);
	hyp_log("EL2, MMU on; GICD %lx GICR %lx UART %lx; args '%s'", hyp.gicd, hyp.gicr, hyp.uart,
		args);
	gic_init();
	vgic_init_hw();
	hyp_log("GICv3 virtual CPU interface: %u list registers, ICH_VTR_EL2 %lx; CNTFRQ %lu Hz",
		hyp.nr_lrs, read_sysreg(ich_vtr_el2), read_sysreg(cntfrq_el0));
	vm_parse_args(args);
	pmu_host_init();
	/* Every pCPU up and told to vperf before the first VM: vperf shows a VM what the pCPUs
	 * initialised so far have in common and refuses one initialised later that lacks some of
	 * it (vperf_pcpu_init), such as a common event of another cluster's cores (big.LITTLE,
	 * the smp-clusters configurations). */
	sched_smp_boot();
	vm_create_all();
	__atomic_store_n(&hyp.vms_ready, true, __ATOMIC_RELEASE);
	sched_start();
}

/* A secondary pCPU (head.S secondary_entry, started by sched_smp_boot): its GIC redistributor
 * and CPU interface, EL2 controls, vperf_pcpu, then, once the VMs exist, its scheduler. */
void hyp_secondary_main(uint64_t cpu);
void hyp_secondary_main(uint64_t cpu)
{
	hyp_lock();
	if ((read_sysreg(mpidr_el1) & (MAX_PCPUS - 1)) != cpu)
		hyp_panic("pCPU %lu has MPIDR %lx", cpu, read_sysreg(mpidr_el1));
	gic_cpu_init();
	vgic_init_hw();
	virt_init_el2();
	pmu_host_cpu_init();
	hyp_log("pCPU %lu online: GICR %lx", cpu, this_pcpu()->gicr);
	__atomic_store_n(&this_pcpu()->online, true, __ATOMIC_RELEASE);
	hyp_unlock();
	while (!__atomic_load_n(&hyp.vms_ready, __ATOMIC_ACQUIRE))
		__asm__ volatile("yield");
	sched_start();
}
