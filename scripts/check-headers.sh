#!/bin/sh
# The public headers as a hypervisor built like Xen sees them: -nostdinc (no <stdint.h>), its own
# fixed-width types and bool named through VPERF_TYPES_HEADER, -std=gnu99 (Xen's; vperf's own code
# is C11), and a generated/autoconf.h of its own ahead of vperf's on the include path, which
# vperf's configuration (include/vperf/config.h: generated/vperf/autoconf.h) must not pick up.
# Every include/vperf/*.h must compile alone that way (integrations/xen depends on it).
# Usage: check-headers.sh CC SRCTREE OBJ
set -eu
cc=$1 srctree=$2 obj=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/host_types.h" <<'EOT'
/* What Xen's <xen/types.h> provides, from the compiler's predefined macros only. */
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __SIZE_TYPE__ size_t;
#define bool _Bool
#define true 1
#define false 0
#define NULL ((void *)0)
EOT
mkdir "$tmp/generated"
echo '#error "the hypervisor'"'"'s own generated/autoconf.h, not vperf'"'"'s"' >"$tmp/generated/autoconf.h"
status=0
for h in "$srctree"/include/vperf/*.h; do
	printf '#include <vperf/%s>\n' "$(basename "$h")" >"$tmp/t.c"
	"$cc" -fsyntax-only -std=gnu99 -nostdinc -ffreestanding -Wall -Wextra -Werror \
		-DVPERF_TYPES_HEADER='"host_types.h"' -I"$tmp" -I"$srctree/include" -I"$obj/include" \
		"$tmp/t.c" ||
		{ echo "check-headers: $(basename "$h") does not compile with -nostdinc" >&2; status=1; }
done
[ $status -eq 0 ] && echo "check-headers: $(ls "$srctree"/include/vperf/*.h | wc -l) public headers compile with -nostdinc and VPERF_TYPES_HEADER"
exit $status
