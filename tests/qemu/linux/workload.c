// SPDX-License-Identifier: MIT
/*
 * vperf-work: the workload Linux's perf measures in the perf guest (perf-init.sh). Two functions
 * with symbols, each a loop of exactly two instructions per iteration: vperf_work_major runs
 * 2 * ITERS iterations, vperf_work_minor ITERS, so the program retires at least 6 * ITERS
 * instructions at EL0 and a profile of it puts about two thirds of its samples in the first,
 * one third in the second.
 *   vperf-work [ITERS]     (default 10000000); prints the loops' size and its text's extent
 *   vperf-work cntvct      prints the virtual count (the SPE isolation check's time window)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vperf_work_major(uint64_t iters);
void vperf_work_minor(uint64_t iters);

/* Written in assembly so that their instruction counts are known, whatever the compiler does;
 * .type and .size give perf's symbol lookup their extent. */
#define WORK_LOOP(name)                                    \
	__asm__(".text\n"                                  \
		".balign 16\n"                             \
		".globl " #name "\n"                       \
		".type " #name ", %function\n" #name ":\n" \
		"1:	subs x0, x0, #1\n"                     \
		"	b.ne 1b\n"                               \
		"	ret\n"                                   \
		".size " #name ", . - " #name "\n")
WORK_LOOP(vperf_work_major);
WORK_LOOP(vperf_work_minor);

/* The program's text, from the linker's symbols: where its EL0 samples must lie. */
extern const char __executable_start[], etext[];

/* The virtual count (CNTVCT_EL0, which Linux lets EL0 read), after the instructions before it. */
static uint64_t virtual_count(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
	return v;
}

int main(int argc, char **argv)
{
	uint64_t iters;

	if (argc > 1 && !strcmp(argv[1], "cntvct")) {
		printf("%llu\n", (unsigned long long)virtual_count());
		return 0;
	}
	iters = argc > 1 ? strtoull(argv[1], NULL, 0) : 10000000u;

	if (!iters) {
		fprintf(stderr, "vperf-work: ITERS must be at least 1\n");
		return 2;
	}
	vperf_work_major(2 * iters);
	vperf_work_minor(iters);
	printf("vperf-work: %llu iterations, %llu loop instructions\n", (unsigned long long)iters,
	       (unsigned long long)(6 * iters + 2));
	printf("vperf-work: text %p-%p\n", (const void *)__executable_start, (const void *)etext);
	return 0;
}
