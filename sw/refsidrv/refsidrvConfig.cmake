# find_package(refsidrv): imported targets refsidrv::refsidrv (shared) and
# refsidrv::refsidrv_static, from the prefix accel-vp's host libraries were
# installed into (<prefix>/lib/cmake/refsidrv/ holds this file).
get_filename_component(_refsidrv_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET refsidrv::accelvp_host)
  add_library(refsidrv::accelvp_host SHARED IMPORTED)
  set_target_properties(refsidrv::accelvp_host PROPERTIES IMPORTED_LOCATION "${_refsidrv_prefix}/lib/libaccelvp-host.so")
endif()
if(NOT TARGET refsidrv::refsidrv)
  add_library(refsidrv::refsidrv SHARED IMPORTED)
  set_target_properties(refsidrv::refsidrv PROPERTIES IMPORTED_LOCATION "${_refsidrv_prefix}/lib/librefsidrv.so"
                        INTERFACE_INCLUDE_DIRECTORIES "${_refsidrv_prefix}/include")
  add_library(refsidrv::refsidrv_static STATIC IMPORTED)
  set_target_properties(refsidrv::refsidrv_static PROPERTIES IMPORTED_LOCATION "${_refsidrv_prefix}/lib/librefsidrv.a"
                        INTERFACE_INCLUDE_DIRECTORIES "${_refsidrv_prefix}/include"
                        INTERFACE_LINK_LIBRARIES refsidrv::accelvp_host)
endif()
set(refsidrv_FOUND TRUE)
