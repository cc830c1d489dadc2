# virt/spe: the SPE packet and record codec (D18.2, SPE supplement section 5). Freestanding: it is
# part of libvperf.a for every ARCH (the model writes records with it, the arm64 library may
# inspect a guest's buffer) and is compiled again for the host tools (libvperf-host.a).
spe-codec-y := virt/spe/pkt_decode.c virt/spe/pkt_encode.c virt/spe/pkt_addr.c \
	virt/spe/pkt_op.c virt/spe/pkt_names.c virt/spe/rec.c virt/spe/rec_encode.c
lib-y += $(spe-codec-y)
host-lib-y += $(spe-codec-y)
