# lib/: the layer below virt/ and tools/, freestanding and identical for every ARCH. It knows
# registers and packets, not guests: the register database (lib/regdb.c over
# include/vperf/sysregs.def) and the SPE packet and record codec (lib/spe, Arm DDI 0487 D18.2 and
# SPE 5). Both are part of libvperf.a; the codec is compiled again for the host tools
# (libvperf-host.a).
lib-y += lib/regdb.c
spe-codec-y := lib/spe/pkt_decode.c lib/spe/pkt_encode.c lib/spe/pkt_addr.c \
	lib/spe/pkt_op.c lib/spe/pkt_names.c lib/spe/rec.c lib/spe/rec_encode.c
lib-y += $(spe-codec-y)
host-lib-y += $(spe-codec-y)
