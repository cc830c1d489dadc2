# vperf-spe: decode raw SPE buffers (text dump, JSON lines, summary). docs/vperf-spe.md.
hostprogs-y += vperf-spe
vperf-spe-objs := tools/vperf-spe/main.c tools/vperf-spe/dump.c tools/vperf-spe/json.c \
	tools/vperf-spe/summary.c tools/vperf-spe/describe.c
