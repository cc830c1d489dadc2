/* SPDX-License-Identifier: MIT */
/*
 * The few libfdt functions vperf calls, declared here so that virt/ needs no libc header
 * (libfdt.h pulls in string.h and stdlib.h). They are libfdt's own, linked from Debian's
 * libfdt; tests/unit/test_fdt.c includes <libfdt.h> next to this header, so any mismatch with the
 * real declarations fails to compile.
 */
#ifndef VPERF_FDT_API_H
#define VPERF_FDT_API_H
#include <stddef.h>

int fdt_check_header(const void *fdt);
int fdt_check_full(const void *fdt, size_t bufsize);
int fdt_path_offset(const void *fdt, const char *path);
int fdt_add_subnode(void *fdt, int parentoffset, const char *name);
int fdt_setprop(void *fdt, int nodeoffset, const char *name, const void *val, int len);
int fdt_del_node(void *fdt, int nodeoffset);

#define VPERF_FDT_ERR_NOSPACE 3 /* libfdt's -FDT_ERR_NOSPACE */

#endif
