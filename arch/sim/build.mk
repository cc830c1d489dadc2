# sim: the accessor seam over simulated CPUs, and the executable architecture model behind it
# (docs/model.md). Each folder is one part of the model; core/ is below the families, access/
# above them.
include $(srctree)/arch/sim/core/build.mk
include $(srctree)/arch/sim/pmu/build.mk
include $(srctree)/arch/sim/spe/build.mk
include $(srctree)/arch/sim/gic/build.mk
include $(srctree)/arch/sim/mem/build.mk
include $(srctree)/arch/sim/access/build.mk
include $(srctree)/arch/sim/guest/build.mk
