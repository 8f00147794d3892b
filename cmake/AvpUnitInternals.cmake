# A model unit's public headers are in models/<unit>/include/<unit>/, its
# library's PUBLIC include root; its private headers stay in models/<unit>/,
# which only the unit's own sources see (docs/architecture.md).
# avp_unit_internals(<target> <unit library>): for tests and benchmarks of a
# unit's own parts, which include its private headers as "<name>.h". Every
# other target sees a unit's public headers only.
function(avp_unit_internals target unit)
  get_target_property(unit_folder ${unit} SOURCE_DIR)
  target_include_directories(${target} PRIVATE ${unit_folder})
endfunction()
