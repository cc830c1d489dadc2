# The devices of the project's QEMU (configure --with-devices-aarch64): the virt board, which
# selects its own GIC, PL011, timer, flash and virtio-mmio transports, the generic loader
# (-device loader) the tests place guest payloads with, and virtio-blk, the one disk edk2 can
# read on that board without PCI: the UEFI configurations boot the hypervisor, its command line
# and its guest images from a FAT image on it (-device virtio-blk-device, docs/uefi.md). Nothing
# else is built.
CONFIG_ARM_VIRT=y
CONFIG_GENERIC_LOADER=y
CONFIG_VIRTIO_BLK=y
