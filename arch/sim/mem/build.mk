# Simulated memory and translation, and the TLB the Profiling Buffer writes through.
lib-y += arch/sim/mem/mem.c arch/sim/mem/mem_phys.c arch/sim/mem/mem_tlb.c
