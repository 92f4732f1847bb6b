# Run at build time (packaging/manpages.cmake): writes help2man's include file for cstudio.1, a
# COMMANDS section holding the --help of every subcommand, in the order and with the paths that
# `cstudio completions commands` lists. Nothing here is written by hand, so the man page follows
# the program.
#   cmake -DCSTUDIO=path/to/cstudio -DOUT=commands.h2m -P mancommands.cmake

execute_process(COMMAND ${CSTUDIO} completions commands
  OUTPUT_VARIABLE paths RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "cstudio completions commands failed")
endif()
string(REPLACE "\n" ";" paths "${paths}")

set(text "[COMMANDS]\n")
foreach(path IN LISTS paths)
  if(path STREQUAL "")
    continue()
  endif()
  separate_arguments(words UNIX_COMMAND "${path}")
  execute_process(COMMAND ${CSTUDIO} ${words} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "cstudio ${path} --help failed")
  endif()
  # roff: a backslash is \e, and a line starting with . or ' would be a request.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND text ".SS \"cstudio ${path}\"\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${OUT} "${text}")
