# arm64: the real accessor seam.
lib-y += arch/arm64/sysreg.c
