# A plugin is a module library built against the engine's public headers only, like a third party's.
function(grainlab_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE grainlab-engine)
  set_target_properties(${name} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${GRAINLAB_PLUGIN_DIR}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  grainlab_warnings(${name})
  set_property(GLOBAL APPEND PROPERTY GRAINLAB_PLUGIN_TARGETS ${name})
endfunction()
