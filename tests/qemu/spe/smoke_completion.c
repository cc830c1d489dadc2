// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test (smoke.c), when a sampled operation completes, beyond smoke_buffer.c's
 * exc-*, disable-psb-record and eret-* checks: a PMSICR_EL1 write while the operation is in
 * flight, Events E[0] (generated exception) set for an operation that itself faults or traps
 * and clear for one that does not, an exception return into AArch32, where profiling is
 * disabled, and an asynchronous exception (a virtual IRQ) taken right after the operation. SPE
 * supplement (Arm DDI 0586A) 2.1.1, 2.2.1, 2.3.5, 3.1, 3.6, 4.3.10, 5.3.7 (Events; Arm DDI 0487
 * K.a D18.2.6).
 */
#include "smoke.h"

#define MDCR_EL2_TPMS (1u << 14)
#define MDCR_EL2_E2PB (3u << 12)
#define HCR_EL2_VM    (1u << 0)
#define HCR_EL2_TGE   (1u << 27)
#define ESR_EC(esr)   (((esr) >> 26) & 0x3f)

/* smoke_buffer.c: stage 2 tables mapping only the 1 GiB of RAM at IPA 0x40000000 */
extern uint64_t s2_table[512];

/* The first record of spe_buf[0, len): found or not, and its branch target (Address INDEX 1). */
static int first_record(uint64_t len, struct record *r, uint64_t *target)
{
	uint64_t pos = 0;

	*target = 0;
	while (pos < len && spe_buf[pos] != 0x71 && spe_buf[pos] != 0x01 &&
	       packet_size(spe_buf[pos])) {
		if (spe_buf[pos] == 0xb1)
			for (int i = 7; i >= 0; i--)
				*target = (*target << 8) | spe_buf[pos + 1 + i];
		pos += packet_size(spe_buf[pos]);
	}
	pos = 0;
	return next_record(spe_buf, len, &pos, r);
}

static unsigned int record_count(uint64_t len)
{
	struct record r;
	uint64_t pos = 0;
	unsigned int n = 0;

	while (next_record(spe_buf, len, &pos, &r))
		n++;
	return n;
}

/*
 * PMSICR_EL1 written while the selected operation is in flight. At EL2 (the owner), COUNT 10
 * selects the MSR that clears PMSCR_EL2.E2SPE (the enabling ISB and eight NOPs are the first
 * nine members, docs/qemu-spe.md). With profiling now disabled no later member completes it: it
 * is in flight at the MRS and MSR of PMSICR_EL1 that follow. The MRS reads 0: the MSR brought
 * COUNT to zero, the reload is the next member's (SPEToCollectSample(), Arm DDI 0487 K.a
 * J1.1.1), and PMSICR_EL1 does not change while profiling is disabled (SPE 4.3.10). The write
 * only sets the counter (SPE 3.1, 4.3.10: an opaque value for context switches): the operation
 * is not abandoned, and PSB CSYNC after the context synchronization event writes its record
 * (SPE 3.6). The written value reads back, profiling being disabled.
 */
static void check_icr_write_in_flight(void)
{
	const uint64_t written = 0x1234;
	uint64_t base = (uint64_t)spe_buf, scr = 1u << 1, msr_pc, between, after, len, target;
	struct record r;
	int found;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 10, 0, 0);
	__asm__ volatile("adr %0, 1f\n\t"
			 "msr " PMSCR_EL2 ", %3\n\t"
			 "isb\n\t"
			 ".rept 8\n\tnop\n\t.endr\n"
			 "1:\n\t"
			 "msr " PMSCR_EL2 ", xzr\n\t"
			 "isb\n\t"
			 "mrs %1, " PMSICR_EL1 "\n\t"
			 "msr " PMSICR_EL1 ", %4\n\t"
			 "isb\n\t"
			 "mrs %2, " PMSICR_EL1
			 : "=&r"(msr_pc), "=&r"(between), "=&r"(after)
			 : "r"(scr), "r"(written)
			 : "memory");
	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	found = first_record(len, &r, &target);
	expect("icr-write-in-flight-read", between, 0);
	result("icr-write-in-flight-record", found && r.pc == msr_pc, found ? r.pc : 0, msr_pc);
	expect("icr-write-in-flight-records", record_count(len), 1);
	expect("icr-write-in-flight-readback", after, written);
}

/*
 * The selected operation is the PMSICR_EL1 write itself, profiling enabled (COUNT 10: the
 * enabling ISB, eight NOPs, then the MSR): it is still sampled, and the value it writes is the
 * count from the next member on. After the ISB that follows it (so that the counter's indirect
 * writes see the direct one, SPE 3.6), COUNT 20 selects the 20th member, the ISB and 19 NOPs
 * later: 80 bytes after the MSR.
 */
static void check_icr_write_selected(void)
{
	uint64_t base = (uint64_t)spe_buf, scr = 1u << 1, msr_pc, len, pos = 0;
	struct record first, second;
	int n1, n2;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 10, 0, 0);
	__asm__ volatile("adr %0, 1f\n\t"
			 "msr " PMSCR_EL2 ", %1\n\t"
			 "isb\n\t"
			 ".rept 8\n\tnop\n\t.endr\n"
			 "1:\n\t"
			 "msr " PMSICR_EL1 ", %2\n\t"
			 "isb\n\t"
			 ".rept 40\n\tnop\n\t.endr\n\t"
			 "msr " PMSCR_EL2 ", xzr\n\t"
			 "isb"
			 : "=&r"(msr_pc)
			 : "r"(scr), "r"((uint64_t)20)
			 : "memory");
	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	n1 = next_record(spe_buf, len, &pos, &first);
	n2 = n1 && next_record(spe_buf, len, &pos, &second);
	result("icr-write-selected-record", n1 && first.pc == msr_pc, n1 ? first.pc : 0, msr_pc);
	result("icr-write-selected-next", n2 && second.pc == msr_pc + 80,
	       n2 ? second.pc - msr_pc : 0, 80);
}

/*
 * EL1 code sampled by EL1, the owner (MDCR_EL2.E2PB = 0b11, PMSCR_EL1.E1SPE): each is nine
 * members (EL2, where profiling is disabled, enters it), then "hvc #1" returns to EL2. COUNT 9
 * selects the ninth, COUNT 8 the eighth. VBAR_EL1 is el1_eret_vectors, every entry an ERET, for
 * the SVC.
 */
void el1_fault_load(void), el1_trapped_mrs(void), el1_svc(void), el1_fetch_abort(void);
extern const char el1_faulting_ldr[], el1_trapped_sysreg[], el1_before_svc[], el1_svc_insn[];
extern const char el1_blr_unmapped[], el1_eret_vectors[];
__asm__(".text\n\t.balign 4\n"
	/* a load from IPA 0x80000000, outside the stage 2 map: Data Abort to EL2 */
	"el1_fault_load:\n\tmovz x1, #0x8000, lsl #16\n\t.rept 7\n\tnop\n\t.endr\n"
	"el1_faulting_ldr:\n\tldr x0, [x1]\n\thvc #1\n"
	/* PMSIRR_EL1 read, which MDCR_EL2.TPMS traps to EL2 (SPE 4.3.12) */
	"el1_trapped_mrs:\n\t.rept 8\n\tnop\n\t.endr\n"
	"el1_trapped_sysreg:\n\tmrs x0, " PMSIRR_EL1 "\n\thvc #1\n"
	"el1_svc:\n\t.rept 7\n\tnop\n\t.endr\n"
	"el1_before_svc:\n\tnop\n"
	"el1_svc_insn:\n\tsvc #0\n\thvc #1\n"
	/* a branch to IPA 0x80000000: the Instruction Abort is its target's */
	"el1_fetch_abort:\n\tmovz x1, #0x8000, lsl #16\n\t.rept 7\n\tnop\n\t.endr\n"
	"el1_blr_unmapped:\n\tblr x1\n\thvc #1\n"
	".balign 2048\n"
	"el1_eret_vectors:\n\t.rept 16\n\teret\n\t.balign 128\n\t.endr\n"
	".globl el1_fault_load, el1_trapped_mrs, el1_svc, el1_fetch_abort\n\t"
	".globl el1_faulting_ldr, el1_trapped_sysreg, el1_before_svc, el1_svc_insn\n\t"
	".globl el1_blr_unmapped, el1_eret_vectors\n");

/* End a sampled run: PSB CSYNC at EL2 brings the records of the run into the buffer (SPE 3.6);
 * sampling and the buffer are disabled and MDCR_EL2 restored. Returns the bytes of records. */
static uint64_t end_sampled_run(uint64_t base, uint64_t mdcr)
{
	uint64_t len;

	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMSCR_EL1, 0);
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	write_sys("mdcr_el2", mdcr);
	return len;
}

/* Run fn at EL1 sampled from COUNT count with extra MDCR_EL2 and HCR_EL2 bits; HCR_EL2.VM
 * selects the stage 2 map. Returns the bytes of records PSB CSYNC at EL2 finds. */
static uint64_t el1_sampled_run(void (*fn)(void), uint64_t count, uint64_t mdcr_set,
				uint64_t hcr_set)
{
	uint64_t mdcr = read_sys("mdcr_el2"), hcr = read_sys("hcr_el2"), base = (uint64_t)spe_buf;

	if (hcr_set & HCR_EL2_VM) {
		/* as stage2_fault_run(): T0SZ 32, SL0 1, WB, inner shareable, 4K, PS 32-bit */
		s2_table[1] = 0x40000000ull | 0x7fd;
		write_sys("vtcr_el2", 32 | (1u << 6) | (1u << 8) | (1u << 10) | (3u << 12));
		write_sys("vttbr_el2", (uint64_t)s2_table);
		__asm__ volatile("tlbi vmalls12e1\n\tdsb nsh\n\tisb" ::: "memory");
	}
	write_sys("vbar_el1", (uint64_t)el1_eret_vectors);
	write_sys("mdcr_el2", mdcr | MDCR_EL2_E2PB | mdcr_set);
	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, count, 0, 0);
	write_sys(PMSCR_EL1, 1u << 1); /* E1SPE */
	trap_count = 0;
	trap_esr = 0;
	write_sys("hcr_el2", hcr | hcr_set);
	call_el1(fn);
	write_sys("hcr_el2", hcr);
	return end_sampled_run(base, mdcr);
}

/*
 * The first record is pc's, with Events E[1:0] = e0e1 (E[1] retired, which a synchronous
 * exception also is, E[0] generated exception: SPE 5.3.7), after trap_count exceptions to EL2
 * with exception class ec (the last one's).
 */
static void check_events(const char *name, uint64_t len, const char *pc, uint32_t e0e1,
			 unsigned int ec)
{
	struct record r;
	uint64_t target;
	int found = first_record(len, &r, &target);
	char n[48];

	snprintf(n, sizeof(n), "%s-record", name);
	result(n, found && r.pc == (uint64_t)pc, found ? r.pc : 0, (uint64_t)pc);
	expect(name, found ? r.events & 3 : 0xff, e0e1);
	if (ec) {
		snprintf(n, sizeof(n), "%s-ec", name);
		expect(n, trap_count << 8 | ESR_EC(trap_esr), 1u << 8 | ec);
	}
}

/*
 * Events E[0]: the sampled load takes a stage 2 Data Abort to EL2 (EC 0x24), skipped there; the
 * sampled MRS traps to EL2 (EC 0x18). Each completed with a synchronous exception it generated:
 * E[0] and E[1]. The operation before an SVC, and the BLR whose target takes an Instruction
 * Abort (EC 0x20; the exception is its target's, taken at the target's address), generated
 * none: E[1] alone, the BLR's record with the branch target. The SVC selected: E[0] and E[1].
 * (The record of an operation that generated an exception need hold nothing but Events and
 * End or Timestamp, SPE 2.3.5: the PC packets here are this QEMU's choice, docs/qemu-spe.md.)
 */
static void check_generated_exception(void)
{
	struct record r;
	uint64_t len, target;
	int found;

	len = el1_sampled_run(el1_fault_load, 9, 0, HCR_EL2_VM);
	check_events("e0-fault-load", len, el1_faulting_ldr, 3, 0x24);
	len = el1_sampled_run(el1_trapped_mrs, 9, MDCR_EL2_TPMS, 0);
	check_events("e0-trapped-sysreg", len, el1_trapped_sysreg, 3, 0x18);
	len = el1_sampled_run(el1_svc, 8, 0, 0);
	check_events("e0-clear-svc", len, el1_before_svc, 2, 0);
	len = el1_sampled_run(el1_svc, 9, 0, 0);
	check_events("e0-svc", len, el1_svc_insn, 3, 0);
	len = el1_sampled_run(el1_fetch_abort, 9, 0, HCR_EL2_VM);
	check_events("e0-clear-fetch-abort", len, el1_blr_unmapped, 2, 0x20);
	found = first_record(len, &r, &target);
	expect("e0-clear-fetch-abort-target", found ? target & ((1ull << 56) - 1) : 0,
	       0x80000000ull);
}

/*
 * AArch32 EL0 code (A32 encodings): 600 NOPs, then SVC #0, which HCR_EL2.TGE takes to EL2
 * (EC 0x11). More than an interval of 257 members: sampled there, a record would fall in it.
 */
void a32_code(void);
extern const char a32_code_end[];
__asm__(".text\n\t.balign 4\n\t.globl a32_code, a32_code_end\n"
	"a32_code:\n\t.rept 600\n\t.word 0xe320f000\n\t.endr\n" /* NOP */
	"\t.word 0xef000000\n"					/* SVC #0 */
	"a32_code_end:\n");

/*
 * The selected operation is the ERET from EL2, the owner (E2SPE and E0HSPE, HCR_EL2.TGE = 1:
 * EL0 would be sampled in AArch64), into AArch32 EL0 (SPSR_EL2.M = 0b10000, A, I, F masked),
 * where profiling is disabled (SPE 2.1.1; StatisticalProfilingEnabled() is FALSE when
 * UsingAArch32()): the exception return completes it, a branch whose target is the first A32
 * instruction, at EL0; nothing in AArch32 is sampled or counted, so that record is the only
 * one (EL2 disables profiling within an interval of its return).
 */
static void check_aarch32_eret(void)
{
	uint64_t base = (uint64_t)spe_buf, hcr = read_sys("hcr_el2"), len, target, pos = 0;
	unsigned int in_a32 = 0, n = 0;
	struct record r;
	int found;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 2, 0, 0); /* the ISB, then the ERET */
	trap_esr = 0;
	write_sys("hcr_el2", hcr | HCR_EL2_TGE);
	call_lower_sampled(a32_code, (1u << 1) | 1u, 0x1d0);
	write_sys(PMSCR_EL2, 0);
	write_sys("hcr_el2", hcr);
	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	while (next_record(spe_buf, len, &pos, &r)) {
		n++;
		in_a32 += r.pc >= (uint64_t)a32_code && r.pc < (uint64_t)a32_code_end;
	}
	found = first_record(len, &r, &target);
	expect("aarch32-eret-svc", ESR_EC(trap_esr), 0x11);
	result("aarch32-eret-record", found && r.pc == (uint64_t)call_el1_sampled_eret,
	       found ? r.pc : 0, (uint64_t)call_el1_sampled_eret);
	expect("aarch32-eret-target", target & ((1ull << 56) - 1), (uint64_t)a32_code);
	expect("aarch32-eret-target-el0", (target >> 61) & 3, 0);
	expect("aarch32-eret-none-in-a32", (uint64_t)n << 32 | in_a32, 1ull << 32);
}

/*
 * Completion by an asynchronous exception: a virtual IRQ (HCR_EL2.VI with IMO) pending at EL1
 * is taken right after the sampled operation, which it did not generate, so its record is built
 * at that exception entry (SPE 3.6; docs/qemu-spe.md, "Completion") with E[1] alone (retired,
 * SPE 5.3.7) and, for a branch, the branch target the interrupt returns to (Arm DDI 0487 K.a
 * D18.2.1, INDEX 1). Each EL1 vector keeps its number and ELR_EL1 and returns to EL2 ("hvc #1").
 * el1_unmask_irq: eight NOPs, then the MSR that unmasks IRQs, the ninth member of the sample
 * population; the IRQ is taken before the NOP after it.
 */
uint64_t async_vector, async_elr;
void el1_unmask_irq(void);
extern const char el1_daifclr[], el1_after_daifclr[], el1_async_vectors[];
__asm__(".text\n\t.balign 4\n"
	"el1_unmask_irq:\n\t.rept 8\n\tnop\n\t.endr\n"
	"el1_daifclr:\n\tmsr daifclr, #2\n"
	"el1_after_daifclr:\n\tnop\n\thvc #1\n"
	".balign 2048\n"
	"el1_async_vectors:\n"
	"\t.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"
	"\tmov x0, #\\n\n\tadrp x1, async_vector\n\tstr x0, [x1, :lo12:async_vector]\n"
	"\tmrs x0, elr_el1\n\tadrp x1, async_elr\n\tstr x0, [x1, :lo12:async_elr]\n"
	"\thvc #1\n\t.balign 128\n\t.endr\n"
	".globl el1_unmask_irq, el1_daifclr, el1_after_daifclr, el1_async_vectors\n");

#define HCR_EL2_IMO (1u << 4)
#define HCR_EL2_VI  (1u << 7)
/* The vector of an IRQ from the current EL with SP_ELx (Arm DDI 0487 K.a D1.3.1): 0x280 */
#define VECTOR_IRQ_CURRENT_SPX 5

/*
 * Run fn at EL1 with a virtual IRQ pending, sampled from COUNT count: by EL1 (MDCR_EL2.E2PB
 * 0b11, PMSCR_EL1.E1SPE) entered with DAIF masked when el2_owner is 0; else by EL2 (E2PB 0b00,
 * PMSCR_EL2.E2SPE and PMSCR_EL1.E1SPE) entered with IRQs unmasked, so that the ERET is a member
 * (call_lower_sampled). Returns the bytes of records PSB CSYNC at EL2 finds.
 */
static uint64_t async_irq_run(void (*fn)(void), uint64_t count, int el2_owner)
{
	uint64_t mdcr = read_sys("mdcr_el2"), hcr = read_sys("hcr_el2"), base = (uint64_t)spe_buf;

	write_sys("vbar_el1", (uint64_t)el1_async_vectors);
	write_sys("mdcr_el2", (mdcr & ~(uint64_t)MDCR_EL2_E2PB) | (el2_owner ? 0 : MDCR_EL2_E2PB));
	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, count, 0, 0);
	write_sys(PMSCR_EL1, 1u << 1); /* E1SPE */
	async_vector = async_elr = ~0ull;
	write_sys("hcr_el2", hcr | HCR_EL2_IMO | HCR_EL2_VI);
	if (el2_owner)
		call_lower_sampled(fn, 1u << 1, 0x345); /* E2SPE; EL1h, D, A, F masked */
	else
		call_el1(fn);
	write_sys(PMSCR_EL2, 0);
	write_sys("hcr_el2", hcr);
	return end_sampled_run(base, mdcr);
}

/*
 * The sampled MSR DAIFClr is followed by the IRQ: its record, E[1:0] = 0b10, the only one; the
 * IRQ was taken at the next instruction. The sampled ERET from EL2 into EL1, where the IRQ is
 * taken before fn's first instruction: its record has E[1:0] = 0b10 and fn, at EL1, as the
 * branch target.
 */
static void check_async_completion(void)
{
	struct record r;
	uint64_t len, target;
	int found;

	len = async_irq_run(el1_unmask_irq, 9, 0);
	found = first_record(len, &r, &target);
	expect("async-irq-taken", async_vector << 56 | async_elr,
	       (uint64_t)VECTOR_IRQ_CURRENT_SPX << 56 | (uint64_t)el1_after_daifclr);
	result("async-irq-record", found && r.pc == (uint64_t)el1_daifclr, found ? r.pc : 0,
	       (uint64_t)el1_daifclr);
	expect("async-irq-events", found ? r.events & 3 : 0xff, 2);
	expect("async-irq-records", record_count(len), 1);

	len = async_irq_run(el1_unmask_irq, 2, 1);
	found = first_record(len, &r, &target);
	expect("async-irq-eret-taken", async_vector << 56 | async_elr,
	       (uint64_t)VECTOR_IRQ_CURRENT_SPX << 56 | (uint64_t)el1_unmask_irq);
	result("async-irq-eret-record", found && r.pc == (uint64_t)call_el1_sampled_eret,
	       found ? r.pc : 0, (uint64_t)call_el1_sampled_eret);
	expect("async-irq-eret-events", found ? r.events & 3 : 0xff, 2);
	expect("async-irq-eret-target", target & ((1ull << 56) - 1), (uint64_t)el1_unmask_irq);
	expect("async-irq-eret-target-el1", (target >> 61) & 3, 1);
	expect("async-irq-eret-records", record_count(len), 1);
}

void check_completion(void)
{
	check_icr_write_in_flight();
	check_icr_write_selected();
	check_generated_exception();
	check_aarch32_eret();
	check_async_completion();
}
