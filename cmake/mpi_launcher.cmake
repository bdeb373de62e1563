# The MPI that loadgen links, and the launcher that belongs to it (docs/many-hosts.md).
# Debian installs Open MPI and MPICH side by side: mpicc, mpirun and mpiexec are
# alternatives naming one of them (Open MPI unless switched), whatever library a build
# directory was configured with (-DMPI_C_COMPILER=/usr/bin/mpicc.mpich), and a rank
# started by the other MPI's launcher is alone in its world. The tests run ranks with
# LOADGEN_MPIEXEC (tests/integration/lgtest.py mpi_cmd), which must be the library's own.
#
# Sets LOADGEN_MPI_FLAVOUR (openmpi, mpich or other: from the macros of the mpi.h in use)
# and the cache variable LOADGEN_MPIEXEC (found, or given on the command line).
function(lg_mpi_launcher)
  set(flavour other)
  set(header "${MPI_C_HEADER_DIR}/mpi.h")
  if(NOT EXISTS "${header}")
    find_file(header_found mpi.h PATHS ${MPI_C_INCLUDE_DIRS} NO_DEFAULT_PATH)
    set(header "${header_found}")
  endif()
  if(EXISTS "${header}")
    file(STRINGS "${header}" mpich REGEX "^#define MPICH_VERSION ")
    file(STRINGS "${header}" ompi REGEX "^#define OMPI_MAJOR_VERSION ")
    if(mpich)
      set(flavour mpich)
    elseif(ompi)
      set(flavour openmpi)
    endif()
  endif()
  get_filename_component(bindir "${MPI_C_COMPILER}" DIRECTORY)
  # the Debian names first (they stay put whatever the alternatives say), then the
  # launcher next to the compiler wrapper of an install of its own
  if(flavour STREQUAL "mpich")
    set(names mpiexec.hydra mpiexec.mpich mpirun.mpich mpiexec)
    set(want "HYDRA")
  elseif(flavour STREQUAL "openmpi")
    set(names mpirun.openmpi mpirun)
    set(want "Open MPI|OpenRTE|Open RTE")
  else()
    set(names mpiexec mpirun)
    set(want "")
  endif()
  find_program(LOADGEN_MPIEXEC NAMES ${names} HINTS "${bindir}"
    DOC "The MPI launcher the tests run ranks with (the one of the MPI loadgen links)")
  if(LOADGEN_MPIEXEC AND want)
    execute_process(COMMAND "${LOADGEN_MPIEXEC}" --version OUTPUT_VARIABLE out
      ERROR_VARIABLE out RESULT_VARIABLE rc TIMEOUT 20)
    if(NOT out MATCHES "${want}")
      string(REGEX REPLACE "\n.*" "" first "${out}")
      message(FATAL_ERROR "LOADGEN_MPIEXEC=${LOADGEN_MPIEXEC} is not the launcher of "
        "${flavour}, the MPI of ${MPI_C_COMPILER} (its --version: '${first}'): ranks it "
        "started would each be alone; give -DLOADGEN_MPIEXEC=<${flavour}'s mpiexec>")
    endif()
  endif()
  set(LOADGEN_MPI_FLAVOUR ${flavour} PARENT_SCOPE)
  message(STATUS "loadgen: MPI ${flavour}, launcher ${LOADGEN_MPIEXEC}")
endfunction()
