// SPDX-License-Identifier: MIT
/*
 * VM configuration from the hypervisor's command line (QEMU -append, /chosen/bootargs), into
 * hyp.vms[] and the hypervisor's knobs; vm.c creates the VMs from it.
 *
 *   slice_us=N  host_counters=K  bench=1  mutant=no-trap|no-put|no-irq|passthrough|no-s2map|
 *   same-context
 *   pcpus=N (physical CPUs to use, QEMU -smp N)  migrate_every=N (slices before a vCPU moves on)
 *   hpmn_expect=0|1 (the boot-time probe of MDCR_EL2.HPMN at EL1, hpmn_probe.c, must find it
 *   unenforced / enforced: RESULT host hpmn-probe; the probe's answer goes to vperf either way)
 *   mutant=hpmn-unenforced (the probe runs with nothing hidden: it measures a PE ignoring HPMN)
 *   vmI.img=K (image slot, staged by QEMU -device loader at IMAGE_SLOT_PA(K))
 *   vmI.initrd=K (slot K holds an initramfs, a newc cpio archive: /chosen linux,initrd-*)
 *   vmI.pmu=off|self|hv|all  vmI.part=trapped|direct|emulated  vmI.n=COUNTERS  vmI.cpus=N
 *   vmI.slots=K (emulated partition: physical counters its counters are multiplexed onto)
 *   vmI.deny=E+E (event numbers the VM's filter denies, 0x for hexadecimal, at most 4; the rest
 *   allowed)
 *   vmI.spe=1|trapped|untrapped|outside (SPE, its Profiling Buffer policy; docs/vspe.md)
 *   vmI.spe_pa=1, vmI.spe_pct=1 (the SPE policy grants physical addresses, physical time)
 *   vmI.cntvoff=N (CNTVOFF_EL2 while the VM runs: its virtual count is the physical one - N)
 *   vmI.s2=lazy (RAM mapped at stage 2 on its first fault, mm.c)  s2_scrub=N (every N slices the
 *   lazy VMs' RAM is unmapped again)
 *   vmI.mem=MiB  vmI.uart=emu|pt  vmI.args=a,b,c (the guest's bootargs, commas become spaces,
 *   %XX is a byte in hexadecimal: %2C a comma; at most ARGS_MAX - 1 bytes, else the VM is refused)
 *   vmI.expect=refused (the VM must be refused, for its bootargs or by vperf for its policy:
 *   reported PASS when it is)
 */
#include "hyp.h"

#include <xen/xen.h>

#define SLICE_US_MIN 10u /* a slice lets a guest run at least this long after its entry */

static bool starts(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* vmI.args: the guest's bootargs, up to the next space of the hypervisor's own command line. ','
 * separates the guest's arguments (a space); %XX is the byte of hexadecimal XX, so %2C is a
 * comma inside an argument, %20 a space, %25 a '%'. Longer than ARGS_MAX - 1: refused (false). */
static bool copy_arg(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	for (; *src && *src != ' '; src++) {
		char c = *src == ',' ? ' ' : *src;

		if (c == '%' && hex_digit(src[1]) >= 0 && hex_digit(src[2]) >= 0) {
			c = (char)(hex_digit(src[1]) << 4 | hex_digit(src[2]));
			src += 2;
		}
		if (n + 1 >= cap) {
			dst[n] = '\0';
			return false;
		}
		dst[n++] = c;
	}
	dst[n] = '\0';
	return true;
}

static void parse_pmu(struct vm_config *c, const char *v)
{
	c->pmu = !strncmp(v, "self", 4)	 ? VPERF_PMU_SELF
		 : !strncmp(v, "hv", 2)	 ? VPERF_PMU_HV
		 : !strncmp(v, "all", 3) ? VPERF_PMU_ALL
					 : VPERF_PMU_OFF;
}

static void parse_part(struct vm_config *c, const char *v)
{
	c->part = !strncmp(v, "direct", 6)     ? VPERF_PART_DIRECT
		  : !strncmp(v, "emulated", 8) ? VPERF_PART_EMULATED
					       : VPERF_PART_TRAPPED;
}

static void parse_deny(struct vm_config *c, const char *v)
{
	const char *end;

	c->nr_deny = 0;
	while (c->nr_deny < sizeof(c->deny) / sizeof(c->deny[0])) {
		c->deny[c->nr_deny] = (uint32_t)parse_u64(v, &end);
		if (end == v)
			break;
		c->nr_deny++;
		if (*end != '+')
			break;
		v = end + 1;
	}
}

static void parse_vm_key(struct vm_config *c, const char *k)
{
	const char *v;

	if (starts(k, "img=", &v))
		c->image = (int)parse_u64(v, NULL);
	else if (starts(k, "initrd=", &v))
		c->initrd = (int)parse_u64(v, NULL);
	else if (starts(k, "pmu=", &v))
		parse_pmu(c, v);
	else if (starts(k, "part=", &v))
		parse_part(c, v);
	else if (starts(k, "n=", &v))
		c->counters = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "deny=", &v))
		parse_deny(c, v);
	else if (starts(k, "slots=", &v))
		c->emu_slots = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "cpus=", &v))
		c->vcpus = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "mem=", &v))
		c->mem = parse_u64(v, NULL) << 20;
	else if (starts(k, "spe", &v))
		spe_parse(c, v);
	else if (starts(k, "cntvoff=", &v))
		c->cntvoff = parse_u64(v, NULL);
	else if (starts(k, "s2=", &v))
		c->s2_lazy = !strncmp(v, "lazy", 4);
	else if (starts(k, "uart=", &v))
		c->uart_passthrough = !strncmp(v, "pt", 2);
	else if (starts(k, "expect=", &v))
		c->expect_refused = !strncmp(v, "refused", 7);
	else if (starts(k, "args=", &v))
		c->args_too_long = !copy_arg(c->args, sizeof(c->args), v);
}

static void parse_token(const char *t)
{
	const char *v;

	if (starts(t, "slice_us=", &v)) {
		uint64_t us = parse_u64(v, NULL);

		if (us < SLICE_US_MIN) {
			hyp_log("slice_us=%lu: below %u us, %u us used", us, SLICE_US_MIN,
				SLICE_US_MIN);
			us = SLICE_US_MIN;
		}
		hyp.slice_ticks = us * (read_sysreg(cntfrq_el0) / 1000000);
	} else if (starts(t, "host_counters=", &v)) {
		hyp.host_counters = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "mutant=", &v)) {
		hyp.mutant = !strncmp(v, "no-trap", 7)		  ? MUT_NO_TRAP
			     : !strncmp(v, "no-put", 6)		  ? MUT_NO_PUT
			     : !strncmp(v, "no-irq", 6)		  ? MUT_NO_IRQ
			     : !strncmp(v, "passthrough", 11)	  ? MUT_PASSTHROUGH
			     : !strncmp(v, "no-s2map", 8)	  ? MUT_NO_S2MAP
			     : !strncmp(v, "same-context", 12)	  ? MUT_SAME_CONTEXT
			     : !strncmp(v, "hpmn-unenforced", 15) ? MUT_HPMN_UNENFORCED
								  : MUT_NONE;
		hyp_log("MUTANT %u: a deliberately broken integration", hyp.mutant);
	} else if (starts(t, "hpmn_expect=", &v)) {
		hyp.hpmn_expect = parse_u64(v, NULL) != 0;
	} else if (starts(t, "pcpus=", &v)) {
		hyp.nr_pcpus = (unsigned int)parse_u64(v, NULL);
		if (hyp.nr_pcpus < 1 || hyp.nr_pcpus > MAX_PCPUS)
			hyp_panic("pcpus=%u: 1 to %u", hyp.nr_pcpus, MAX_PCPUS);
	} else if (starts(t, "migrate_every=", &v)) {
		hyp.migrate_every = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "s2_scrub=", &v)) {
		hyp.s2_scrub = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "bench=", &v)) {
		hyp.bench = parse_u64(v, NULL) != 0;
	} else if (starts(t, "loglevel=", &v)) {
		hyp.loglevel = (enum vperf_log_level)parse_u64(v, NULL);
	} else if (t[0] == 'v' && t[1] == 'm' && t[2] >= '0' && t[2] < '0' + MAX_VMS &&
		   t[3] == '.') {
		unsigned int i = (unsigned int)(t[2] - '0');

		parse_vm_key(&hyp.vms[i].cfg, t + 4);
		if (i + 1 > hyp.nr_vms)
			hyp.nr_vms = i + 1;
	}
}

const char *pmu_mode_name(enum vperf_pmu_mode mode)
{
	return mode == VPERF_PMU_OFF	? "OFF"
	       : mode == VPERF_PMU_SELF ? "SELF"
	       : mode == VPERF_PMU_HV	? "HV"
	       : mode == VPERF_PMU_ALL	? "ALL"
					: "?";
}

void vm_parse_args(const char *args)
{
	hyp.slice_ticks = read_sysreg(cntfrq_el0) / 1000; /* 1 ms */
	hyp.host_counters = 2;
	hyp.nr_pcpus = 1;
	hyp.hpmn_expect = -1;
	for (unsigned int i = 0; i < MAX_VMS; i++) {
		struct vm_config *c = &hyp.vms[i].cfg;

		c->image = -1;
		c->initrd = -1;
		c->vcpus = 1;
		c->counters = 2;
		c->mem = 64ull << 20;
	}
	while (*args) {
		while (*args == ' ')
			args++;
		if (*args)
			parse_token(args);
		while (*args && *args != ' ')
			args++;
	}
}
