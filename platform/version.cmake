# Writes version.h from `git describe`, touching it only when the text changes.
execute_process(COMMAND git describe --always --dirty --tags WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE v OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT v)
  set(v "unknown")
endif()
set(text "#pragma once\n#define AVP_VERSION \"${PV}-${v}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
