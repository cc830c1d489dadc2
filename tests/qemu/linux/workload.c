// SPDX-License-Identifier: MIT
/*
 * vperf-work: the workload Linux's perf measures in the perf guest (perf-init.sh). Two functions
 * with symbols, each a loop of exactly two instructions per iteration: vperf_work_major runs
 * 2 * ITERS iterations, vperf_work_minor ITERS, so the program retires at least 6 * ITERS
 * instructions at EL0 and a profile of it puts about two thirds of its samples in the first,
 * one third in the second.
 *   vperf-work [ITERS]     (default 10000000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 0) : 10000000u;

	if (!iters) {
		fprintf(stderr, "vperf-work: ITERS must be at least 1\n");
		return 2;
	}
	vperf_work_major(2 * iters);
	vperf_work_minor(iters);
	printf("vperf-work: %llu iterations, %llu loop instructions\n", (unsigned long long)iters,
	       (unsigned long long)(6 * iters + 2));
	return 0;
}
