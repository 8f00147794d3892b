# `make install PREFIX=...`: the simulator, its configurations and docs, and
# the device SDK in a form that builds programs outside this tree
# (docs/device-sdk.md, "Installed SDK"). The host libraries install their own
# files (sw/bridge, sw/refsidrv).
install(TARGETS accel-vp RUNTIME DESTINATION bin COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION share/accel-vp/configs COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/accel-vp COMPONENT docs)

if(NOT AVP_DEVICE_SDK_FOUND)
  return()
endif()
find_program(AVP_RISCV_AR riscv64-unknown-elf-ar REQUIRED)
set(_avp_sdk_dest share/accel-vp/sdk)
install(DIRECTORY ${AVP_DEVICE_SDK_DIR}/include/ DESTINATION ${_avp_sdk_dest}/include COMPONENT sdk)
install(DIRECTORY ${AVP_DEVICE_SDK_DIR}/ld/ DESTINATION ${_avp_sdk_dest}/ld COMPONENT sdk)
install(PROGRAMS ${AVP_DEVICE_SDK_DIR}/tools/make_code_object.py DESTINATION ${_avp_sdk_dest}/tools COMPONENT sdk)

# One archive of start-up code and I/O per variant, and its pkg-config file:
# accelvp-sdk (bare-metal programs for `accel-vp run --elf`) and accelvp-kernel
# (kernels the command processor launches; entry kernel_main).
set(_avp_pc_accelvp accelvp-sdk)
set(_avp_pc_kernel accelvp-kernel)
set(_avp_entry_accelvp "")
set(_avp_entry_kernel "-Wl,-e,kernel_main -Wl,--undefined=kernel_main")
foreach(AVP_SDK_VARIANT accelvp kernel)
  _avp_device_sdk(${AVP_SDK_VARIANT} _objs)
  set(_lib ${CMAKE_BINARY_DIR}/avp-device-sdk/libavpsdk-${AVP_SDK_VARIANT}.a)
  add_custom_command(OUTPUT ${_lib} COMMAND ${CMAKE_COMMAND} -E rm -f ${_lib}
                     COMMAND ${AVP_RISCV_AR} rcs ${_lib} ${_objs} DEPENDS ${_objs}
                     COMMENT "RISC-V AR libavpsdk-${AVP_SDK_VARIANT}.a" VERBATIM)
  add_custom_target(avp_sdk_archive_${AVP_SDK_VARIANT} ALL DEPENDS ${_lib})
  add_dependencies(avp_sdk_archive_${AVP_SDK_VARIANT} avp_device_sdk_${AVP_SDK_VARIANT})
  install(FILES ${_lib} DESTINATION ${_avp_sdk_dest}/lib COMPONENT sdk)
  set(AVP_SDK_DEFINE ${_avp_define_${AVP_SDK_VARIANT}})
  set(AVP_SDK_ENTRY ${_avp_entry_${AVP_SDK_VARIANT}})
  set(AVP_SDK_NAME ${_avp_pc_${AVP_SDK_VARIANT}})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/accelvp-sdk.pc.in ${CMAKE_BINARY_DIR}/avp-device-sdk/${AVP_SDK_NAME}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/avp-device-sdk/${AVP_SDK_NAME}.pc DESTINATION lib/pkgconfig COMPONENT sdk)
endforeach()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/accelvp-sdkConfig.cmake DESTINATION lib/cmake/accelvp-sdk COMPONENT sdk)
