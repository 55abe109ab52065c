# Finding the system's C++ libraries with a message a user can act on (docs/development.md).
# CMake's own "Could not find a package configuration file provided by embree" names neither
# the Debian package to install nor the script that installs them all; a `pip install .` that
# gets that far would otherwise end in a compiler error deep in the build.
#
#   ubot_require(<Package> DEBIAN <deb> [FIND <find_package arguments...>])
#   ubot_require_pkgconfig(<prefix> <module> DEBIAN <deb>)   # an IMPORTED_TARGET PkgConfig::<prefix>
#   ubot_require_program(<var> <name> DEBIAN <deb>)
#
# Macros, so that what find_package sets lands in the caller's scope.

set(UBOT_DEPS_HINT "scripts/install-deps.sh installs every package ubot builds with")

macro(ubot_require package)
  cmake_parse_arguments(_ubot_req "" "DEBIAN" "FIND" ${ARGN})
  find_package(${package} ${_ubot_req_FIND} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "ubot needs ${package} ${_ubot_req_FIND}, which CMake did not find: "
                        "install the Debian package ${_ubot_req_DEBIAN} (${UBOT_DEPS_HINT})")
  endif()
endmacro()

macro(ubot_require_pkgconfig prefix module)
  cmake_parse_arguments(_ubot_req "" "DEBIAN" "" ${ARGN})
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "ubot needs the library ${module} (pkg-config), which was not found: "
                        "install the Debian package ${_ubot_req_DEBIAN} (${UBOT_DEPS_HINT})")
  endif()
endmacro()

macro(ubot_require_program var name)
  cmake_parse_arguments(_ubot_req "" "DEBIAN" "" ${ARGN})
  find_program(${var} ${name})
  if(NOT ${var})
    message(FATAL_ERROR "ubot needs the program ${name}, which is not on PATH: install the "
                        "Debian package ${_ubot_req_DEBIAN} (${UBOT_DEPS_HINT})")
  endif()
endmacro()
