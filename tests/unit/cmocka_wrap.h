/* SPDX-License-Identifier: MIT */
/* cmocka with the headers it expects before it. */
#ifndef VPERF_TEST_CMOCKA_WRAP_H
#define VPERF_TEST_CMOCKA_WRAP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#endif
