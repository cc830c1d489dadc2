// SPDX-License-Identifier: MIT
/*
 * A failing world of test_isolation_worlds shrunk (iso_worlds.h): pCPUs, VMs, vCPUs, program
 * steps, schedule slots and power-downs removed and policies simplified (world.h, struct
 * w_shrink), each candidate run in a child process and kept while it fails the same way; then
 * described and failed with the string that reproduces it (HV_WORLD=..., world_format).
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmocka_wrap.h"
#include "iso_worlds.h"
#include "sched_util.h"

static unsigned int shrink_runs;

/* The world of seed with shrink s, run in a child process (a harness assertion or a crash is a
 * failure of its own kind): its failure kind, message in msg. */
static enum w_fail try_world(uint64_t seed, const struct w_shrink *s, char *msg, size_t len)
{
	int fds[2], status;
	pid_t pid;
	struct world w;
	struct w_result res;
	ssize_t got;

	shrink_runs++;
	if (pipe(fds))
		return WF_NONE;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		world_draw(seed, &w);
		world_apply(&w, s);
		check_world(&w, &res);
		if (write(fds[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
			_exit(126);
		_exit(0);
	}
	close(fds[1]);
	got = read(fds[0], &res, sizeof(res));
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (got != (ssize_t)sizeof(res) || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(msg, len, "the run stopped (status 0x%x)", status);
		return WF_CRASH;
	}
	snprintf(msg, len, "%s", res.msg);
	return res.fail;
}

/* Keep candidate c if its world still fails as f did. */
static bool keep(uint64_t seed, struct w_shrink *best, const struct w_shrink *c, enum w_fail f,
		 char *msg, size_t len)
{
	char m[320];

	if (try_world(seed, c, m, sizeof(m)) != f)
		return false;
	*best = *c;
	snprintf(msg, len, "%s", m);
	return true;
}

/* Remove what the failure does not need, one part at a time, until nothing more goes (at most
 * HV_SHRINK_RUNS runs, default 2000). */
static void shrink(uint64_t seed, const struct world *drawn, enum w_fail f, struct w_shrink *best,
		   char *msg, size_t len)
{
	unsigned int budget = (unsigned int)sched_env_u64("HV_SHRINK_RUNS", 2000);
	bool progress = true;

	shrink_runs = 0;
	while (progress && shrink_runs < budget) {
		struct w_shrink c;

		progress = false;
		for (unsigned int x = 0; x < drawn->nr_cpus && shrink_runs < budget; x++) {
			c = *best;
			c.cpus |= 1u << x;
			if (c.cpus != *&best->cpus && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int x = 0; x < drawn->nr_vms && shrink_runs < budget; x++) {
			c = *best;
			c.vms |= 1u << x;
			if (c.vms != best->vms && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int x = 0; x < drawn->nr_vcpus && shrink_runs < budget; x++) {
			c = *best;
			c.vcpus |= 1u << x;
			if (c.vcpus != best->vcpus && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int st = 1; st < drawn->steps && shrink_runs < budget; st++) {
			c = *best;
			if (best->steps && st >= best->steps)
				break;
			c.steps = st;
			if (keep(seed, best, &c, f, msg, len)) {
				progress = true;
				break;
			}
		}
		/* Slots: halves, quarters, ... then one at a time. */
		for (unsigned int chunk = 64; chunk >= 1 && shrink_runs < budget; chunk /= 2)
			for (unsigned int k = 0; k < drawn->nr_slots && shrink_runs < budget;
			     k += chunk) {
				bool any = false;

				c = *best;
				for (unsigned int j = k; j < k + chunk && j < drawn->nr_slots;
				     j++) {
					any |= !(c.slots[j / 64] >> (j % 64) & 1);
					c.slots[j / 64] |= 1ull << (j % 64);
				}
				if (any && keep(seed, best, &c, f, msg, len))
					progress = true;
			}
		for (unsigned int k = 0; k < drawn->nr_slots && shrink_runs < budget; k++) {
			c = *best;
			c.ups[k / 64] |= 1ull << (k % 64);
			if (drawn->slot[k].down && c.ups[k / 64] != best->ups[k / 64] &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int b = 0; b < 4 * W_MAX_VMS && shrink_runs < budget; b++) {
			c = *best;
			c.vm_simple |= 1u << b;
			if (b / 4 < drawn->nr_vms && c.vm_simple != best->vm_simple &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int b = 0; b < 4 * W_MAX_CPUS && shrink_runs < budget; b++) {
			c = *best;
			c.cpu_simple |= 1u << b;
			if (b / 4 < drawn->nr_cpus && c.cpu_simple != best->cpu_simple &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
	}
}

void report_failure(uint64_t seed, const struct w_shrink *s0, const struct w_result *res)
{
	struct world w;
	struct w_shrink best = *s0;
	char msg[320], repro[200];

	snprintf(msg, sizeof(msg), "%s", res->msg);
	world_draw(seed, &w);
	world_apply(&w, s0);
	printf("seed %llu: the world fails: %s\n", (unsigned long long)seed, res->msg);
	world_describe(&w);
	if (sched_env_u64("HV_SHRINK", 1)) {
		shrink(seed, &w, res->fail, &best, msg, sizeof(msg));
		world_draw(seed, &w);
		world_apply(&w, &best);
		printf("shrunk in %u runs to:\n", shrink_runs);
		world_describe(&w);
	}
	world_format(repro, sizeof(repro), seed, &best);
	printf("reproduce: HV_WORLD=%s build/sim/tests/bin/test_isolation_worlds\n", repro);
	fail_msg("world %s: %s", repro, msg);
}
