# Cross-compiling RISC-V device programs inside the host CMake project.
#
#   avp_add_device_program(NAME
#       SOURCES file.c|file.S|file.cpp ...
#       [TARGET accelvp|qemu-virt|qemu-user|kernel]   (default accelvp)
#       [LINKER_SCRIPT file.ld]                          (default: the target's)
#       [INCLUDES dir ...] [OPTIONS flag ...] [LINK_OPTIONS flag ...]
#       [QEMU_HARTS n]                                   (qemu-virt: harts that run, default 1)
#       [ENTRY symbol])                                  (kernel target: entry symbol)
#
# Builds ${CMAKE_CURRENT_BINARY_DIR}/NAME.elf with riscv64-unknown-elf-gcc and
# picolibc through add_custom_command, so the cross toolchain never touches
# host targets. NAME becomes a custom target (part of ALL) whose property
# AVP_ELF holds the ELF path: use $<TARGET_PROPERTY:NAME,AVP_ELF> in tests.
# Programs get the device SDK (start-up code, I/O layer, avp/device.h) of
# their target; see docs/device-sdk.md. When the cross toolchain is missing,
# AVP_DEVICE_SDK_FOUND is OFF and the function does nothing.

set(AVP_DEVICE_SDK_DIR ${CMAKE_CURRENT_LIST_DIR}/../sw/device)
get_filename_component(AVP_DEVICE_SDK_DIR ${AVP_DEVICE_SDK_DIR} ABSOLUTE)

find_program(AVP_RISCV_GCC riscv64-unknown-elf-gcc)
find_program(AVP_RISCV_GXX riscv64-unknown-elf-g++)
find_program(AVP_RISCV_OBJCOPY riscv64-unknown-elf-objcopy)
find_program(AVP_QEMU_USER qemu-riscv64)
find_program(AVP_QEMU_SYSTEM qemu-system-riscv64)
if(AVP_RISCV_GCC)
  execute_process(COMMAND ${AVP_RISCV_GCC} -print-file-name=picolibc.specs
                  OUTPUT_VARIABLE _avp_picolibc_specs OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
# Device programs (kernels, test programs) need the cross toolchain. Without it
# the build stops with a configuration error instead of quietly leaving out
# the tests that use them; -DAVP_DEVICE_PROGRAMS=OFF builds without them on purpose.
option(AVP_DEVICE_PROGRAMS "Build the RISC-V device programs and the tests that run them (needs riscv64-unknown-elf-gcc and picolibc)" ON)
if(AVP_RISCV_GCC AND EXISTS "${_avp_picolibc_specs}" AND AVP_DEVICE_PROGRAMS)
  set(AVP_DEVICE_SDK_FOUND ON)
elseif(AVP_DEVICE_PROGRAMS)
  message(FATAL_ERROR "accel-vp: riscv64-unknown-elf-gcc with picolibc not found, so the device programs and the "
                      "tests that run them cannot be built. Install them (scripts/install-deps.sh: gcc-riscv64-unknown-elf, "
                      "picolibc-riscv64-unknown-elf) or configure with -DAVP_DEVICE_PROGRAMS=OFF to build without them.")
else()
  set(AVP_DEVICE_SDK_FOUND OFF)
  message(WARNING "accel-vp: AVP_DEVICE_PROGRAMS=OFF: device programs and the tests that run them are not built")
endif()

set(AVP_DEVICE_ARCH_FLAGS -march=rv64gc -mabi=lp64d -mcmodel=medany --specs=picolibc.specs)
set(AVP_DEVICE_CFLAGS -O2 -g -ffunction-sections -fdata-sections -fno-common -Wall -Wextra -Wno-unused-parameter -Wno-main)
# C++ sources (.cpp/.cc): freestanding C++ without the C++ runtime library.
set(AVP_DEVICE_CXXFLAGS -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit)
set(AVP_DEVICE_LINK_FLAGS -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments)

set(_avp_sdk_common src/api.c src/stdout.c src/console.c)
set(_avp_sdk_accelvp src/crt0_baremetal.S src/start.c src/io_ecall.c ${_avp_sdk_common})
set(_avp_sdk_qemu-virt src/crt0_baremetal.S src/start.c src/io_virt.c ${_avp_sdk_common})
set(_avp_sdk_qemu-user src/crt0_linux.S src/start.c src/io_linux.c ${_avp_sdk_common})
set(_avp_sdk_kernel src/kernel_hartid.c src/io_ecall.c ${_avp_sdk_common})
set(_avp_define_accelvp AVP_TARGET_ACCELVP)
set(_avp_define_qemu-virt AVP_TARGET_QEMU_VIRT)
set(_avp_define_qemu-user AVP_TARGET_QEMU_USER)
set(_avp_define_kernel AVP_TARGET_KERNEL)

# Adds the custom command compiling SRC into OBJ (with a depfile); the
# compiler is ccache'd when the host build uses ccache.
function(_avp_device_compile SRC OBJ)
  cmake_parse_arguments(C "" "" "FLAGS" ${ARGN})
  set(launcher)
  if(CCACHE_PROGRAM)
    set(launcher ${CCACHE_PROGRAM})
  endif()
  get_filename_component(dir ${OBJ} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  set(compiler ${AVP_RISCV_GCC})
  if(SRC MATCHES "\\.(cpp|cc)$")
    if(NOT AVP_RISCV_GXX)
      message(FATAL_ERROR "${SRC}: riscv64-unknown-elf-g++ not found")
    endif()
    set(compiler ${AVP_RISCV_GXX})
    list(APPEND C_FLAGS ${AVP_DEVICE_CXXFLAGS})
  endif()
  add_custom_command(
    OUTPUT ${OBJ}
    COMMAND ${launcher} ${compiler} ${AVP_DEVICE_ARCH_FLAGS} ${AVP_DEVICE_CFLAGS} ${C_FLAGS}
            -MD -MF ${OBJ}.d -c ${SRC} -o ${OBJ}
    DEPENDS ${SRC}
    DEPFILE ${OBJ}.d
    COMMENT "RISC-V CC ${OBJ}"
    VERBATIM COMMAND_EXPAND_LISTS)
endfunction()

# Creates (once) the SDK objects of VARIANT; returns their paths in OUT_VAR.
function(_avp_device_sdk VARIANT OUT_VAR)
  set(dir ${CMAKE_BINARY_DIR}/avp-device-sdk/${VARIANT})
  set(objs)
  foreach(src ${_avp_sdk_${VARIANT}})
    get_filename_component(base ${src} NAME_WE)
    list(APPEND objs ${dir}/${base}.o)
  endforeach()
  if(NOT TARGET avp_device_sdk_${VARIANT})
    foreach(src ${_avp_sdk_${VARIANT}})
      get_filename_component(base ${src} NAME_WE)
      _avp_device_compile(${AVP_DEVICE_SDK_DIR}/${src} ${dir}/${base}.o
        FLAGS -D${_avp_define_${VARIANT}} -I${AVP_DEVICE_SDK_DIR}/include -I${AVP_DEVICE_SDK_DIR}/src
              -I${AVP_DEVICE_SDK_DIR}/../../platform/interfaces/include)
    endforeach()
    add_custom_target(avp_device_sdk_${VARIANT} DEPENDS ${objs})
  endif()
  set(${OUT_VAR} ${objs} PARENT_SCOPE)
endfunction()

function(avp_add_device_program NAME)
  cmake_parse_arguments(A "" "TARGET;LINKER_SCRIPT;ENTRY;QEMU_HARTS" "SOURCES;INCLUDES;OPTIONS;LINK_OPTIONS" ${ARGN})
  if(NOT AVP_DEVICE_SDK_FOUND)
    return()
  endif()
  if(NOT A_TARGET)
    set(A_TARGET accelvp)
  endif()
  if(NOT DEFINED _avp_sdk_${A_TARGET})
    message(FATAL_ERROR "avp_add_device_program(${NAME}): unknown TARGET '${A_TARGET}' (accelvp, qemu-virt, qemu-user, kernel)")
  endif()
  if(NOT A_SOURCES)
    message(FATAL_ERROR "avp_add_device_program(${NAME}): no SOURCES")
  endif()
  set(default_script OFF)
  if(NOT A_LINKER_SCRIPT)
    set(A_LINKER_SCRIPT ${AVP_DEVICE_SDK_DIR}/ld/${A_TARGET}.ld)
    set(default_script ON)
  endif()
  get_filename_component(A_LINKER_SCRIPT ${A_LINKER_SCRIPT} ABSOLUTE)

  _avp_device_sdk(${A_TARGET} sdk_objs)
  set(flags -D${_avp_define_${A_TARGET}} -I${AVP_DEVICE_SDK_DIR}/include ${A_OPTIONS})
  foreach(inc ${A_INCLUDES})
    get_filename_component(inc ${inc} ABSOLUTE)
    list(APPEND flags -I${inc})
  endforeach()

  set(objdir ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.dir)
  set(objs)
  foreach(src ${A_SOURCES})
    get_filename_component(src ${src} ABSOLUTE)
    get_filename_component(base ${src} NAME)
    if(${objdir}/${base}.o IN_LIST objs)
      message(FATAL_ERROR "avp_add_device_program(${NAME}): two sources named ${base}")
    endif()
    _avp_device_compile(${src} ${objdir}/${base}.o FLAGS ${flags})
    list(APPEND objs ${objdir}/${base}.o)
  endforeach()

  set(link_flags ${AVP_DEVICE_LINK_FLAGS} ${A_LINK_OPTIONS})
  if(A_QEMU_HARTS)
    if(NOT A_TARGET STREQUAL "qemu-virt")
      message(FATAL_ERROR "avp_add_device_program(${NAME}): QEMU_HARTS is for TARGET qemu-virt")
    endif()
    list(APPEND link_flags -Wl,--defsym=__avp_qemu_harts=${A_QEMU_HARTS})
  endif()
  if(A_TARGET STREQUAL "kernel")
    if(NOT A_ENTRY)
      set(A_ENTRY kernel_main)
    endif()
    list(APPEND link_flags -Wl,-e,${A_ENTRY} -Wl,--undefined=${A_ENTRY})
  endif()

  set(elf ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.elf)
  add_custom_command(
    OUTPUT ${elf}
    COMMAND ${AVP_RISCV_GCC} ${AVP_DEVICE_ARCH_FLAGS} ${link_flags}
            -T ${A_LINKER_SCRIPT} -L${AVP_DEVICE_SDK_DIR}/ld -Wl,-Map,${NAME}.map
            ${sdk_objs} ${objs} -o ${elf}
    DEPENDS ${sdk_objs} ${objs} ${A_LINKER_SCRIPT} ${AVP_DEVICE_SDK_DIR}/ld/avp_sections.ld
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    COMMENT "RISC-V LD ${NAME}.elf"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${NAME} ALL DEPENDS ${elf})
  add_dependencies(${NAME} avp_device_sdk_${A_TARGET})
  set_target_properties(${NAME} PROPERTIES AVP_ELF ${elf} AVP_DEVICE_TARGET ${A_TARGET})
  if(default_script)
    set_property(GLOBAL APPEND PROPERTY AVP_DEVICE_ELFS_${A_TARGET} ${elf})
  endif()
endfunction()

# HSA code objects (docs/aql.md, "Code objects"):
#
#   avp_add_code_object(NAME SOURCES file.c ... [INCLUDES dir ...] [OPTIONS flag ...])
#
# Builds ${CMAKE_CURRENT_BINARY_DIR}/NAME.co from kernels defined with
# AVP_HSA_KERNEL (avp/hsa_kernel.h): linked with ld/code_object.ld at base 0,
# linked again at another base to prove the image position independent, then
# sw/device/tools/make_code_object.py replaces the metadata records with the
# ACCELVP YAML note. NAME is a custom target whose AVP_ELF property holds the path.
function(avp_add_code_object NAME)
  cmake_parse_arguments(A "" "" "SOURCES;INCLUDES;OPTIONS" ${ARGN})
  if(NOT AVP_DEVICE_SDK_FOUND)
    return()
  endif()
  if(NOT AVP_RISCV_OBJCOPY)
    message(FATAL_ERROR "avp_add_code_object(${NAME}): riscv64-unknown-elf-objcopy not found")
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(script ${AVP_DEVICE_SDK_DIR}/ld/code_object.ld)
  set(base ${NAME}_linked)
  avp_add_device_program(${base} TARGET kernel SOURCES ${A_SOURCES} INCLUDES ${A_INCLUDES} OPTIONS ${A_OPTIONS}
                         LINKER_SCRIPT ${script} ENTRY __avp_code_object_start)
  avp_add_device_program(${base}_moved TARGET kernel SOURCES ${A_SOURCES} INCLUDES ${A_INCLUDES} OPTIONS ${A_OPTIONS}
                         LINKER_SCRIPT ${script} ENTRY __avp_code_object_start LINK_OPTIONS -Wl,--defsym=__avp_code_object_base=0x1000000)
  set(co ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.co)
  add_custom_command(
    OUTPUT ${co}
    COMMAND ${Python3_EXECUTABLE} ${AVP_DEVICE_SDK_DIR}/tools/make_code_object.py ${AVP_RISCV_OBJCOPY}
            $<TARGET_PROPERTY:${base},AVP_ELF> $<TARGET_PROPERTY:${base}_moved,AVP_ELF> ${co}
    DEPENDS ${base} ${base}_moved ${CMAKE_CURRENT_BINARY_DIR}/${base}.elf ${CMAKE_CURRENT_BINARY_DIR}/${base}_moved.elf
            ${AVP_DEVICE_SDK_DIR}/tools/make_code_object.py
    COMMENT "RISC-V code object ${NAME}.co"
    VERBATIM)
  add_custom_target(${NAME} ALL DEPENDS ${co})
  set_target_properties(${NAME} PROPERTIES AVP_ELF ${co})
endfunction()

# Test device_sdk.elf_layout.<target>: every program linked with a default
# script keeps to its target's memory map (sw/device/tests/check_elf_layout.py).
# Deferred to the end of the configure step, when all programs are known.
function(_avp_device_layout_tests)
  find_package(Python3 COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    return()
  endif()
  foreach(target accelvp qemu-virt qemu-user kernel)
    get_property(elfs GLOBAL PROPERTY AVP_DEVICE_ELFS_${target})
    if(elfs)
      add_test(NAME device_sdk.elf_layout.${target}
               COMMAND ${Python3_EXECUTABLE} ${AVP_DEVICE_SDK_DIR}/tests/check_elf_layout.py ${target} ${elfs})
      set_tests_properties(device_sdk.elf_layout.${target} PROPERTIES LABELS nosanitize TIMEOUT 60)
    endif()
  endforeach()
endfunction()
if(AVP_DEVICE_SDK_FOUND)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _avp_device_layout_tests)
endif()

# avp_program_gtest(TEST SOURCE PROGRAM DEFINE): a GoogleTest executable that
# runs accel-vp (macro ACCEL_VP) on the device program PROGRAM (its ELF path in
# macro DEFINE) and reads the run's output (tests/common); nothing when the
# program is not built (no RISC-V SDK).
function(avp_program_gtest test source program define)
  if(NOT TARGET ${program})
    return()
  endif()
  add_executable(${test} ${source})
  target_link_libraries(${test} PRIVATE nlohmann_json::nlohmann_json GTest::gtest_main)
  target_include_directories(${test} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common)
  target_compile_definitions(${test} PRIVATE ACCEL_VP="$<TARGET_FILE:accel-vp>" ${define}="$<TARGET_PROPERTY:${program},AVP_ELF>")
  add_dependencies(${test} accel-vp ${program})
  gtest_discover_tests(${test} DISCOVERY_TIMEOUT 30 PROPERTIES LABELS nosanitize)
endfunction()
