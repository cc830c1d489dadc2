// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_pmu_policy - KVM_ARM_VCPU_PMU_V3_VPERF, a VM's vperf policy set by its VMM
 *
 * With kvm-arm.vperf=1 a VMM may give each VM its own partition, mode and
 * SPE before the VM's first run; the kernel's kvm-arm.vperf_* parameters
 * are what it reads until then. With kvm-arm.vperf=0 the attribute is
 * absent. Checked here:
 *   - the default reads the kernel's parameters (this host's command line);
 *   - a policy this host can never give is EINVAL and changes nothing: a
 *     value out of range, a reserved byte set, emulated slots without the
 *     emulated partition, the mode self in VHE, a partition other than the
 *     trapped one in the second range;
 *   - what the host keeps from VMMs is EPERM and changes nothing: the direct
 *     partition and SPE unless the parameters give them by default or
 *     kvm-arm.vperf_vmm lets VMMs ask for them, another mode unless it lets
 *     them ask for that;
 *   - after the VM's first run a write is EBUSY and the policy stays;
 *   - what the guests get: a VM that asked for the direct partition and SPE
 *     (as much of them as the host lets it) and one that asked for the
 *     trapped partition without SPE, run one after the other. The guest
 *     reads the cycle counter 256 times: vperf must have answered at least
 *     that many accesses for the trapped VM (each vCPU's count is in the
 *     host's log at its destroy, read from /dev/kmsg) and fewer for the
 *     direct one, unless the host said it runs trapped instead; the SPE
 *     VM's ID_AA64DFR0_EL1.PMSVer is not 0 where the host has SPE, the
 *     other's is 0;
 *   - an emulated VM's two counters share one slot, moved on at its exits
 *     (in VHE, patch 43: put and loaded again there, counted), and one
 *     counter alone on the slot keeps it, no exit moving anything.
 */
#include <stdlib.h>

#include "vperf_policy.h"

#define READS	   256
#define CPU_CYCLES ARMV8_PMUV3_PERFCTR_CPU_CYCLES

static void guest_code(void)
{
	uint64_t dfr0 = read_sysreg_s(SYS_ID_AA64DFR0_EL1);
	uint64_t sum = 0;
	int i;

	write_sysreg(BIT(VPERF_CYCLE_BIT), pmcntenset_el0);
	write_sysreg(ARMV8_PMU_PMCR_E, pmcr_el0);
	isb();
	for (i = 0; i < READS; i++)
		sum += read_sysreg(pmccntr_el0);
	GUEST_SYNC2(dfr0, sum);
	GUEST_DONE();
}

static bool mux_one; /* guest_mux enables counter 0 alone */

/*
 * The emulated VM's guest: counters 0 and 1 (or 0 alone) count CPU_CYCLES
 * on one slot. It spins for a quarter of a second without a WFI or a call
 * to the host, reading both every 100 us, and counts the swaps of the one
 * that moved alone: the placement moves on only at an exit (the host's
 * timer interrupts, about 60 at 250 Hz), so without that there are none
 * or a few, at the vCPU's rare vcpu_put.
 */
static void guest_mux(void)
{
	uint64_t freq = read_sysreg(cntfrq_el0), end, c0, c1, p0 = 0, p1 = 0;
	unsigned int moved, alone = 0, swaps = 0;

	/* Counter 1 never enabled, so never waiting for the slot */
	vperf_guest_program_on(CPU_CYCLES, CPU_CYCLES,
			       BIT(0) | (mux_one ? 0 : BIT(1)) | BIT(VPERF_CYCLE_BIT));
	end = read_sysreg(cntvct_el0) + freq / 4;
	while (read_sysreg(cntvct_el0) < end) {
		vperf_guest_wait(freq / 10000);
		c0 = read_sysreg(pmevcntr0_el0);
		c1 = read_sysreg(pmevcntr1_el0);
		moved = (c0 != p0) | (c1 != p1) << 1;
		/* 1 or 2: one counter alone; 3: a swap inside the window */
		if (moved == 1 || moved == 2) {
			swaps += alone && moved != alone;
			alone = moved;
		}
		p0 = c0;
		p1 = c1;
	}
	write_sysreg(0, pmcr_el0);
	isb();
	GUEST_SYNC4(swaps, read_sysreg(pmevcntr0_el0), read_sysreg(pmevcntr1_el0),
		    read_sysreg(pmccntr_el0));
	GUEST_DONE();
}

static uint64_t pmsver(uint64_t dfr0)
{
	return FIELD_GET(ID_AA64DFR0_EL1_PMSVer_MASK, dfr0);
}

static bool second; /* kvm-arm.vperf_range=second */

struct outcome {
	uint64_t dfr0; /* the guest's first value: guest_code's ID_AA64DFR0_EL1 */
	uint64_t args[4];
	long answered;	/* vperf's count at vCPU 0's destroy, -1: none */
	long rotations; /* its put and load at exits (VHE, patch 43), 0: none said */
	bool instead;	/* the host ran it trapped instead of direct */
};

/* What vCPU 0's record says after key, if rec is one */
static void said(const char *rec, const char *key, long *value)
{
	const char *p = strstr(rec, key);

	if (p)
		*value = strtol(p + strlen(key), NULL, 10);
}

/* A record of the host's log: vCPU 0's counts, and the direct refusal */
static void host_said(const char *rec, void *arg)
{
	struct outcome *o = arg;

	said(rec, "vcpu 0: vperf answered ", &o->answered);
	said(rec, "vcpu 0: vperf moved its emulated counters on at ", &o->rotations);
	if (strstr(rec, "vperf refused the VM the direct partition"))
		o->instead = true;
}

/*
 * A VM with policy p run to its end. After its first run a write must be
 * EBUSY through either vCPU: the one that ran (its PMU initialised) and the
 * other, which never ran (the VM's first run is what fixes the policy).
 */
static struct outcome run_guest(const char *name, struct kvm_arm_vperf_policy p, void *guest)
{
	struct kvm_arm_vperf_policy late = p, now;
	struct vperf_test_vm t;
	struct outcome o;
	struct ucall uc;
	int kmsg;

	vperf_vm_add(&t, guest, NULL, 0, 23, 2);
	sync_global_to_guest(t.vm, mux_one);
	TEST_ASSERT_EQ(vperf_policy_set(&t, &p), 0);
	vperf_vm_init_pmu(&t);
	kmsg = vperf_kmsg_open();
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "%s: no result", name);
	o.dfr0 = uc.args[0];
	memcpy(o.args, uc.args, sizeof(o.args));
	/* Another policy this VMM may ask for, but too late */
	if (p.partition != KVM_ARM_VPERF_PARTITION_TRAPPED)
		late.partition = KVM_ARM_VPERF_PARTITION_TRAPPED;
	else if (!second)
		late.partition = KVM_ARM_VPERF_PARTITION_EMULATED;
	late.emu_slots = 0;
	TEST_ASSERT_EQ(vperf_policy_set(&t, &late), EBUSY);
	TEST_ASSERT_EQ(vperf_policy_set_on(t.other, &late), EBUSY);
	now = vperf_policy_get(&t);
	TEST_ASSERT(!memcmp(&now, &p, sizeof(p)), "%s: the policy changed after the first run",
		    name);
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_DONE, "%s: not done", name);
	vperf_vm_free(&t);
	o.answered = -1;
	o.rotations = 0;
	o.instead = false;
	vperf_kmsg_each(kmsg, host_said, &o);
	pr_info("policy: %s: partition %u, mode %u, SPE %u: PMSVer %lu, vperf answered %ld%s\n",
		name, p.partition, p.mode, p.spe, pmsver(o.dfr0), o.answered,
		o.instead ? " (trapped instead of direct)" : "");
	return o;
}

/*
 * The emulated VM: both counters counted part of the time, together the
 * cycles of one slot (within 10%: none lost at a move), and the one
 * counting swapped at the exits.
 */
static void mux_judged(const struct outcome *o, bool vhe)
{
	uint64_t swaps = o->args[0], c0 = o->args[1], c1 = o->args[2], cycles = o->args[3];

	pr_info("policy: the emulated VM's counters 0 and 1 on one slot: %lu and %lu of %lu "
		"cycles, %lu swaps of the one counting, put at %ld exits\n",
		c0, c1, cycles, swaps, o->rotations);
	TEST_ASSERT(c0 && c1 && c0 + c1 <= cycles + cycles / 10,
		    "the emulated VM's counters did not share their slot");
	TEST_ASSERT(c0 + c1 >= cycles - cycles / 10, "the emulated VM's counters lost counts");
	TEST_ASSERT(swaps >= 20, "the emulated VM's counters moved on %lu times", swaps);
	TEST_ASSERT(!vhe || o->rotations > 0, "VHE put no multiplexed vCPU at its exits");
	pr_info("policy: the emulated VM's counters moved on at its exits\n");
}

/*
 * Counter 0 alone on the slot: nothing waits for it, so it counts all the
 * cycles (within 10%) and no exit put the vCPU in VHE (patch 43 only
 * rotates a multiplexed one).
 */
static void alone_judged(const struct outcome *o, bool vhe)
{
	uint64_t swaps = o->args[0], c0 = o->args[1], c1 = o->args[2], cycles = o->args[3];

	pr_info("policy: counter 0 alone on the slot: %lu of %lu cycles, %lu swaps, put at %ld "
		"exits\n",
		c0, cycles, swaps, o->rotations);
	TEST_ASSERT(!c1 && !swaps, "counter 1, disabled, counted");
	TEST_ASSERT(c0 + cycles / 10 >= cycles && c0 <= cycles + cycles / 10,
		    "counter 0 alone lost its slot");
	TEST_ASSERT(!vhe || !o->rotations, "VHE put a vCPU nothing waited in at its exits");
	pr_info("policy: one counter on its slot, not moved at the exits\n");
}

/*
 * What the host keeps from VMMs (the direct partition and SPE unless the
 * parameters give them or kvm-arm.vperf_vmm allows them, another mode
 * unless it allows that): EPERM, the VM's policy unchanged. true when
 * something was kept.
 */
static bool kept(struct kvm_arm_vperf_policy dflt, bool vhe, bool may_direct, bool may_spe)
{
	struct kvm_arm_vperf_policy ask[3], after;
	struct vperf_test_vm t;
	int i, nr = 0;

	vperf_vm_add(&t, guest_code, NULL, 0, 23, 1);
	for (i = 0; i < 3; i++)
		ask[i] = (struct kvm_arm_vperf_policy){ .mode = dflt.mode };
	if (!may_direct && !second)
		ask[nr++].partition = KVM_ARM_VPERF_PARTITION_DIRECT;
	if (!may_spe)
		ask[nr++].spe = 1;
	if (!vperf_vmm_may("mode") && !vhe)
		ask[nr++].mode = !dflt.mode;
	for (i = 0; i < nr; i++)
		TEST_ASSERT(vperf_policy_set(&t, &ask[i]) == EPERM, "kept policy %d not refused",
			    i);
	after = vperf_policy_get(&t);
	TEST_ASSERT(!memcmp(&dflt, &after, sizeof(dflt)), "a kept policy changed the VM's");
	vperf_vm_free(&t);
	return nr > 0;
}

/* Each policy this host can never give: EINVAL, the VM's policy unchanged */
static void refused(bool vhe)
{
	struct kvm_arm_vperf_policy bad[8], before, after;
	struct vperf_test_vm t;
	int i, nr = 0;

	vperf_vm_add(&t, guest_code, NULL, 0, 23, 1);
	before = vperf_policy_get(&t);
	/* Each wrong in one way only: VHE's mode is hv */
	for (i = 0; i < 8; i++)
		bad[i] = (struct kvm_arm_vperf_policy){ .mode = before.mode };
	bad[nr++].partition = 3;
	bad[nr++].mode = 2;
	bad[nr++].spe = 2;
	bad[nr].partition = KVM_ARM_VPERF_PARTITION_EMULATED;
	bad[nr++].emu_slots = 32;
	bad[nr++].reserved[11] = 1;
	bad[nr++].emu_slots = 1; /* the trapped partition */
	if (vhe)
		bad[nr++].mode = KVM_ARM_VPERF_MODE_SELF;
	else if (second)
		bad[nr++].partition = KVM_ARM_VPERF_PARTITION_DIRECT;
	for (i = 0; i < nr; i++) {
		TEST_ASSERT(vperf_policy_set(&t, &bad[i]) == EINVAL, "bad policy %d not refused",
			    i);
	}
	after = vperf_policy_get(&t);
	TEST_ASSERT(!memcmp(&before, &after, sizeof(before)), "a refused policy changed the VM's");
	vperf_vm_free(&t);
}

int main(void)
{
	struct kvm_arm_vperf_policy want, got, mine = {};
	bool vhe, host_spe, may_direct, may_spe;
	struct vperf_test_vm t;
	struct outcome direct, trapped, emulated;
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_VPERF,
	};

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	vperf_cmdline_read();
	vhe = !vperf_cmdline_has("kvm-arm.mode=nvhe") &&
	      !vperf_cmdline_has("kvm-arm.mode=protected");
	second = vperf_cmdline_has("kvm-arm.vperf_range=second");
	host_spe = !access("/sys/bus/event_source/devices/arm_spe_0", F_OK);

	vperf_vm_add(&t, guest_code, NULL, 0, 23, 1);
	if (!vperf_cmdline_has("kvm-arm.vperf=1")) {
		TEST_ASSERT(__vcpu_ioctl(t.vcpu, KVM_HAS_DEVICE_ATTR, &attr) && errno == ENXIO,
			    "KVM_ARM_VCPU_PMU_V3_VPERF without vperf");
		vperf_vm_free(&t);
		pr_info("policy: no vperf, no KVM_ARM_VCPU_PMU_V3_VPERF\n");
		return 0;
	}
	vcpu_ioctl(t.vcpu, KVM_HAS_DEVICE_ATTR, &attr);
	want = vperf_policy_default(vhe);
	got = vperf_policy_get(&t);
	vperf_vm_free(&t);
	TEST_ASSERT(!memcmp(&want, &got, sizeof(want)),
		    "default partition %u slots %u mode %u SPE %u, the parameters say %u %u %u %u",
		    got.partition, got.emu_slots, got.mode, got.spe, want.partition, want.emu_slots,
		    want.mode, want.spe);
	refused(vhe);
	pr_info("policy: the kernel's parameters read back, bad policies refused\n");
	may_direct = !second &&
		     (want.partition == KVM_ARM_VPERF_PARTITION_DIRECT || vperf_vmm_may("direct"));
	may_spe = want.spe || vperf_vmm_may("spe");
	if (kept(want, vhe, may_direct, may_spe))
		pr_info("policy: what the host keeps from VMMs refused\n");

	mine.mode = want.mode;
	mine.partition =
		may_direct ? KVM_ARM_VPERF_PARTITION_DIRECT : KVM_ARM_VPERF_PARTITION_TRAPPED;
	mine.spe = may_spe;
	direct = run_guest(may_direct ? "direct" : "trapped", mine, guest_code);
	mine.partition = KVM_ARM_VPERF_PARTITION_TRAPPED;
	mine.spe = 0;
	trapped = run_guest("trapped without SPE", mine, guest_code);

	TEST_ASSERT(trapped.answered >= READS, "the trapped VM: vperf answered %ld of %d reads",
		    trapped.answered, READS);
	TEST_ASSERT_EQ(pmsver(trapped.dfr0), 0);
	pr_info("policy: the trapped VM's accesses trapped\n");
	if (host_spe && may_spe) {
		TEST_ASSERT(pmsver(direct.dfr0), "the VM that asked for SPE has none");
		pr_info("policy: SPE for the VM that asked, none for the other\n");
	}
	if (may_direct && !direct.instead) {
		TEST_ASSERT(direct.answered >= 0 && direct.answered < READS,
			    "the direct VM: vperf answered %ld accesses", direct.answered);
		pr_info("policy: the direct VM's accesses did not trap\n");
	}
	if (!second) {
		mine.partition = KVM_ARM_VPERF_PARTITION_EMULATED;
		mine.emu_slots = 1;
		emulated = run_guest("emulated on one slot", mine, guest_mux);
		mux_judged(&emulated, vhe);
		mux_one = true;
		emulated = run_guest("emulated, one counter on one slot", mine, guest_mux);
		alone_judged(&emulated, vhe);
	}
	pr_info("vperf_pmu_policy: each VM had its own policy\n");
	return 0;
}
