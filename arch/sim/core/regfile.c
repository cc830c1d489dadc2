// SPDX-License-Identifier: MIT
/*
 * The simulated CPUs' register files: see sim/cpu.h. This is where the accessor seam
 * (arch/sysreg.h) lands: vperf's accesses arrive as encodings and are resolved with the model's
 * own register table (sim/arch_regs.h), never with vperf's database.
 */
#include <arch/sysreg.h>
#include <sim/arch_regs.h>
#include <sim/cpu.h>

static struct sim_cpu cpus[SIM_MAX_CPUS];
static unsigned int current;
static struct sim_hooks hooks;

void sim_reset(void)
{
	static const struct sim_cpu zero;
	static const struct sim_hooks no_hooks;

	for (unsigned int i = 0; i < SIM_MAX_CPUS; i++)
		cpus[i] = zero;
	hooks = no_hooks;
	current = 0;
}

void sim_set_cpu(unsigned int cpu)
{
	current = cpu < SIM_MAX_CPUS ? cpu : 0;
}

unsigned int sim_current_cpu(void)
{
	return current;
}

struct sim_cpu *sim_cpu(unsigned int cpu)
{
	return cpu < SIM_MAX_CPUS ? &cpus[cpu] : NULL;
}

void sim_set_hooks(const struct sim_hooks *h)
{
	static const struct sim_hooks no_hooks;

	hooks = h ? *h : no_hooks;
}

static long reg_index(uint32_t enc)
{
	return sim_arch_reg_slot(enc);
}

void sim_poke(unsigned int cpu, uint32_t enc, uint64_t val)
{
	long i = reg_index(enc);

	if (cpu < SIM_MAX_CPUS && i >= 0)
		cpus[cpu].regs[i] = val;
}

uint64_t sim_peek(unsigned int cpu, uint32_t enc)
{
	long i = reg_index(enc);

	return cpu < SIM_MAX_CPUS && i >= 0 ? cpus[cpu].regs[i] : 0;
}

void sim_clear_counts(unsigned int cpu)
{
	struct sim_cpu *c = sim_cpu(cpu);

	if (!c)
		return;
	c->nr_reads = c->nr_writes = c->nr_barriers = c->nr_unknown = 0;
	c->trace_len = 0;
}

const struct sim_event *sim_trace_at(unsigned int cpu, uint64_t i)
{
	const struct sim_cpu *c = sim_cpu(cpu);
	uint64_t first;

	if (!c)
		return NULL;
	first = c->trace_len > SIM_TRACE_LEN ? c->trace_len - SIM_TRACE_LEN : 0;
	if (first + i >= c->trace_len)
		return NULL;
	return &c->trace[(first + i) % SIM_TRACE_LEN];
}

bool sim_trace_since(unsigned int cpu, uint64_t since, uint64_t *first, uint64_t *end)
{
	const struct sim_cpu *c = sim_cpu(cpu);
	uint64_t kept;

	if (!c || since > c->trace_len)
		return false;
	kept = c->trace_len < SIM_TRACE_LEN ? c->trace_len : SIM_TRACE_LEN;
	if (c->trace_len - since > kept)
		return false;
	*first = kept - (c->trace_len - since);
	*end = kept;
	return true;
}

static void record(enum sim_event_kind kind, uint32_t enc, uint64_t val)
{
	struct sim_cpu *c = &cpus[current];
	struct sim_event *e = &c->trace[c->trace_len % SIM_TRACE_LEN];

	e->kind = kind;
	e->enc = enc;
	e->val = val;
	c->trace_len++;
}

uint64_t vperf_arch_read_sysreg_enc(uint32_t enc)
{
	struct sim_cpu *c = &cpus[current];
	long i = reg_index(enc);
	uint64_t v;

	if (i < 0) {
		c->nr_unknown++;
		return 0;
	}
	v = c->regs[i];
	if (hooks.read)
		v = hooks.read(hooks.ctx, current, enc, v);
	c->nr_reads++;
	record(SIM_READ, enc, v);
	return v;
}

void vperf_arch_write_sysreg_enc(uint32_t enc, uint64_t val)
{
	struct sim_cpu *c = &cpus[current];
	long i = reg_index(enc);

	if (i < 0) {
		c->nr_unknown++;
		return;
	}
	if (hooks.write)
		val = hooks.write(hooks.ctx, current, enc, c->regs[i], val);
	c->regs[i] = val;
	c->nr_writes++;
	record(SIM_WRITE, enc, val);
}

void sim_barrier(enum sim_event_kind kind)
{
	cpus[current].nr_barriers++;
	record(kind, 0, 0);
	if (hooks.barrier)
		hooks.barrier(hooks.ctx, current, kind);
}
