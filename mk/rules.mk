# Pattern rules. Objects mirror the source tree under $(obj); host objects live under $(obj)/host.

lib-objs := $(patsubst %.c,$(obj)/%.o,$(lib-y))
host-lib-objs := $(patsubst %.c,$(obj)/host/%.o,$(host-lib-y))
hostprogs-bin := $(addprefix $(obj)/host/bin/,$(hostprogs-y))
tests-bin := $(addprefix $(obj)/tests/bin/,$(tests-y))
autoconf := $(autoconf-h)

$(obj)/%.o: $(srctree)/%.c $(autoconf)
	@mkdir -p $(@D)
	@echo "  CC      $*.c"
	$(Q)$(CC) $(CFLAGS_LIB) $(CFLAGS_$(notdir $*)) -c $< -o $@

$(obj)/libvperf.a: $(lib-objs)
	@echo "  AR      $(O)/libvperf.a"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(obj)/host/%.o: $(srctree)/%.c $(autoconf)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $*.c"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $(HOST_CFLAGS_$(notdir $*)) -c $< -o $@

$(obj)/host/libvperf-host.a: $(host-lib-objs)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# A host program P is built from $(P-objs) (source paths) and the host copy of the library.
define hostprog_rule
$(obj)/host/bin/$(1): $(patsubst %.c,$(obj)/host/%.o,$($(1)-objs)) $(obj)/host/libvperf-host.a
	@mkdir -p $$(@D)
	@echo "  HOSTLD  $(1)"
	$(Q)$(HOSTCC) $$^ $($(1)-ldlibs) -o $$@
endef
$(foreach p,$(hostprogs-y),$(eval $(call hostprog_rule,$(p))))

# A sim program P (tools linked with the sim build of vperf) from $(P-objs).
simprogs-bin := $(addprefix $(obj)/tools/bin/,$(simprogs-y))
define simprog_rule
$(obj)/tools/bin/$(1): $(patsubst %.c,$(obj)/%.o,$($(1)-objs)) $(obj)/libvperf.a
	@mkdir -p $$(@D)
	@echo "  LD      tools/$(1)"
	$(Q)$(CC) $(LDFLAGS_TEST) $$^ -o $$@
endef
$(foreach p,$(simprogs-y),$(eval $(call simprog_rule,$(p))))

# A unit test T is built from $(T-objs) with cmocka and the sim library.
$(obj)/tests/%.o: $(srctree)/tests/%.c $(autoconf)
	@mkdir -p $(@D)
	@echo "  CC      tests/$*.c"
	$(Q)$(CC) $(CFLAGS_TEST) $(CFLAGS_$(notdir $*)) -c $< -o $@

define test_rule
$(obj)/tests/bin/$(1): $(patsubst $(srctree)/tests/%.c,$(obj)/tests/%.o,$(addprefix $(srctree)/,$($(1)-objs))) $(obj)/libvperf.a
	@mkdir -p $$(@D)
	@echo "  LD      tests/$(1)"
	$(Q)$(CC) $(LDFLAGS_TEST) $$^ -lcmocka $($(1)-ldlibs) -o $$@
endef
$(foreach t,$(tests-y),$(eval $(call test_rule,$(t))))

-include $(lib-objs:.o=.d) $(host-lib-objs:.o=.d) $(shell find $(obj)/tests $(obj)/host $(obj)/tools -name '*.d' 2>/dev/null)
