// A device kernel as a flat image, made from its ELF at build time by
// device_image.cmake (riscv64-unknown-elf-objcopy -O binary for the bytes,
// readelf for the addresses): user programs in the host system's initramfs
// load it into device DRAM without an ELF reader.
#ifndef AVP_LINUX_DEVICE_IMAGE_H
#define AVP_LINUX_DEVICE_IMAGE_H
#include <stdint.h>

struct device_image {
  const char* name;      // the ELF's file name
  const uint8_t* bytes;  // the loadable segments' file bytes, from link_base
  uint64_t size;         // bytes in `bytes`
  uint64_t mem_size;     // from link_base to the end of the last segment (.bss included): zero the rest
  uint64_t link_base;    // the address the image is linked at (its first byte)
  uint64_t entry;        // the ELF's entry point
};

extern const struct device_image device_kernel_add_image;

#endif
