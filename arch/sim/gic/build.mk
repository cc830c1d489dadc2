# The GICv3 family: the ICH_* registers, physical PPIs, the virtual CPU interface.
lib-y += arch/sim/gic/gic.c arch/sim/gic/gic_phys.c arch/sim/gic/gic_virt.c
