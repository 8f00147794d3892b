# /bin/cmp_vecadd of the host initramfs (cmp_vecadd.c): the device vecadd
# kernel (device_kernel_add's ELF) as a flat image compiled in
# (device_image.cmake), so that the static program needs no ELF reader.
# Sets `cmp_vecadd` to the program's path.
find_program(AVP_RISCV_READELF riscv64-unknown-elf-readelf REQUIRED)
set(cmp_dir ${CMAKE_CURRENT_SOURCE_DIR}/cmp)
set(kernel_image ${CMAKE_CURRENT_BINARY_DIR}/device_kernel_add_image.c)
add_custom_command(OUTPUT ${kernel_image}
  COMMAND ${CMAKE_COMMAND} -DELF=$<TARGET_PROPERTY:device_kernel_add,AVP_ELF> -DOBJCOPY=${AVP_RISCV_OBJCOPY}
          -DREADELF=${AVP_RISCV_READELF} -DSYMBOL=device_kernel_add_image -DOUT=${kernel_image}
          -P ${cmp_dir}/device_image.cmake
  DEPENDS device_kernel_add $<TARGET_PROPERTY:device_kernel_add,AVP_ELF> ${cmp_dir}/device_image.cmake
  COMMENT "Flat image of device_kernel_add for the host initramfs" VERBATIM)
set(cmp_vecadd ${CMAKE_CURRENT_BINARY_DIR}/cmp_vecadd)
add_custom_command(OUTPUT ${cmp_vecadd}
  COMMAND ${AVP_LINUX_GCC} ${init_cflags} -I${cmp_dir} -o ${cmp_vecadd} ${cmp_dir}/cmp_vecadd.c ${kernel_image}
  DEPENDS ${cmp_dir}/cmp_vecadd.c ${cmp_dir}/device_image.h ${kernel_image}
          ${PROJECT_SOURCE_DIR}/platform/interfaces/include/pcie/bar0_regs.h
          ${PROJECT_SOURCE_DIR}/platform/interfaces/include/cmp/cmp_packets.h
  COMMENT "Building cmp_vecadd (riscv64-linux-gnu, static)" VERBATIM)
