# Model start-up, EL2 accesses through the seam, guest accesses and traps, the micro-op loop.
lib-y += arch/sim/access/model.c arch/sim/access/trap.c
