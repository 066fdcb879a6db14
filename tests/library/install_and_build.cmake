# SPDX-License-Identifier: Apache-2.0
# CTest `library.installed_package`: installs the build into a scratch prefix, builds
# examples/library against it with find_package(Foresight) (nothing from the source tree on the
# include path), runs the program and checks what it prints against the paper example's numbers
# (tests/golden/predict/matmul-fx5600.out: 12015208.33 cycles at 1.35 GHz = 8900.15 us).
#
#   cmake -DBUILD_DIR=… -DSOURCE_DIR=… -DWORK=… -DCC=… -DCXX=… [-DLAUNCHER=ccache] -P install_and_build.cmake
foreach(v BUILD_DIR SOURCE_DIR WORK CC CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_and_build.cmake: -D${v}= is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/foresight/foresight.h include/foresight/model/predict.h include/foresight/placement.cuh
          lib/cmake/Foresight/ForesightConfig.cmake lib/cmake/Foresight/ForesightConfigVersion.cmake bin/foresight)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the installed package lacks ${f}")
  endif()
endforeach()

set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configuring examples/library" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/library -B ${WORK}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=Release ${launcher})
run("building examples/library" ${CMAKE_COMMAND} --build ${WORK}/build)
run("predict_and_explain" ${WORK}/build/predict_and_explain ${SOURCE_DIR}/examples/summary/matmul-fx5600.toml fx5600 gtx280)
message(STATUS "predict_and_explain printed:\n${last_output}")
foreach(expected
    "matmul_tiled on fx5600: 8900.15 us, issue-bound \\(throughput\\), model mwp-cwp/grophecy"
    "explain: same time 8900.15 us"
    "matmul_tiled on gtx280: ")
  if(NOT last_output MATCHES "${expected}")
    message(FATAL_ERROR "predict_and_explain did not print '${expected}'")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
