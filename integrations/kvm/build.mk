# integrations/kvm: vperf as the backend of KVM/arm64's PMU (docs/integration/kvm.md).
#   kvm-kernel      the project's KVM host kernel: Debian's linux source (bookworm-backports'
#                   6.12, cached in /var/cache/vperf/kvm) with integrations/kvm/patches, the
#                   configuration of integrations/kvm/kvm.config; built once per machine
#   kvm-path        print the cached Image's path (building it when missing)
#   kvm-key         print the cache key <version>-<hash>
#   kvm-each        build every prefix of the series (bisectability)
#   kvm-checkpatch  the kernel's scripts/checkpatch.pl on every patch of the series
#   kvm-boot        boot the Image under the project's QEMU (virt, EL2, PMU, SPE) in nVHE, VHE and
#                   protected mode to the panic for want of a root file system; "kvm-boot: N passed,
#                   N failed"
#   kvm-guest       boot it in nVHE mode with kvm-arm.vperf=1 and run the conformance suite as a
#                   KVM guest under Debian's QEMU (make validate's kvm initramfs): vperf answers
#                   the guest's PMU at EL2 while the host's own perf counts on every CPU
#                   (hostperf.c; KVM_HOSTPERF=sample: every overflow must reach the host's
#                   driver; mux: perf multiplexes on every CPU); "PASS|FAIL kvm-guest vperf"; KVM_VPERF_RANGE=second: with
#                   kvm-arm.vperf_range=second (the guests in the second counter range, put
#                   lazily) on -cpu max,aarch32=off, N = 2, and exits must come back to the lazy
#                   put; KVM_SPE=1: the guest gets SPE too (kvm-arm.vperf_spe=1) and runs the
#                   suite's SPE tests; KVM_LINUX=1|2: Linux guests (make qemu-linux) run
#                   perf record -e arm_spe_0// instead, their records checked as their own;
#                   KVM_MODE=protected: in protected mode (pKVM), the guest a non-protected VM
#                   KVM_MODE=vhe: in VHE (the host kernel at EL2), vperf loaded at vcpu_load
#                   (trapped, or direct with KVM_GUEST_ARGS=kvm-arm.vperf_partition=direct);
#                   KVM_IDLE=1: the host's CPUs have a PSCI power-down idle state (idle-dtb.sh);
#                   KVM_IDLE_GIVEUP=K: of its power-down requests the firmware gives up every
#                   K-th (default 4; 0: only those made with an interrupt pending);
#                   KVM_IMAGE: an Image built elsewhere
#   kvm-selftest    KVM's own selftests that touch vperf's part (vpmu_counter_access, set_id_regs,
#                   get-reg-list, aarch32_id_regs, debug-exceptions, psci_test, vcpu_width_config;
#                   the same source, cross-built static once) and ours (selftests/:
#                   vperf_pmu_filter, vperf_pmu_migrate, vperf_pmu_view, vperf_pmu_flush,
#                   vperf_host_long) run in
#                   that host with kvm-arm.vperf=1 and, as the control, 0; "PASS|FAIL|XFAIL
#                   kvm-selftest NAME ... vperf=M" each, then "kvm-selftest: N passed, N failed, N expected failures";
#                   KVM_VPERF_RANGE=second as for kvm-guest (every test on max,spe=on,aarch32=off
#                   but vcpu_width_config, which needs AArch32 at EL1); KVM_MODE=protected as for
#                   kvm-guest
#   kvm-check       every judge above in one run (integrations/kvm/checks.txt): checkpatch, the
#                   boot, the suite as a KVM guest in both ranges, make validate's isolation pair,
#                   the selftests in both ranges, and must-fail mutants of the glue
#                   (integrations/kvm/mutants), each of which the check meant for it must catch;
#                   "kvm-check: N passed, N failed"
# Not part of make check (docs/build.md says when to run these and what they cost).

kvm-dir := $(srctree)/integrations/kvm

kvm-kernel kvm-path:
	$(Q)$(kvm-dir)/build.sh

kvm-key:
	$(Q)$(kvm-dir)/build.sh --key

kvm-each:
	$(call deps_for,kvm)
	$(Q)$(kvm-dir)/build.sh --each

kvm-boot:
	$(Q)$(kvm-dir)/boot.sh

kvm-guest: $(qemu-out)/pmu-suite.bin
	$(Q)QEMU_OUT=$(qemu-out) $(kvm-dir)/guest.sh

kvm-selftest: $(qemu-out)/pmu-suite.bin
	$(Q)QEMU_OUT=$(qemu-out) $(kvm-dir)/selftest.sh

kvm-checkpatch:
	$(call deps_for,kvm)
	$(Q)$(kvm-dir)/build.sh --checkpatch

kvm-check: $(qemu-out)/pmu-suite.bin qemu-linux
	$(call deps_for,kvm validate)
	$(Q)QEMU_OUT=$(qemu-out) $(kvm-dir)/check.sh

.PHONY: kvm-kernel kvm-path kvm-key kvm-each kvm-checkpatch kvm-boot kvm-guest kvm-selftest kvm-check
