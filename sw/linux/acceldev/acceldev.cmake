# The Acceldev driver module and its test programs for the host system's
# initramfs (docs/linux-driver.md), included by sw/linux/CMakeLists.txt.
# Sets acceldev_files: what initramfs-host.list packs from here.
set(kmod_src ${CMAKE_CURRENT_SOURCE_DIR}/acceldev)
set(kmod_dir ${CMAKE_CURRENT_BINARY_DIR}/acceldev)
set(kmod_sources ${kmod_src}/Kbuild ${kmod_src}/acceldev.h ${kmod_src}/device.c ${kmod_src}/context.c ${kmod_src}/buffer.c)
set(kmod_headers ${PROJECT_SOURCE_DIR}/platform/interfaces/include/pcie/bar0_regs.h
    ${PROJECT_SOURCE_DIR}/sw/host/include/acceldev_uapi.h)
# Kbuild builds in M's directory: the sources are copied there (unchanged
# files keep their times, so kbuild recompiles only what changed).
add_custom_command(OUTPUT ${kmod_dir}/acceldev.ko
  COMMAND ${CMAKE_COMMAND} -E make_directory ${kmod_dir}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${kmod_sources} ${kmod_dir}
  COMMAND ${kmake} M=${kmod_dir}
          "AVP_INCLUDE=${PROJECT_SOURCE_DIR}/platform/interfaces/include/pcie ${PROJECT_SOURCE_DIR}/sw/host/include" modules
  # kbuild leaves an up-to-date module alone: newer than what made ninja run it.
  COMMAND ${CMAKE_COMMAND} -E touch ${kmod_dir}/acceldev.ko
  DEPENDS ${kmod_sources} ${kmod_headers} ${kbuild}/Module.symvers ${image}
  COMMENT "Building the Acceldev kernel module (${kmod_dir}/acceldev.ko)" VERBATIM)

# Test programs, static: the programs written for the original driver
# (tests/bridge/devfile_*.c, unchanged) and the driver's own.
set(acceldev_files ${kmod_dir}/acceldev.ko)
set(test_cflags -static -O2 -std=gnu11 -D_GNU_SOURCE= -Wall -Werror -I${PROJECT_SOURCE_DIR}/sw/host/include
    -I${PROJECT_SOURCE_DIR}/platform/interfaces/include/pcie -I${PROJECT_SOURCE_DIR}/tests/bridge)
foreach(t devfile_ops devfile_mmap devfile_threads devfile_clients devfile_close_buffer devfile_dup_fork devfile_hostile
          acceldev_driver)
  if(t MATCHES "^devfile_")
    set(t_src ${PROJECT_SOURCE_DIR}/tests/bridge/${t}.c)
  else()
    set(t_src ${PROJECT_SOURCE_DIR}/tests/linux/${t}.c)
  endif()
  add_custom_command(OUTPUT ${kmod_dir}/tests/${t}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${kmod_dir}/tests
    COMMAND ${AVP_LINUX_GCC} ${test_cflags} -o ${kmod_dir}/tests/${t} ${t_src} -pthread
    DEPENDS ${t_src} ${PROJECT_SOURCE_DIR}/tests/bridge/devfile.h ${PROJECT_SOURCE_DIR}/tests/bridge/check.h ${kmod_headers}
    COMMENT "Building ${t} for the host system (riscv64-linux-gnu, static)" VERBATIM)
  list(APPEND acceldev_files ${kmod_dir}/tests/${t})
endforeach()
