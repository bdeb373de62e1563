# lg_layer(NAME SOURCES... DEPS LIBS...): the static library lg_NAME of one layer, linking
# only the layers (and packages) listed in DEPS, and a check that it needs nothing else:
# lg_layer_check_NAME links every object of the layer (whole archive) into an empty
# program with DEPS alone, so a call into a higher layer is an undefined symbol there and
# the build fails, naming the symbol and the file that uses it.
function(lg_layer name)
  cmake_parse_arguments(L "" "" "DEPS" ${ARGN})
  add_library(lg_${name} STATIC ${L_UNPARSED_ARGUMENTS})
  target_include_directories(lg_${name}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(lg_${name} PUBLIC ${L_DEPS})
  add_executable(lg_layer_check_${name} ${PROJECT_SOURCE_DIR}/cmake/layer_check.c)
  target_link_libraries(lg_layer_check_${name} PRIVATE
    "$<LINK_LIBRARY:WHOLE_ARCHIVE,lg_${name}>" ${L_DEPS})
  # the executable and every test depend on the checks, so no build skips them
  set_property(GLOBAL APPEND PROPERTY LG_LAYER_CHECKS lg_layer_check_${name})
endfunction()
