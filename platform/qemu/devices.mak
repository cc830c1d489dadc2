# The devices of the project's QEMU (configure --with-devices-aarch64): the virt board, which
# selects its own GIC, PL011, timer and flash, and the generic loader (-device loader) the
# tests place guest payloads with. Nothing else is built.
CONFIG_ARM_VIRT=y
CONFIG_GENERIC_LOADER=y
