# find_package(accelvp-sdk): builds device programs for accel-vp outside its
# source tree with riscv64-unknown-elf-gcc (docs/device-sdk.md).
#   accelvp_sdk_add_program(NAME SOURCES a.c ... [KERNEL])
# makes NAME.elf in the current binary directory: a bare-metal program for
# `accel-vp run --elf`, or with KERNEL a kernel the command processor launches.
get_filename_component(ACCELVP_SDK_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../share/accel-vp/sdk" ABSOLUTE)
find_program(ACCELVP_SDK_GCC riscv64-unknown-elf-gcc REQUIRED)
set(ACCELVP_SDK_ARCH_FLAGS -march=rv64gc -mabi=lp64d -mcmodel=medany --specs=picolibc.specs)

function(accelvp_sdk_add_program NAME)
  cmake_parse_arguments(A "KERNEL" "" "SOURCES" ${ARGN})
  set(variant accelvp)
  set(define AVP_TARGET_ACCELVP)
  set(entry)
  if(A_KERNEL)
    set(variant kernel)
    set(define AVP_TARGET_KERNEL)
    set(entry -Wl,-e,kernel_main -Wl,--undefined=kernel_main)
  endif()
  set(sources)
  foreach(s ${A_SOURCES})
    get_filename_component(s ${s} ABSOLUTE)
    list(APPEND sources ${s})
  endforeach()
  set(elf ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.elf)
  add_custom_command(
    OUTPUT ${elf}
    COMMAND ${ACCELVP_SDK_GCC} ${ACCELVP_SDK_ARCH_FLAGS} -O2 -D${define} -I${ACCELVP_SDK_DIR}/include ${sources}
            -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments ${entry} -L${ACCELVP_SDK_DIR}/ld -T ${variant}.ld
            -Wl,--whole-archive ${ACCELVP_SDK_DIR}/lib/libavpsdk-${variant}.a -Wl,--no-whole-archive -o ${elf}
    DEPENDS ${sources} COMMENT "RISC-V ${NAME}.elf" VERBATIM)
  add_custom_target(${NAME} ALL DEPENDS ${elf})
endfunction()
