// SPDX-License-Identifier: MIT
/*
 * Simulated physical memory (see sim/mem.h): pages in an open-addressing table keyed by page
 * number, their 4 KB of data allocated on the first write, each with its external-abort flag.
 */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"

#define PAGE_SLOTS 4096u /* a power of two */

struct phys_page {
	uint64_t page;
	uint8_t *data; /* NULL until written */
	bool used;
	bool abort; /* external abort on write (SPE 3.5.4) */
};

static struct phys_page pages[PAGE_SLOTS];

void sim_mem_phys_reset(void)
{
	for (uint32_t i = 0; i < PAGE_SLOTS; i++) {
		free(pages[i].data);
		pages[i].data = NULL;
		pages[i].used = false;
		pages[i].abort = false;
	}
}

static struct phys_page *page_slot(uint64_t page, bool create)
{
	uint32_t i = sim_mem_hash(page, 0, PAGE_SLOTS);

	for (uint32_t n = 0; n < PAGE_SLOTS; n++, i = (i + 1) & (PAGE_SLOTS - 1)) {
		struct phys_page *p = &pages[i];

		if (p->used && p->page == page)
			return p;
		if (!p->used) {
			if (!create)
				return NULL;
			p->used = true;
			p->page = page;
			return p;
		}
	}
	return NULL;
}

void sim_mem_set_abort(uint64_t pa, uint64_t size, bool abort)
{
	uint64_t n = sim_mem_pages_spanned(pa, size);

	for (uint64_t i = 0; i < n; i++) {
		struct phys_page *p = page_slot((pa >> SIM_PAGE_SHIFT) + i, true);

		if (p)
			p->abort = abort;
	}
}

bool sim_mem_aborts(uint64_t pa)
{
	const struct phys_page *p = page_slot(pa >> SIM_PAGE_SHIFT, false);

	return p && p->abort;
}

bool sim_mem_write(uint64_t pa, const void *src, size_t n)
{
	const uint8_t *s = src;

	while (n) {
		uint64_t off = pa & (SIM_PAGE_SIZE - 1);
		size_t chunk =
			(size_t)(SIM_PAGE_SIZE - off) < n ? (size_t)(SIM_PAGE_SIZE - off) : n;
		struct phys_page *p = page_slot(pa >> SIM_PAGE_SHIFT, true);

		if (!p || p->abort)
			return false;
		if (!p->data)
			p->data = calloc(1, SIM_PAGE_SIZE);
		if (!p->data)
			return false;
		memcpy(p->data + off, s, chunk);
		pa += chunk;
		s += chunk;
		n -= chunk;
	}
	return true;
}

void sim_mem_read(uint64_t pa, void *dst, size_t n)
{
	uint8_t *d = dst;

	while (n) {
		uint64_t off = pa & (SIM_PAGE_SIZE - 1);
		size_t chunk =
			(size_t)(SIM_PAGE_SIZE - off) < n ? (size_t)(SIM_PAGE_SIZE - off) : n;
		const struct phys_page *p = page_slot(pa >> SIM_PAGE_SHIFT, false);

		if (p && p->data)
			memcpy(d, p->data + off, chunk);
		else
			memset(d, 0, chunk);
		pa += chunk;
		d += chunk;
		n -= chunk;
	}
}
