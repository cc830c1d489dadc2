# Unit tests of the model's GIC family and of the micro-op workload generators.
ifeq ($(ARCH),sim)
tests-y += test_sim_gic test_sim_workload
test_sim_gic-objs := tests/unit/test_sim_gic.c
test_sim_workload-objs := tests/unit/test_sim_workload.c
endif
