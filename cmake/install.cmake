# Installing loadgen like any Linux tool (included at the end of CMakeLists.txt):
#  - `-c NAME` finds an installed loadfile (src/load/loadfile_find.c, its directories set in
#    src/load/CMakeLists.txt);
#  - man pages generated from the binary's --help (help2man) and loadfiles/README.md
#    (pandoc), so they say what the code does (tests/integration/test_manpages.py);
#  - bash completion where bash-completion looks for it;
#  - `cpack -G DEB`: a .deb whose dependencies dpkg-shlibdeps computes.

# --- Man pages -------------------------------------------------------------------------
option(LOADGEN_MAN "Generate and install the man pages (Debian: help2man, pandoc)" ON)
if(LOADGEN_MAN AND LOADGEN_TSAN)
  # The pages run the binary at build time; a TSan binary may not start where the kernel
  # randomises mmap more than TSan allows (see .ci/run). The plain build has the pages.
  message(STATUS "LOADGEN_TSAN: no man pages in this build")
  set(LOADGEN_MAN OFF)
endif()
if(LOADGEN_MAN)
  find_program(HELP2MAN help2man)
  find_program(PANDOC pandoc)
  find_program(GZIP gzip)
  if(NOT HELP2MAN OR NOT PANDOC OR NOT GZIP)
    message(WARNING "help2man, pandoc or gzip not found: no man pages "
      "(apt-get install help2man pandoc, or -DLOADGEN_MAN=OFF to silence this)")
    set(LOADGEN_MAN OFF)
  endif()
endif()
if(LOADGEN_MAN)
  set(LG_MAN_OUT ${PROJECT_BINARY_DIR}/man)
  set(LG_MAN_SRC ${PROJECT_SOURCE_DIR}/man)
  file(MAKE_DIRECTORY ${LG_MAN_OUT})
  string(TIMESTAMP LG_MAN_DATE "%B %Y" UTC) # honours SOURCE_DATE_EPOCH
  set(LG_MAN_PAGES)
  # lg_man_page(PAGE SUBCOMMAND SUMMARY [FALLBACK_HELP]): PAGE.1 from `loadgen SUB --help`.
  function(lg_man_page page sub summary)
    set(fallback ${ARGN})
    set(out ${LG_MAN_OUT}/${page}.1)
    add_custom_command(OUTPUT ${out}
      COMMAND sh ${LG_MAN_SRC}/mkman.sh ${HELP2MAN} $<TARGET_FILE:loadgen> "${sub}"
              ${PROJECT_VERSION} "${summary}" ${LG_MAN_SRC}/${page}.h2m ${out} ${fallback}
      DEPENDS loadgen ${LG_MAN_SRC}/mkman.sh ${LG_MAN_SRC}/${page}.h2m ${fallback}
      COMMENT "Generating man page ${page}(1) from loadgen ${sub} --help" VERBATIM)
    set(LG_MAN_PAGES ${LG_MAN_PAGES} ${out} PARENT_SCOPE)
  endfunction()
  lg_man_page(loadgen "" "measure a filesystem under concurrent load")
  lg_man_page(loadgen-compare compare "compare loadgen result files with statistics")
  lg_man_page(loadgen-ab ab "compare 2 to 8 setups run interleaved, with paired tests")
  lg_man_page(loadgen-calibrate calibrate "measure this machine's spread between batches of a setup")
  lg_man_page(loadgen-history history "keep results in a store and find where a series changed")
  lg_man_page(loadgen-import import "convert a dbench loadfile into a loadgen workload")
  lg_man_page(loadgen-record record "record a program's filesystem calls as a loadgen workload")
  lg_man_page(loadgen-report report "draw loadgen result files as one HTML page"
    ${LG_MAN_SRC}/loadgen-report.help)
  set(out ${LG_MAN_OUT}/loadgen-workload.5)
  add_custom_command(OUTPUT ${out}
    COMMAND ${PANDOC} --from=gfm --to=man --standalone
            --lua-filter=${LG_MAN_SRC}/workload.lua
            --metadata=title=LOADGEN-WORKLOAD --metadata=section=5
            "--metadata=header=loadgen manual" "--metadata=footer=loadgen ${PROJECT_VERSION}"
            "--metadata=date=${LG_MAN_DATE}"
            --output=${out} ${PROJECT_SOURCE_DIR}/loadfiles/README.md
    DEPENDS ${PROJECT_SOURCE_DIR}/loadfiles/README.md ${LG_MAN_SRC}/workload.lua
    COMMENT "Generating man page loadgen-workload(5) from loadfiles/README.md" VERBATIM)
  list(APPEND LG_MAN_PAGES ${out})
  # Installed compressed, as Debian does; the plain pages stay in build/man for man -l.
  set(LG_MAN_GZ)
  foreach(page ${LG_MAN_PAGES})
    add_custom_command(OUTPUT ${page}.gz
      COMMAND ${GZIP} -9 -n -c ${page} > ${page}.gz
      DEPENDS ${page} VERBATIM)
    list(APPEND LG_MAN_GZ ${page}.gz)
    string(REGEX MATCH "[0-9]$" section ${page})
    install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
  endforeach()
  add_custom_target(man ALL DEPENDS ${LG_MAN_PAGES} ${LG_MAN_GZ})
endif()

# --- Bash completion ---------------------------------------------------------------------
# Where bash-completion looks: its pkg-config completionsdir, kept relative to our prefix
# when it lies under bash-completion's datadir (so --prefix ~/.local works without root;
# bash-completion also looks in <dir of the command>/../share/bash-completion/completions).
set(LOADGEN_BASH_COMPLETION_DIR "" CACHE STRING
  "Install directory of the bash completion (default: from pkg-config bash-completion)")
set(lg_bc_dir ${LOADGEN_BASH_COMPLETION_DIR})
if(NOT lg_bc_dir)
  set(lg_bc_dir ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  pkg_get_variable(lg_bc_completionsdir bash-completion completionsdir)
  pkg_get_variable(lg_bc_datadir bash-completion datadir)
  if(lg_bc_completionsdir AND lg_bc_datadir)
    string(FIND "${lg_bc_completionsdir}" "${lg_bc_datadir}/" pos)
    if(pos EQUAL 0)
      string(LENGTH "${lg_bc_datadir}" n)
      string(SUBSTRING "${lg_bc_completionsdir}" ${n} -1 rest)
      set(lg_bc_dir ${CMAKE_INSTALL_DATADIR}${rest})
    else()
      set(lg_bc_dir ${lg_bc_completionsdir})
    endif()
  endif()
endif()
configure_file(completion/loadgen.bash.in ${PROJECT_BINARY_DIR}/completion/loadgen @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/completion/loadgen DESTINATION ${lg_bc_dir})

# --- Debian package: cpack -G DEB (in the build directory) --------------------------------
# The Maintainer field: the project's own address; a distribution that packages loadgen
# sets its own (-DLOADGEN_DEB_MAINTAINER="Name <address>").
set(LOADGEN_DEB_MAINTAINER "loadgen developers <loadgen@example.org>" CACHE STRING
  "Maintainer field of the .deb")
if(LOADGEN_DEB_MAINTAINER STREQUAL "loadgen developers <loadgen@localhost>") # the old default
  set(LOADGEN_DEB_MAINTAINER "loadgen developers <loadgen@example.org>" CACHE STRING
    "Maintainer field of the .deb" FORCE)
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME loadgen)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${LOADGEN_DEB_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "filesystem load generator with exact, statistical results")
# The long description, one control-file line per line (at most 79 characters, whole
# sentences). string(CONCAT): a list would join the lines with ';', and a literal ';'
# in the text is a list separator to CMake (it once ate one), so the text has none.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "loadgen puts a filesystem under concurrent load and measures it, like dbench\n"
  "but exact and statistical: N clients (threads or processes) replay a YAML\n"
  "workload or a dbench loadfile. Every op is timed, latencies go into mergeable\n"
  "histograms, and the result (throughput, per-op latency percentiles, fairness,\n"
  "stalls, environment) is printed and written as JSON.\n"
  "\n"
  "loadgen compare tells whether two sets of runs differ significantly, loadgen ab\n"
  "compares setups run interleaved, round by round, and loadgen report draws\n"
  "results as one HTML page. Workloads are shipped: fileserver, varmail,\n"
  "webserver, dd, bonnie and more.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # loadgen_VERSION-1_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)             # Depends: from dpkg-shlibdeps (dpkg-dev)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "strace")              # loadgen record runs it
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, dbench")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
