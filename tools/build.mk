# tools/: host programs, built for the build machine whatever ARCH is, and sim programs that link
# the sim build of vperf.
-include $(srctree)/tools/vperf-spe/build.mk

ifeq ($(ARCH),sim)
simprogs-y += vperf-demo
vperf-demo-objs := tools/vperf-demo/demo.c tools/vperf-demo/demo_spe.c tools/vperf-spe/summary.c
endif
-include $(srctree)/tools/bench/build.mk
