# Examples, written by the just-built cstudio from its own catalogue at build time (never copied
# from the corpus): MSCCL XML for each runtime's dialect, a design document the editor opens, and
# the deadlocking ring of the user guide's "Fixing a deadlock", a simulated run to replay, the same
# design run on the CPU executor to compare with it, and a run that hangs.
# Installed under share/doc/collective-studio/examples; the package CI validates one of them.

set(CSTUDIO_EXAMPLES_DIR ${CMAKE_CURRENT_BINARY_DIR}/examples)
# "file|generate arguments": the file's extension picks XML or a design document.
set(CSTUDIO_EXAMPLES
  "ring-allreduce-8.xml|ring-allreduce --ranks 8 --channels 2"
  "ring-allreduce-8-classic.xml|ring-allreduce --ranks 8 --dialect classic"
  "double-binary-tree-allreduce-8.xml|double-binary-tree-allreduce --ranks 8"
  "hierarchical-ring-allreduce-16.xml|hierarchical-ring-allreduce --ranks 16 --group 8"
  "direct-alltoall-8-rccl.xml|direct-alltoall --ranks 8 --dialect rccl"
  "ring-allreduce-4.csdesign.json|ring-allreduce --ranks 4")

set(example_files)
foreach(example IN LISTS CSTUDIO_EXAMPLES)
  string(REPLACE "|" ";" parts "${example}")
  list(GET parts 0 file)
  list(GET parts 1 arguments)
  separate_arguments(arguments UNIX_COMMAND "${arguments}")
  add_custom_command(OUTPUT ${CSTUDIO_EXAMPLES_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CSTUDIO_EXAMPLES_DIR}
    COMMAND cstudio generate ${arguments} -o ${CSTUDIO_EXAMPLES_DIR}/${file}
    DEPENDS cstudio
    COMMENT "Generating the example ${file}"
    VERBATIM)
  list(APPEND example_files ${CSTUDIO_EXAMPLES_DIR}/${file})
endforeach()
# The user guide's "Fixing a deadlock": a generated ring whose ranks all receive before they send.
set(deadlock ${CSTUDIO_EXAMPLES_DIR}/ring-allreduce-4-deadlock.xml)
add_custom_command(OUTPUT ${deadlock}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CSTUDIO_EXAMPLES_DIR}
  COMMAND cstudio generate ring-allreduce --ranks 4 -o ${deadlock}.ring.xml
  COMMAND ${CMAKE_COMMAND} -DIN=${deadlock}.ring.xml -DOUT=${deadlock}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/deadlockexample.cmake
  COMMAND ${CMAKE_COMMAND} -E rm ${deadlock}.ring.xml
  DEPENDS cstudio ${CMAKE_CURRENT_SOURCE_DIR}/deadlockexample.cmake
  COMMENT "Generating the example ring-allreduce-4-deadlock.xml"
  VERBATIM)
list(APPEND example_files ${deadlock})

# The user guide's "Replaying a run": the 4-rank ring simulated on a 4-GPU ring, 1 MiB.
set(design ${CSTUDIO_EXAMPLES_DIR}/ring-allreduce-4.csdesign.json)
set(trace ${CSTUDIO_EXAMPLES_DIR}/ring-allreduce-4.trace.json)
add_custom_command(OUTPUT ${trace}
  COMMAND cstudio simulate ${design} --topology ring-4 --bytes 1M --trace ${trace}
  DEPENDS cstudio ${design}
  COMMENT "Generating the example ring-allreduce-4.trace.json"
  VERBATIM)
list(APPEND example_files ${trace})

# The user guide's "Comparing two runs": the same design run on the CPU reference executor, to
# compare with the simulated run above (what the design predicts against what an executor did).
set(cpu_trace ${CSTUDIO_EXAMPLES_DIR}/ring-allreduce-4.cpu.trace.json)
add_custom_command(OUTPUT ${cpu_trace}
  COMMAND cstudio run ${design} --backend cpu --bytes 1M --iters 1 --warmup 0 --trace ${cpu_trace}
  DEPENDS cstudio ${design}
  COMMENT "Generating the example ring-allreduce-4.cpu.trace.json"
  VERBATIM)
list(APPEND example_files ${cpu_trace})

# The user guide's "A run that hangs": the same design with one slot per connection, stopped by
# the watchdog (hangexample.cmake accepts only that outcome).
set(hang_trace ${CSTUDIO_EXAMPLES_DIR}/ring-allreduce-4-hang.trace.json)
add_custom_command(OUTPUT ${hang_trace}
  COMMAND ${CMAKE_COMMAND} -DCSTUDIO=$<TARGET_FILE:cstudio> -DIN=${design} -DOUT=${hang_trace}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/hangexample.cmake
  DEPENDS cstudio ${design} ${CMAKE_CURRENT_SOURCE_DIR}/hangexample.cmake
  COMMENT "Generating the example ring-allreduce-4-hang.trace.json"
  VERBATIM)
list(APPEND example_files ${hang_trace})
add_custom_target(cs_examples ALL DEPENDS ${example_files})
install(FILES ${example_files} DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
