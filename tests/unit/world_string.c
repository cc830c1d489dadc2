// SPDX-License-Identifier: MIT
/* The worlds of test_isolation_worlds (see world.h): a shrink applied to a drawn world, the
 * reproduction string of a seed and a shrink (parsed, formatted), and a world in words. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "world_priv.h"

static void simplify_vm(struct w_vm *vm, unsigned int bits)
{
	if (bits & W_SIMPLE_NO_SPE)
		vm->cfg.spe = false;
	if (bits & W_SIMPLE_EAGER)
		vm->put = HV_PUT_EAGER;
	if (bits & W_SIMPLE_ALLOW) {
		vperf_pmu_filter_allow_all(&vm->cfg.filter);
		vm->cfg.pmu_virq = vm->cfg.spe_virq = 0;
	}
	if (bits & W_SIMPLE_TRAPPED) {
		vm->cfg.partition = VPERF_PART_TRAPPED;
		vm->cfg.emu_slots = 0;
	}
}

static void simplify_cpu(struct w_cpu *cpu, unsigned int bits)
{
	if (bits & W_CPU_SIMPLE_NO_HOST_SPE)
		cpu->pc.host_spe = false;
	if (bits & W_CPU_SIMPLE_NO_AGENT) {
		cpu->pe.extpmn = false;
		cpu->pc.agent_counters = 0;
	}
	if (bits & W_CPU_SIMPLE_ENFORCED)
		cpu->pc.hpmn_unenforced = false;
	if (bits & W_CPU_SIMPLE_FEATURES)
		cpu->pe.fgt = cpu->pe.hpmn0 = true;
}

void world_apply(struct world *w, const struct w_shrink *s)
{
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		w->cpu[c].present = !(s->cpus >> c & 1);
		simplify_cpu(&w->cpu[c], s->cpu_simple >> (4 * c) & 15);
	}
	for (unsigned int v = 0; v < w->nr_vms; v++) {
		w->vm[v].present = !(s->vms >> v & 1);
		simplify_vm(&w->vm[v], s->vm_simple >> (4 * v) & 15);
	}
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		w->vcpu_present[i] = !(s->vcpus >> i & 1) && w->vm[w->vcpu_vm[i]].present;
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		w->slot_present[k] = !(s->slots[k / 64] >> (k % 64) & 1) &&
				     w->vcpu_present[w->slot[k].vcpu] &&
				     w->cpu[w->slot[k].cpu].present;
		w->slot[k].down &= !(s->ups[k / 64] >> (k % 64) & 1);
	}
	if (s->steps && s->steps < w->steps)
		w->steps = s->steps;
}

bool world_parse(const char *text, uint64_t *seed, struct w_shrink *s)
{
	unsigned long long slots0 = 0, slots1 = 0, ups0 = 0, ups1 = 0;
	unsigned int cpus = 0, vms = 0, vcpus = 0, steps = 0, vs = 0, cs = 0;
	int n, m = 0;

	memset(s, 0, sizeof(*s));
	if (sscanf(text, "%" SCNu64 "%n", seed, &n) != 1)
		return false;
	text += n;
	if (!*text)
		return true;
	if (sscanf(text, ":cpus=%x,vms=%x,vcpus=%x,slots=%llx:%llx,steps=%u,vs=%x,cs=%x%n", &cpus,
		   &vms, &vcpus, &slots0, &slots1, &steps, &vs, &cs, &m) != 8)
		return false;
	text += m;
	if (*text && (sscanf(text, ",ups=%llx:%llx%n", &ups0, &ups1, &m) != 2 || text[m]))
		return false;
	*s = (struct w_shrink){ .cpus = cpus,
				.vms = vms,
				.vcpus = vcpus,
				.slots = { slots0, slots1 },
				.steps = steps,
				.vm_simple = vs,
				.cpu_simple = cs,
				.ups = { ups0, ups1 } };
	return true;
}

void world_format(char *buf, size_t len, uint64_t seed, const struct w_shrink *s)
{
	snprintf(buf, len,
		 "%" PRIu64 ":cpus=%x,vms=%x,vcpus=%x,slots=%llx:%llx,steps=%u,vs=%x,cs=%x,"
		 "ups=%llx:%llx",
		 seed, s->cpus, s->vms, s->vcpus, (unsigned long long)s->slots[0],
		 (unsigned long long)s->slots[1], s->steps, s->vm_simple, s->cpu_simple,
		 (unsigned long long)s->ups[0], (unsigned long long)s->ups[1]);
}

static const char *mode_name(enum vperf_pmu_mode m)
{
	return m == VPERF_PMU_OFF    ? "OFF"
	       : m == VPERF_PMU_SELF ? "SELF"
	       : m == VPERF_PMU_HV   ? "HV"
				     : "ALL";
}

static const char *part_name(enum vperf_partition p)
{
	return p == VPERF_PART_TRAPPED	? "trapped"
	       : p == VPERF_PART_DIRECT ? "direct"
	       : p == VPERF_PART_SECOND ? "second"
					: "emulated";
}

static const char *spe_name(const struct vperf_vm_config *cfg)
{
	if (!cfg->spe)
		return "none";
	return cfg->spe_buffer == VPERF_SPE_BUF_EL1_TRAPPED ? "EL1 trapped"
	       : cfg->spe_buffer == VPERF_SPE_BUF_EL1	    ? "EL1 untrapped"
							    : "EL2 (outside)";
}

static const char *put_name(enum hv_put p)
{
	return p == HV_PUT_EAGER ? "eager" : p == HV_PUT_LAZY ? "lazy" : "mixed";
}

static void describe_filter(const struct vperf_pmu_filter *f, char *buf, size_t len)
{
	/* denied: denying it again changes nothing */
	buf[0] = 0;
	for (unsigned int k = 0; k < NR_FILTER_EVENTS; k++) {
		struct vperf_pmu_filter g = *f;

		vperf_pmu_filter_set(&g, filter_events[k], false);
		if (!memcmp(&g, f, sizeof(g))) {
			size_t l = strlen(buf);

			snprintf(buf + l, len - l, "%s0x%02x", l ? "," : "deny ", filter_events[k]);
		}
	}
	if (!buf[0])
		snprintf(buf, len, "allow all");
}

void world_describe(const struct world *w)
{
	char filter[64];

	printf("world %" PRIu64 ": %u pCPUs, %u VMs, %u vCPUs, %u steps each at most, E2H %u\n",
	       w->seed, w->nr_cpus, w->nr_vms, w->nr_vcpus, w->steps, w->e2h);
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		const struct w_cpu *p = &w->cpu[c];

		if (!p->present)
			continue;
		if (p->profile)
			printf("  pCPU %u: %s, MT %u\n", c, p->profile, p->pe.mt);
		printf("  pCPU %u: PMUVer %u N %u PMSVer %u%s PMSIDR %#" PRIx64 " PMBIDR %#" PRIx64
		       " ECV %u FGT %u HPMN0 %u AArch32 EL0 %u stalls %u EXTPMN %u "
		       "(agent %u) host_counters %u hpmn_unenforced %u host_spe %u%s\n",
		       c, p->pe.pmuver, p->pe.nr_counters, p->pe.pmsver,
		       p->pe.mdcr_el3_nspb_secure ? " (buffer EL3's)" : "", p->pe.pmsidr,
		       p->pe.pmbidr, p->pe.ecv, p->pe.fgt, p->pe.hpmn0, p->pe.aarch32_el0,
		       p->pe.stall_events, p->pe.extpmn, p->pc.agent_counters, p->pc.host_counters,
		       p->pc.hpmn_unenforced, p->pc.host_spe,
		       p->pc.host_writes_pmcr	 ? " host_el1 host_writes_pmcr"
		       : !p->pc.host_first_range ? ""
		       : p->pc.host_el1		 ? " host_first_range host_el1"
						 : " host_first_range");
		if (p->pe.icntr || p->pe.fgt2)
			printf("  pCPU %u: ICNTR %u FGT2 %u\n", c, p->pe.icntr, p->pe.fgt2);
		if (p->pc.hyp_writes_mdcr || p->pc.host_mdcr || p->pc.host_hdfgrtr ||
		    p->pc.host_hdfgwtr)
			printf("  pCPU %u: hyp_writes_mdcr %u, host_mdcr %#" PRIx64
			       ", host HDFGRTR/HDFGWTR %#" PRIx64 "/%#" PRIx64
			       ", HDFGRTR2/HDFGWTR2 %#" PRIx64 "/%#" PRIx64 "\n",
			       c, p->pc.hyp_writes_mdcr, p->pc.host_mdcr, p->pc.host_hdfgrtr,
			       p->pc.host_hdfgwtr, p->pc.host_hdfgrtr2, p->pc.host_hdfgwtr2);
	}
	for (unsigned int v = 0; v < w->nr_vms; v++) {
		const struct w_vm *m = &w->vm[v];

		if (!m->present)
			continue;
		describe_filter(&m->cfg.filter, filter, sizeof(filter));
		printf("  VM %u: %s %s N %u emu_slots %u, %s, vSPE %s, PPIs %u/%u, %s put\n", v,
		       mode_name(m->cfg.pmu_mode), part_name(m->cfg.partition), m->cfg.nr_counters,
		       m->cfg.emu_slots, filter, spe_name(&m->cfg), m->cfg.pmu_virq,
		       m->cfg.spe_virq, put_name(m->put));
	}
	printf("  vCPUs:");
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		if (w->vcpu_present[i])
			printf(" %u (VM %u)", i, w->vcpu_vm[i]);
	printf("\n  bring-up:");
	for (unsigned int k = 0; k < w->nr_order; k++) {
		unsigned int x = w->order[k] & ~W_ORDER_VM;
		bool vm = w->order[k] & W_ORDER_VM;

		if ((vm ? w->vm[x].present : w->cpu[x].present) && (vm || w->late != x + 1))
			printf(" %s %u", vm ? "VM" : "pCPU", x);
	}
	if (w->late && w->cpu[w->late - 1].present)
		printf("; pCPU %u late, before slot %u", w->late - 1, w->late_at);
	printf("\n  schedule (vCPU@pCPU xsteps, / = put, /v = put and the pCPU down and back):");
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		if (w->late && k == w->late_at && w->cpu[w->late - 1].present)
			printf(" +pCPU %u", w->late - 1);
		if (w->slot_present[k])
			printf(" %u@%u x%u%s", w->slot[k].vcpu, w->slot[k].cpu, w->slot[k].burst,
			       w->slot[k].down	  ? " /v"
			       : w->slot[k].leave ? " /"
						  : "");
	}
	printf("\n");
}
