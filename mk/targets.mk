# User-facing targets beyond building: test, check, bench, fuzz, format, help.

results := $(obj)/test-results.txt
runtests := $(srctree)/scripts/run-tests.sh

# Run the unit tests of the current (sim) configuration; every test runs (a failed one does not
# stop the others: -k), then the summary line "test: N passed, N failed" and a non-zero exit
# status when one failed or a check could not be built.
test: all
	$(Q)rm -f $(results); status=0; \
	$(runtests) $(results) $(tests-bin) || status=1; \
	$(if $(test-extra-y),$(sub) -k O=$(O) $(test-extra-y) || status=1;) \
	$(srctree)/scripts/summary.sh --label test $(results) && [ $$status -eq 0 ]

# The arm64 build's own checks: the library needs nothing but the ops contract, four C library
# functions and, with CONFIG_VPERF_FDT, six of libfdt; each public header compiles alone.
# Both run, and both count, whichever fails.
arm64-check: $(obj)/libvperf.a
	$(Q)status=0; \
	$(runtests) --script $(results) "undefined-symbols" \
		$(srctree)/scripts/check-undef-syms.sh $(CROSS_COMPILE) $(obj)/libvperf.a \
		$(if $(CONFIG_VPERF_FDT),fdt_path_offset fdt_add_subnode fdt_setprop fdt_del_node \
			fdt_check_header fdt_check_full) || status=1; \
	$(runtests) --script $(results) "public-headers-nostdinc" \
		$(srctree)/scripts/check-headers.sh $(CROSS_COMPILE)gcc $(srctree) $(obj) || status=1; \
	exit $$status

sub = $(MAKE) -f $(srctree)/Makefile

# The test suite (.ci/run runs it in check-fresh's pristine root): the sim build (ASan/UBSan,
# cmocka), the same with every optional feature configured out (the public headers' stubs), a
# vSPE without a vPMU (test_core alone: its VMs' save/restore blob), the arm64 cross build, the
# Kconfig, doc-link and mutant-patch checks, the QEMU suite, the README's
# commands (make demo, make run, the vperf-spe examples), and last that the source tree is as
# check found it. Each stage's failures are counted by summary.sh, hence the '-': the stages
# after a failed one still run so that the summary counts everything; a stage that fails before
# any of its tests recorded a failure (a build error) counts as one failure (run-tests.sh --stage).
check-results := $(foreach s,sim minimal vspe-only arm64 qemu readme,$(obj)/check-$(s)/test-results.txt)
stage = $(runtests) --stage $(obj)/check-$(1)/test-results.txt check-$(1)
check:
	$(call deps_for,build qemu linux fuzz format efi)
	$(Q)mkdir -p $(dir $(check-results))
	$(Q)$(srctree)/scripts/tree-state.sh snapshot $(srctree) $(obj)/check-tree-state
	$(Q)rm -f $(check-results)
	$(Q)$(sub) O=$(O)/check-sim ARCH=sim defconfig
	-$(Q)$(call stage,sim) $(sub) O=$(O)/check-sim SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-minimal ARCH=sim DEFCONFIG=sim_minimal_defconfig defconfig
	-$(Q)$(call stage,minimal) $(sub) O=$(O)/check-minimal SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-vspe-only ARCH=sim DEFCONFIG=sim_vspe_only_defconfig defconfig
	-$(Q)$(call stage,vspe-only) $(sub) O=$(O)/check-vspe-only SANITIZE=1 core-test
	$(Q)$(sub) O=$(O)/check-arm64 ARCH=arm64 defconfig
	-$(Q)$(call stage,arm64) $(sub) -k O=$(O)/check-arm64 arm64-check format-test docs-snippets
	-$(Q)$(runtests) --script $(obj)/check-arm64/test-results.txt kconfig:no-dead-symbols \
		$(srctree)/scripts/check-kconfig.sh $(srctree) \
		$(foreach s,sim minimal vspe-only arm64,$(obj)/check-$(s)/.config)
	-$(Q)$(runtests) --script $(obj)/check-arm64/test-results.txt docs:links \
		$(srctree)/scripts/check-doc-links.sh $(srctree)
	-$(Q)$(runtests) --script $(obj)/check-arm64/test-results.txt mutants:apply \
		$(srctree)/scripts/check-mutant-patches.sh $(srctree)
	-$(Q)$(call stage,qemu) $(sub) O=$(O)/check-qemu qemu-check
	-$(Q)$(runtests) --script $(obj)/check-qemu/test-results.txt qemu:spe-smoke \
		$(sub) O=$(O)/check-qemu qemu-spe-check
	-$(Q)$(runtests) --script $(obj)/check-qemu/test-results.txt validate:selftest \
		$(srctree)/tests/validate/selftest.sh
	-$(Q)$(runtests) --script $(obj)/check-qemu/test-results.txt validate:vperf-as-bare \
		$(sub) O=$(O)/check-qemu validate-vperf
	-$(Q)$(runtests) --script $(obj)/check-readme/test-results.txt readme:make-demo \
		$(sub) O=$(O)/check-readme demo
	-$(Q)$(runtests) --script $(obj)/check-readme/test-results.txt readme:vperf-spe \
		$(srctree)/scripts/readme-spe.sh $(srctree) $(obj)/check-readme/demo
	-$(Q)$(runtests) --script $(obj)/check-readme/test-results.txt readme:make-run \
		$(sub) O=$(O)/check-qemu run
	-$(Q)$(runtests) --script $(obj)/check-readme/test-results.txt readme:make-help \
		$(sub) O=$(O)/check-readme help
	-$(Q)$(srctree)/scripts/tree-state.sh compare $(srctree) $(obj)/check-tree-state \
		$(obj)/check-readme/test-results.txt
	$(Q)$(srctree)/scripts/summary.sh $(check-results)

# The README's quick start on a pristine Debian 12 root (scripts/check-fresh.sh, docs/build.md).
check-fresh:
	$(Q)$(srctree)/scripts/check-fresh.sh $(srctree)

# Mutation testing of virt/, include/vperf/ and the model where it is the oracle
# (tests/mutate/mutations.txt, docs/model.md): each mutant of a scratch
# copy of the tree must fail the sim unit tests. Slow, so not part of check. MUTATE=text runs
# only the mutations whose line contains it.
mutate:
	$(call deps_for,build)
	$(Q)$(srctree)/scripts/mutate.sh $(srctree) $(obj)/mutate '$(subst ','\'',$(MUTATE))'

# Isolation at scale (scripts/soak.sh, docs/model.md "Isolation at scale"): 10^6 seeded
# schedules of each isolation test on the model and 200 runs of each SMP QEMU configuration;
# SOAK_SCHEDULES, SOAK_QEMU_RUNS, SOAK_JOBS change that. Hours, so not part of check.
soak:
	$(call deps_for,build qemu linux)
	$(Q)$(srctree)/scripts/soak.sh $(srctree) $(obj)/soak
# Where mutations may survive: gcov of virt/ and lib/ under `make test` (scripts/coverage.sh).
coverage:
	$(call deps_for,build)
	$(Q)LIST=$(LIST) $(srctree)/scripts/coverage.sh $(srctree) $(obj)/coverage

# The main job: two guests time-sliced on one pCPU under the reference EL2 hypervisor in QEMU,
# each measuring its own workload with its vPMU, then two Linux guests profiling themselves with
# SPE through vperf's vSPE (tests/qemu, docs/qemu.md). The build's output goes to
# $(O)/run-build.log, one line a stage (V=1 shows it).
quiet = V=$(V) $(srctree)/scripts/quiet.sh
run:
	$(call deps_for,build qemu linux)
	$(Q)rm -f $(obj)/run-build.log
	$(Q)$(quiet) $(obj)/run-build.log "building vperf for arm64 ($(O)/qemu-lib)" \
		$(sub) O=$(O) qemu-lib
	$(Q)$(quiet) $(obj)/run-build.log "building the reference hypervisor and its guests ($(O)/qemu)" \
		$(sub) O=$(O) qemu-images
	$(Q)$(quiet) $(obj)/run-build.log "the Linux guests: Debian's kernel and perf ($(O)/qemu)" \
		$(sub) O=$(O) qemu-linux
	$(Q)$(sub) -s O=$(O) qemu-run

# The same story on the executable model (tools/vperf-demo, docs/model.md): only the demo and
# the vperf-spe decoder are built; each tenant's raw SPE buffer is left in $(O)/demo/spe/.
demo:
	$(call deps_for,build)
	$(Q)rm -f $(obj)/demo-build.log
	$(Q)test -f $(obj)/demo/.config || $(quiet) $(obj)/demo-build.log "configuring $(O)/demo" \
		$(sub) O=$(O)/demo ARCH=sim defconfig
	$(Q)$(quiet) $(obj)/demo-build.log "building vperf-demo and vperf-spe ($(O)/demo)" \
		$(sub) O=$(O)/demo $(obj)/demo/tools/bin/vperf-demo $(obj)/demo/host/bin/vperf-spe
	$(Q)mkdir -p $(obj)/demo/spe && $(obj)/demo/tools/bin/vperf-demo $(obj)/demo/spe

# The README's integration skeleton (the block after its "make check compiles" marker), built as a
# hypervisor builds against vperf: with the README's include path (include/ and this
# configuration's include/, through which vperf/config.h finds the generated autoconf.h, nothing
# forced in), every vperf_* symbol it calls in libvperf.a. On arm64 it is also linked, -nostdlib,
# as the README's link line says: with tests/readme/skeleton_hyp.c (the hypervisor's own
# functions and the C library ones a hypervisor has), libvperf.a, with CONFIG_VPERF_FDT the arm64
# libfdt that scripts/deps.sh unpacks, and libgcc; an undefined symbol fails it.
skeleton := $(obj)/docs/integration-skeleton
LIBFDT_ARM64 ?= /opt/vperf/libfdt-arm64
skeleton-cflags = $(BASE_CFLAGS) $(ARCH_CFLAGS) -I$(srctree)/include -I$(obj)/include
skeleton-libs = $(obj)/libvperf.a \
	$(if $(CONFIG_VPERF_FDT),-L$(LIBFDT_ARM64)/usr/lib/aarch64-linux-gnu -lfdt) -lgcc
docs-snippets: $(obj)/libvperf.a
	$(if $(and $(filter arm64,$(ARCH)),$(CONFIG_VPERF_FDT)),$(call deps_for,qemu))
	$(Q)mkdir -p $(obj)/docs && awk '/^<!-- make check compiles/ { m = 1; next } \
		m && /^```c/ { c = 1; next } c && /^```/ { exit } c' $(srctree)/README.md >$(skeleton).c
	$(Q)$(runtests) --script $(results) readme:integration-skeleton sh -c \
		'test -s $(skeleton).c && \
		$(CC) $(skeleton-cflags) -Wno-missing-prototypes \
			-Wno-missing-declarations -c $(skeleton).c -o $(skeleton).o && \
		for s in $$($(NM) -u $(skeleton).o | awk "/ vperf_/ { print \$$2 }"); do \
			$(NM) --defined-only $(obj)/libvperf.a | grep -q " T $$s$$" || \
				{ echo "$$s: not in libvperf.a"; exit 1; }; \
		done'
ifeq ($(ARCH),arm64)
	$(Q)$(runtests) --script $(results) readme:integration-skeleton-linked sh -c \
		'$(CC) $(skeleton-cflags) -fno-builtin -fno-tree-loop-distribute-patterns \
			-c $(srctree)/tests/readme/skeleton_hyp.c -o $(skeleton)-hyp.o && \
		$(CC) -nostdlib -static -o $(skeleton).elf $(skeleton).o $(skeleton)-hyp.o \
			$(skeleton-libs) && \
		echo "$(skeleton).elf: linked with $(patsubst $(obj)/%,%,$(skeleton-libs))"'
endif

# The C files .clang-format covers: git's list in a checkout; in an exported tree (git archive,
# as make check-fresh uses) every .c/.h outside the build output (build/, */include/generated).
c-sources = cd $(srctree) && { git ls-files '*.c' '*.h' 2>/dev/null || \
	find . \( -name .git -o -path ./build -o -path '*/include/generated' \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -print; }

# .clang-format holds for every tracked C file (a result line for check).
format-test:
	$(call deps_for,format)
	$(Q)$(runtests) --script $(results) clang-format sh -c \
		"$(c-sources) | xargs clang-format --dry-run --Werror"

format:
	$(call deps_for,format)
	$(Q)$(c-sources) | xargs clang-format -i

format-check:
	$(call deps_for,format)
	$(Q)$(c-sources) | xargs clang-format --dry-run --Werror

help:
	@echo 'vperf: virtual PMU and SPE for AArch64 EL2 hypervisors'
	@echo ''
	@echo 'Configuration (written to $$(O)/.config, default O=build):'
	@echo '  defconfig [ARCH=sim|arm64]  configs/$$(ARCH)_defconfig (default ARCH=sim);'
	@echo '                              DEFCONFIG=name picks another file of configs/'
	@echo '  menuconfig                  edit the configuration (kconfig-mconf)'
	@echo '  olddefconfig                update .config, new symbols take defaults'
	@echo '  savedefconfig               write the minimal $$(O)/defconfig'
	@echo ''
	@echo 'Build and test:'
	@echo '  all (default)               libvperf.a for the configured ARCH, host tools, tests (sim)'
	@echo '  run                         the main job: two guests on the reference EL2 hypervisor'
	@echo '                              in QEMU, each measuring itself with its vPMU, then two'
	@echo '                              Linux guests profiling themselves with SPE through the'
	@echo '                              vSPE (perf record -e arm_spe_0//; the build goes to'
	@echo '                              $$(O)/run-build.log, one line a stage; V=1 shows it)'
	@echo '  demo                        two tenants on one pCPU of the executable model (no QEMU):'
	@echo '                              vPMU counts, each tenant'"'"'s SPE records decoded into a'
	@echo '                              profile, the isolation verdict; raw SPE buffers left in'
	@echo '                              $$(O)/demo/spe for $$(O)/demo/host/bin/vperf-spe'
	@echo '  bench                       traps, System register accesses and callgrind instructions'
	@echo '                              per guest PMU access, per switch and per PMUIRQ, against a'
	@echo '                              naive full save and an always-trap emulation; vSPE switch,'
	@echo '                              PMBIRQ and records lost per 10^6 switches;'
	@echo '                              QEMU -icount EL2 instructions per trapped access, switch'
	@echo '                              and PMUIRQ (vperf share and whole path) against the empty'
	@echo '                              trap (an HVC without vperf); QEMU vSPE with SPE active:'
	@echo '                              put + load trapped / untrapped, records lost across'
	@echo '                              switches (fails if one is), a buffer stage 2 fault; and'
	@echo '                              the targets table: $$(O)/bench/performance.md, a copy'
	@echo '                              of docs/performance.md (BENCH_UPDATE_DOCS=1: that file)'
	@echo '  test                        run the unit tests of a sim configuration; ends with'
	@echo '                              "test: N passed, N failed", non-zero exit if one failed'
	@echo '  check                       the test suite (CI runs it in check-fresh'"'"'s root,'
	@echo '                              beside xen-check and kvm-check): sim build + cmocka under'
	@echo '                              ASan/UBSan (default and minimal configuration;'
	@echo '                              test_core also with a vSPE and no vPMU: core-test),'
	@echo '                              arm64 cross build + symbol check, every Kconfig'
	@echo '                              symbol read and built on and off, the docs'"'"' links, the'
	@echo '                              vperf mutants apply, QEMU suite + SPE smoke test,'
	@echo '                              validate-vperf, the README'"'"'s commands (make demo,'
	@echo '                              make run, make help, vperf-spe, the integration'
	@echo '                              skeleton), the source tree left as found'
	@echo '                              (docs/build.md);'
	@echo '                              ends with "check: N passed, N failed"'
	@echo '  check-fresh                 the README quick start (make run, make check) inside a'
	@echo '                              pristine Debian 12 root (debootstrap; root only), whole'
	@echo '                              output, then tree-clean judged from outside;'
	@echo '                              VPERF_FRESH_GOALS="validate": other goals instead'
	@echo '  qemu-check / qemu-images    the QEMU suite alone / its hypervisor and guest images,'
	@echo '                              and the hypervisor linked with each vperf mutant'
	@echo '                              (tests/mutants: a fixed defect brought back, must fail)'
	@echo '  qemu-spe-check              the FEAT_SPE smoke test of the project'"'"'s QEMU (-cpu max,'
	@echo '                              spe=on): registers, traps, sampling, PMBIRQ, faults,'
	@echo '                              records decoded by vperf-spe, deterministic; and from'
	@echo '                              an EL3 entry (-bios) the MDCR_EL3.NSPB rules (make check)'
	@echo '  efi                         the reference hypervisor as a UEFI application (gnu-efi):'
	@echo '                              builds $$(O)/qemu/vperf-hyp.efi and prints its path; booted'
	@echo '                              by edk2 in the QEMU suite (efi-*, from a FAT disk image'
	@echo '                              on virtio-blk or -kernel), by an Arm server or'
	@echo '                              board from a USB stick or the EFI shell (docs/uefi.md)'
	@echo '  efi-stick [EFI_CONFIG=name] a FAT image to write to a USB stick: the application,'
	@echo '                              configuration name'"'"'s command line and images (default'
	@echo '                              efi-self-1vm): $$(O)/qemu/vperf-efi-NAME.img'
	@echo '  qemu-path                   the project'"'"'s QEMU 10 (platform/qemu: Debian'"'"'s source and'
	@echo '                              patches/series), built once per machine into'
	@echo '                              /var/cache/vperf/qemu; prints qemu-system-aarch64'"'"'s path'
	@echo '  mutate [MUTATE=text]        apply each mutation of tests/mutate/mutations.txt to a'
	@echo '                              scratch copy of the tree and expect the unit tests to fail;'
	@echo '                              prints survivors, ends "mutate: N passed, N failed";'
	@echo '                              MUTATE_FROM=k, MUTATE_TO=m: only lines k to m; the test'
	@echo '                              that killed a line before runs first (MUTATE_CACHE)'
	@echo '  soak                        isolation at scale: 10^6 seeded schedules of each model'
	@echo '                              isolation test (PMU and SPE VMs; drawn worlds, one a'
	@echo '                              seed) and 200 runs of each SMP'
	@echo '                              QEMU configuration; failures with their seeds or logs'
	@echo '  coverage [LIST=1]           gcov of virt/ and lib/ under the unit tests, one line a'
	@echo '                              file, least covered last; LIST=1 names the lines'
	@echo '  xen-check                   vperf inside Xen 4.17 on Arm: fetch Debian 12'"'"'s Xen source,'
	@echo '                              apply integrations/xen/patches, build, boot dom0less domUs'
	@echo '                              and a dom0 running the PMU suite and Linux under QEMU, the'
	@echo '                              vSPE (domUs and dom0, -cpu max,spe=on; a domU refused SPE'
	@echo '                              without it), domUs in the direct partition'
	@echo '                              (vperf-hpmn=enforced), mutants (CI: .ci/run)'
	@echo '  xen-build                   only fetch, patch and build Xen with vperf'
	@echo '  kvm-kernel / kvm-path       the project'"'"'s KVM host kernel (integrations/kvm: Debian'"'"'s'
	@echo '                              linux 6.12 source, patches/series, kvm.config, no'
	@echo '                              modules), built once per machine into'
	@echo '                              /var/cache/vperf/kvm; kvm-path prints the Image'"'"'s path'
	@echo '  kvm-each / kvm-checkpatch   build every prefix of the KVM series / checkpatch.pl'
	@echo '                              on each patch; kvm-key prints the kernel'"'"'s cache key'
	@echo '  kvm-boot                    boot that kernel under the project'"'"'s QEMU (EL2, PMU, SPE)'
	@echo '                              in nVHE, VHE and protected mode: KVM, PMUv3 and SPE'
	@echo '                              come up'
	@echo '  kvm-guest                   that kernel in nVHE mode with kvm-arm.vperf=1 runs the'
	@echo '                              conformance suite as a KVM guest: vperf answers its PMU'
	@echo '                              while the host'"'"'s own perf counts (KVM_HOSTPERF);'
	@echo '                              KVM_VPERF_RANGE=second: the guests in the second'
	@echo '                              counter range, put lazily (-cpu max,aarch32=off);'
	@echo '                              KVM_SPE=1: SPE too (kvm-arm.vperf_spe=1), the suite'"'"'s'
	@echo '                              SPE tests; KVM_LINUX=1|2: Linux guests running perf'
	@echo '                              record -e arm_spe_0// (make qemu-linux first);'
	@echo '                              KVM_MODE=protected: in protected mode (pKVM);'
	@echo '                              KVM_MODE=vhe: in VHE (KVM_SPE=1 too; the direct partition'
	@echo '                              with KVM_GUEST_ARGS=kvm-arm.vperf_partition=direct);'
	@echo '                              KVM_IDLE=1: the host'"'"'s CPUs power down in a PSCI'
	@echo '                              idle state, losing their PMU (the suite'"'"'s'
	@echo '                              kept-across-wfi); the firmware gives up every'
	@echo '                              KVM_IDLE_GIVEUP-th request (default 4), the call'
	@echo '                              returning with the context kept'
	@echo '  kvm-selftest                the same host runs KVM'"'"'s own selftests that touch the'
	@echo '                              PMU, ID and debug registers and vCPU reset, and five of'
	@echo '                              ours (the event filter, a vCPU migrated through ONE_REG,'
	@echo '                              the PMU registers'"'"' ONE_REG view, a vCPU moved between'
	@echo '                              CPUs after a lazy put, the host'"'"'s 64-bit counters'
	@echo '                              beside a loaded guest)'
	@echo '                              (cross-built static), kvm-arm.vperf=1 and 0: PASS/FAIL each'
	@echo '                              (KVM_VPERF_RANGE=second, KVM_MODE=protected or vhe as'
	@echo '                              for kvm-guest; KVM_SELFTEST_CPUS: only those CPU'
	@echo '                              models)'
	@echo '  kvm-check                   all of the KVM judges in one run (checks.txt): checkpatch,'
	@echo '                              boot, the guest in both ranges, the isolation pair, the'
	@echo '                              selftests, must-fail mutants of the glue (KVM_CHECKS=...)'
	@echo '  validate [TARGETS="..."]    the conformance suite, Linux guest and cost loop against'
	@echo '                              each hypervisor of tests/validate/targets.txt (bare QEMU,'
	@echo '                              vperf, Xen with vperf, Xen'"'"'s pass-through, Debian'"'"'s Xen'
	@echo '                              and KVM, the project'"'"'s KVM with vperf as its PMU'
	@echo '                              backend and without, nVHE and VHE) on the project'"'"'s'
	@echo '                              QEMU;'
	@echo '                              a table per test and target with the rule a FAIL breaks,'
	@echo '                              cost per access and per switch between two guests:'
	@echo '                              $$(O)/validate/report.md and .html'
	@echo '  fuzz [FUZZ_TIME=s]          long libFuzzer runs, FUZZ_TIME each (default 600 s): the'
	@echo '                              SPE decoder, and on sim the trap entry, blob restore'
	@echo '                              and device tree (docs/fuzzing.md); a crash input is'
	@echo '                              written to tests/fuzz/regressions (with bench'"'"'s'
	@echo '                              BENCH_UPDATE_DOCS=1, the only writes to the source'
	@echo '                              tree: docs/build.md)'
	@echo '  trap-fuzz-long ...          one harness (trap, blob, fdt, spe) for FUZZ_TIME'
	@echo '  parts of the above          qemu-run, qemu-bench, qemu-linux, qemu-linux-check,'
	@echo '                              qemu-key, validate-vperf, core-test, arm64-check,'
	@echo '                              docs-snippets (the README'"'"'s skeleton, linked), format-test'
	@echo '  format / format-check       apply / verify .clang-format on tracked C files'
	@echo '  deps [DEPS="group..."]      install missing Debian packages (scripts/deps.sh;'
	@echo '                              groups: scripts/deps.sh --list; default build)'
	@echo '  clean / distclean           remove objects / the whole $$(O)'
	@echo ''
	@echo 'Variables: O=dir (output), ARCH=sim|arm64 (with defconfig), V=1 (show commands),'
	@echo '           SANITIZE=1 (sim: ASan+UBSan), CROSS_COMPILE=aarch64-linux-gnu-'

.PHONY: test arm64-check check check-fresh run demo mutate soak coverage format format-check \
	format-test help docs-snippets
