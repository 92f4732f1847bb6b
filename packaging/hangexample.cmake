# The user guide's "A run that hangs": the ring run on the CPU executor with one message slot per
# connection, which every rank fills before it receives, so the watchdog stops it; its trace keeps
# where each threadblock was blocked. `cstudio run` exits 3 for a run the watchdog stopped: that is
# the expected outcome here, anything else (a run that finished, an error) fails the build.
#   cmake -DCSTUDIO=cstudio -DIN=ring.csdesign.json -DOUT=hang.trace.json -P hangexample.cmake
execute_process(
  COMMAND "${CSTUDIO}" run "${IN}" --backend cpu --bytes 1M --slots 1 --timeout 0.5
          --trace "${OUT}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE errors)
if(NOT status EQUAL 3)
  message(FATAL_ERROR "${IN}: expected the 1-slot run to hang (exit status 3), got ${status}:\n"
                      "${output}${errors}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "${IN}: the hung run wrote no trace ${OUT}:\n${errors}")
endif()
